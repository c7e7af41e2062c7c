/*
 * engine_null — fio's null engine: every I/O completes at once without touching
 * the file (its byte count as the result), and fsync does nothing. It measures the
 * tool itself: the cost of storbench's loop, offsets and accounting per I/O, which
 * fio's examples/null.fio and zipf.fio use it for. The job's file is still made and
 * opened as for any engine (prepare.c), so a null job needs the same target.
 */
#include "io/engine.h"

static int null_queue(sb_engine_td *td, sb_io_u *u)
{
    u->result = u->len;
    return SB_Q_COMPLETED;
}

static int null_fsync(sb_engine_td *td) { return 0; }

const sb_engine_ops sb_engine_null = {
    .name = "null",
    .rank = 8,
    .description = "no I/O: each completes at once (the tool's own cost)",
    .sync = true,
    .fd_own_thread = true,
    .init = sb_engine_init_none,
    .queue = null_queue,
    .fsync = null_fsync,
    .cleanup = sb_engine_cleanup_free,
};
SB_ENGINE_REGISTER(sb_engine_null);
