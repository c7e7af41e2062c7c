/*
 * engine_filecreate — fio's filecreate: no I/O; each of the thread's files (nrfiles of them)
 * is created, and the open(O_CREAT) is what is timed, one latency sample per file
 * (io/loop/fileops.c), in the direction of the job's rw, as fio. The files must not exist
 * before the run (the job refuses a name that does); they are the job's own and go with
 * its directory, as any file storbench creates.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/engine.h"
#include "io/job.h"

static int filecreate_op(sb_engine_td *td, const char *path)
{
    /* fio opens O_CREAT|O_RDWR; O_EXCL|O_NOFOLLOW: storbench never takes over a name that
     * is there (the job checked that none is) */
    int fd = open(path, O_CREAT | O_EXCL | O_NOFOLLOW | O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0)
        return -errno;
    close(fd);
    return 0;
}

const sb_engine_ops sb_engine_filecreate = {
    .name = "filecreate",
    .rank = 20,
    .caps = SB_ENGINE_FILE_OPS | SB_ENGINE_MAKES_FILES | SB_ENGINE_NO_DATA | SB_ENGINE_ALLOCATES,
    .description = "times the creation of each file (open O_CREAT), no I/O",
    .sync = true,
    .options = NULL,
    .init = sb_engine_init_none,
    .cleanup = sb_engine_cleanup_free,
    .file_op = filecreate_op,
};
SB_ENGINE_REGISTER(sb_engine_filecreate);
