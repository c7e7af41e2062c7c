/*
 * engine_dirdelete — fio's dirdelete (fio 3.34 and later): the thread's "files" are
 * directories the job makes before the run, each removed with rmdir, which is what is
 * timed, one sample per directory (io/loop/fileops.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/engine.h"
#include "io/job.h"

static int dirdelete_op(sb_engine_td *td, const char *path) { return rmdir(path) < 0 ? -errno : 0; }

const sb_engine_ops sb_engine_dirdelete = {
    .name = "dirdelete",
    .rank = 25,
    .caps = SB_ENGINE_FILE_OPS | SB_ENGINE_DIRS | SB_ENGINE_NO_DATA | SB_ENGINE_ALLOCATES,
    .description = "times the rmdir of each directory, no I/O",
    .sync = true,
    .options = NULL,
    .init = sb_engine_init_none,
    .cleanup = sb_engine_cleanup_free,
    .file_op = dirdelete_op,
};
SB_ENGINE_REGISTER(sb_engine_dirdelete);
