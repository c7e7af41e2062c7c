/*
 * opfiles — the names of a file op engine's job (engine.h's SB_ENGINE_FILE_OPS) before
 * and after its run. filestat and filedelete take files laid out as for any job
 * (prepare.c); filecreate and dircreate make their files themselves, so none of the names
 * may be there before the run (storbench takes over no one's file or directory), and what
 * they made is the job's own afterwards, removed with its other files; dirstat and
 * dirdelete need directories, made here (mkdir 0700, as fio's setup).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "io/run/worker.h"

int sb_io_prepare_opfile(const sb_io_job *job, file_ctx *f, char *err, size_t errlen)
{
    const sb_engine_ops *ops = sb_engine_find(job->engine);
    struct stat st;
    f->created = f->op_free = false;
    if (ops->caps & SB_ENGINE_MAKES_FILES) {
        if (lstat(f->path, &st) == 0) {
            snprintf(err, errlen, "%s exists: ioengine=%s makes each of its %s itself", f->path,
                     ops->name, ops->caps & SB_ENGINE_DIRS ? "directories" : "files");
            return -EEXIST;
        }
        f->op_free = true;
        return 0;
    }
    if (mkdir(f->path, 0700) < 0 || lstat(f->path, &st) < 0) {
        int e = errno;
        snprintf(err, errlen, "%s: %s%s", f->path, strerror(e),
                 e == EEXIST ? " (ioengine=" : "");
        if (e == EEXIST)
            snprintf(err + strlen(err), errlen - strlen(err), "%s makes its directories itself)", ops->name);
        return -e;
    }
    f->created = true;
    f->dev = st.st_dev;
    f->ino = st.st_ino;
    return 0;
}

void sb_io_opfiles_adopt(const sb_io_job *job, file_ctx *files, unsigned n)
{
    const sb_engine_ops *ops = sb_engine_find(job->engine);
    struct stat st;
    if (!ops || !(ops->caps & SB_ENGINE_MAKES_FILES))
        return;
    for (unsigned i = 0; i < n; i++) {
        if (!files[i].op_free || lstat(files[i].path, &st) < 0 ||
            !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
            continue;
        files[i].created = true; /* the name was free before the run (above): the engine made it */
        files[i].dev = st.st_dev;
        files[i].ino = st.st_ino;
    }
}
