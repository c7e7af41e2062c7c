/*
 * fileops — the loop of fio's file and directory op engines (filecreate, filestat,
 * filedelete, dircreate, dirstat, dirdelete: engine.h's SB_ENGINE_FILE_OPS). There is no
 * I/O: each file of the thread, in order, gets the engine's one operation (create, stat,
 * unlink, mkdir, rmdir), and the operation is what is timed, one latency sample per file,
 * in the direction of the job's rw (read when it reads, else write), as fio's engines add
 * one sample at each file's "open". fio then completes the file's blocks without doing
 * anything (its FAKEIO): they are counted here too, as I/Os and bytes without a latency —
 * the file's size in blocks for filecreate, filestat and filedelete (fio 3.33 counts a
 * created file's filesize too), one block for the directory engines — so that the I/O
 * counts are fio's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "io/run/worker.h"

void sb_io_loop_fileops(worker *w)
{
    const sb_io_job *job = w->job;
    const sb_engine_ops *ops = w->td.ops;
    const unsigned per = sb_io_files_per_thread(job);
    const int d = job->rw == SB_RW_READ || job->rw == SB_RW_RANDREAD || job->rw == SB_RW_RW ||
                  job->rw == SB_RW_RANDRW ? SB_DDIR_READ : SB_DDIR_WRITE;
    const bool sized = !(ops->caps & SB_ENGINE_DIRS);
    uint64_t blocks = sized && job->size > job->bs ? (job->size + job->bs - 1) / job->bs : 1;
    sb_io_dir_stats *st = &w->st[d];
    for (unsigned k = 0; k < per && !sb_io_stopped(w); k++) {
        const char *path = w->op_files[w->op_map[w->index * per + k]].path;
        uint64_t t0 = sb_io_now(w);
        int r = ops->file_op(&w->td, path);
        uint64_t t1 = sb_io_now(w);
        if (r < 0) {
            w->err = r;
            snprintf(w->errmsg, sizeof w->errmsg, "%s of %.160s: %s", ops->name, path, strerror(-r));
            break;
        }
        sb_hist_record(&st->clat, t1 - t0);
        st->ios += blocks;
        st->bytes += blocks * job->bs;
        w->last_ns = t1;
    }
}
