/*
 * engine_filestat — fio's filestat: no I/O; each of the thread's files, laid out before
 * the run as for any job, is looked up with the call stat_type names (stat, lstat, or
 * statx of every field), and that call is what is timed, one sample per file
 * (io/loop/fileops.c): the cost of a lookup and getattr.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/engine.h"
#include "io/job.h"

static int filestat_op(sb_engine_td *td, const char *path) { return sb_engine_stat_path(td->job ? td->job->stat_type : SB_STAT_STAT, path); }

static const char *const filestat_options[] = {"stat_type", NULL};
const sb_engine_ops sb_engine_filestat = {
    .name = "filestat",
    .rank = 21,
    .caps = SB_ENGINE_FILE_OPS | SB_ENGINE_NO_DATA,
    .description = "times a stat of each file (stat_type: stat, lstat, statx), no I/O",
    .sync = true,
    .options = filestat_options,
    .init = sb_engine_init_none,
    .cleanup = sb_engine_cleanup_free,
    .file_op = filestat_op,
};
SB_ENGINE_REGISTER(sb_engine_filestat);
