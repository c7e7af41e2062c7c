/*
 * engine_dircreate — fio's dircreate (fio 3.34 and later): each of the thread's "files" is a
 * directory made by the job, and the mkdir is what is timed, one sample per directory
 * (io/loop/fileops.c). None of the names may exist before; the directories go after the
 * run with the job's other files.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/engine.h"
#include "io/job.h"

static int dircreate_op(sb_engine_td *td, const char *path) { return mkdir(path, 0700) < 0 ? -errno : 0; }

const sb_engine_ops sb_engine_dircreate = {
    .name = "dircreate",
    .rank = 23,
    .caps = SB_ENGINE_FILE_OPS | SB_ENGINE_MAKES_FILES | SB_ENGINE_DIRS | SB_ENGINE_NO_DATA | SB_ENGINE_ALLOCATES,
    .description = "times the mkdir of each directory, no I/O",
    .sync = true,
    .options = NULL,
    .init = sb_engine_init_none,
    .cleanup = sb_engine_cleanup_free,
    .file_op = dircreate_op,
};
SB_ENGINE_REGISTER(sb_engine_dircreate);
