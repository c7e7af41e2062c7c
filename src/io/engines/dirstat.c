/*
 * engine_dirstat — fio's dirstat (fio 3.34 and later): the thread's "files" are directories
 * the job makes before the run, each looked up with the call stat_type names, and that
 * call is what is timed, one sample per directory (io/loop/fileops.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/engine.h"
#include "io/job.h"

static int dirstat_op(sb_engine_td *td, const char *path) { return sb_engine_stat_path(td->job ? td->job->stat_type : SB_STAT_STAT, path); }

static const char *const dirstat_options[] = {"stat_type", NULL};
const sb_engine_ops sb_engine_dirstat = {
    .name = "dirstat",
    .rank = 24,
    .caps = SB_ENGINE_FILE_OPS | SB_ENGINE_DIRS | SB_ENGINE_NO_DATA,
    .description = "times a stat of each directory (stat_type), no I/O",
    .sync = true,
    .options = dirstat_options,
    .init = sb_engine_init_none,
    .cleanup = sb_engine_cleanup_free,
    .file_op = dirstat_op,
};
SB_ENGINE_REGISTER(sb_engine_dirstat);
