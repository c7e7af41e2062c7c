/*
 * engine_opts — fio's engine options (the ones `fio --enghelp=ENGINE` lists) against the
 * job's engine. Each engine names the options it reads in its ops table (engine.h's
 * .options), so a set option its engine does not read is refused with one line naming the
 * engines that do, instead of being accepted and ignored; and an option that only means
 * something beside another (sqthread_poll_cpu beside sqthread_poll, hipri_percentage beside
 * hipri, stream_id beside sg_write_mode=write_stream, uncached on buffered I/O) is refused
 * without it, where fio would silently do nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "io/engine.h"
#include "io/job.h"

typedef struct eng_opt {
    const char *name;
    bool (*set)(const sb_io_job *job); /* the job sets it to something other than its default */
} eng_opt;

static bool set_sqpoll(const sb_io_job *j) { return j->uring_sqpoll; }
static bool set_sqpoll_cpu(const sb_io_job *j) { return j->uring_sqpoll_cpu >= 0; }
static bool set_nowait(const sb_io_job *j) { return j->io_nowait; }
static bool set_hipri(const sb_io_job *j) { return j->io_hipri; }
static bool set_nonvectored(const sb_io_job *j) { return j->uring_nonvectored >= 0; }
static bool set_force_async(const sb_io_job *j) { return j->uring_force_async > 0; }
static bool set_uncached(const sb_io_job *j) { return j->io_uncached; }
static bool set_reap(const sb_io_job *j) { return j->laio_userspace_reap >= 0; }
static bool set_thp(const sb_io_job *j) { return j->mmap_thp; }
static bool set_hipri_pct(const sb_io_job *j) { return j->hipri_pct != 100; }
static bool set_stat_type(const sb_io_job *j) { return j->stat_type != SB_STAT_STAT; }
static bool set_donor(const sb_io_job *j) { return j->donorname[0] != '\0'; }
static bool set_inplace(const sb_io_job *j) { return j->e4_inplace; }
static bool set_readfua(const sb_io_job *j) { return j->sg_readfua; }
static bool set_writefua(const sb_io_job *j) { return j->sg_writefua; }
static bool set_sg_mode(const sb_io_job *j) { return j->sg_write_mode != SB_SG_WRITE; }
static bool set_stream(const sb_io_job *j) { return j->sg_stream_id != 0; }
static bool set_cmd_type(const sb_io_job *j) { return j->uring_cmd_type != 0; }

static const eng_opt eng_opts[] = {
    {"sqthread_poll", set_sqpoll},   {"sqthread_poll_cpu", set_sqpoll_cpu},
    {"nowait", set_nowait},          {"hipri", set_hipri},
    {"nonvectored", set_nonvectored}, {"force_async", set_force_async},
    {"uncached", set_uncached},      {"userspace_reap", set_reap},
    {"thp", set_thp},                {"hipri_percentage", set_hipri_pct},
    {"stat_type", set_stat_type},    {"donorname", set_donor},
    {"inplace", set_inplace},        {"readfua", set_readfua},
    {"writefua", set_writefua},      {"sg_write_mode", set_sg_mode},
    {"stream_id", set_stream},
};

static bool reads_option(const sb_engine_ops *e, const char *name)
{
    for (const char *const *o = e->options; o && *o; o++)
        if (!strcmp(*o, name))
            return true;
    return false;
}

/* "the io_uring, libaio and pvsync2 engines": the registered engines that read name. */
static void engines_reading(const char *name, char *buf, size_t len)
{
    size_t n = 0, k = 0, off = 0;
    for (size_t i = 0; i < sb_engine_count(); i++)
        n += reads_option(sb_engine_at(i), name);
    buf[0] = '\0';
    for (size_t i = 0; i < sb_engine_count() && off < len; i++) {
        const sb_engine_ops *e = sb_engine_at(i);
        if (!reads_option(e, name))
            continue;
        k++;
        int w = snprintf(buf + off, len - off, "%s%s", k == 1 ? "" : k == n ? " and " : ", ", e->name);
        if (w < 0)
            break;
        off += (size_t)w;
    }
    snprintf(buf + (off < len ? off : len - 1), len - (off < len ? off : len - 1), " engine%s",
             n == 1 ? "" : "s");
}

/* The options that need another beside them. */
static int companions(const sb_io_job *job, char *err, size_t errlen)
{
    const char *need = NULL, *opt = NULL;
    if (set_sqpoll_cpu(job) && !job->uring_sqpoll)
        opt = "sqthread_poll_cpu", need = "sqthread_poll=1 (it places the polling thread)";
    else if (set_hipri_pct(job) && !job->io_hipri)
        opt = "hipri_percentage", need = "hipri=1 (it is the share of hipri's I/Os)";
    else if (set_stream(job) && job->sg_write_mode != SB_SG_WRITE_STREAM)
        opt = "stream_id", need = "sg_write_mode=write_stream (the only command with a stream)";
    else if (job->io_uncached && job->direct)
        opt = "uncached", need = "buffered I/O (direct I/O bypasses the page cache already)";
    else if (set_inplace(job) && !set_donor(job))
        opt = "inplace", need = "donorname (the donor file it allocates in)";
    if (!opt)
        return 0;
    snprintf(err, errlen, "%s needs %s", opt, need);
    return -EINVAL;
}

/* An engine that cannot run without one of its options (e4defrag's donor). */
static int required(const sb_io_job *job, const sb_engine_ops *ops, char *err, size_t errlen)
{
    if (reads_option(ops, "donorname") && !set_donor(job)) {
        snprintf(err, errlen, "ioengine=%s needs donorname (the donor file whose blocks it swaps in)",
                 ops->name);
        return -EINVAL;
    }
    return 0;
}

int sb_io_engine_opts_check(const sb_io_job *job, char *err, size_t errlen)
{
    const sb_engine_ops *ops = sb_engine_find(job->engine);
    if (!ops)
        return 0; /* the job's check names the unknown engine */
    if (set_cmd_type(job)) { /* io_uring's own engine takes it and does nothing with it */
        snprintf(err, errlen, "cmd_type is an option of fio's io_uring_cmd engine (NVMe passthrough "
                 "commands to a /dev/ngXnY character device), which storbench does not have; fio's "
                 "io_uring engine parses it and reads it nowhere, so it cannot change a job here");
        return -EINVAL;
    }
    for (size_t i = 0; i < sizeof eng_opts / sizeof eng_opts[0]; i++) {
        if (!eng_opts[i].set(job) || reads_option(ops, eng_opts[i].name))
            continue;
        char list[160];
        engines_reading(eng_opts[i].name, list, sizeof list);
        snprintf(err, errlen, "%s is an option of the %s (ioengine is %s)", eng_opts[i].name, list,
                 ops->name);
        return -EINVAL;
    }
    return companions(job, err, errlen) < 0 ? -EINVAL : required(job, ops, err, errlen);
}
