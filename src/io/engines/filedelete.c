/*
 * engine_filedelete — fio's filedelete: no I/O; each of the thread's files, laid out before
 * the run (so they are the job's own), is unlinked, and the unlink is what is timed, one
 * sample per file (io/loop/fileops.c). A job that deletes changes its files even when its
 * rw reads (--readonly refuses it).
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/engine.h"
#include "io/job.h"

static int filedelete_op(sb_engine_td *td, const char *path) { return unlink(path) < 0 ? -errno : 0; }

const sb_engine_ops sb_engine_filedelete = {
    .name = "filedelete",
    .rank = 22,
    .caps = SB_ENGINE_FILE_OPS | SB_ENGINE_NO_DATA | SB_ENGINE_ALLOCATES,
    .description = "times the unlink of each file, no I/O",
    .sync = true,
    .options = NULL,
    .init = sb_engine_init_none,
    .cleanup = sb_engine_cleanup_free,
    .file_op = filedelete_op,
};
SB_ENGINE_REGISTER(sb_engine_filedelete);
