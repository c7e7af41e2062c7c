/*
 * options_fiob — the parsers of the rows options_fiob_rows.h adds to the I/O option table:
 * NUMA node lists (checked against the nodes /sys/devices/system/node shows), fio's
 * numa_mem_policy syntax, SPRandom's over-provisioning ratio, prioclass and cmdprio's values;
 * and the rules of these options together (sb_io_job_check_fiob).
 */
#include "io/options/options.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/engine.h"
#include "io/job.h"


/* "0-1,3" into a mask of nodes 0 .. 63, each of which must exist here. */
static int parse_nodes(const char *v, uint64_t *out, char *err, size_t errlen)
{
    uint64_t m = 0;
    const char *p = v;
    while (*p) {
        char *end;
        long lo = strtol(p, &end, 10), hi = lo;
        if (end == p || lo < 0 || lo > 63)
            goto bad;
        if (*end == '-') {
            p = end + 1;
            hi = strtol(p, &end, 10);
            if (end == p || hi < lo || hi > 63)
                goto bad;
        }
        for (long n = lo; n <= hi; n++) {
            char path[64];
            snprintf(path, sizeof path, "/sys/devices/system/node/node%ld", n);
            if (access(path, F_OK) < 0) {
                snprintf(err, errlen, "NUMA node %ld does not exist on this machine "
                         "(/sys/devices/system/node lists its nodes)", n);
                return -EINVAL;
            }
            m |= 1ull << n;
        }
        if (*end && *end != ',')
            goto bad;
        p = *end ? end + 1 : end;
    }
    if (!m)
        goto bad;
    *out = m;
    return 0;
bad:
    snprintf(err, errlen, "'%s' is not a list of NUMA nodes (0, 0-1, 0,2)", v);
    return -EINVAL;
}

int sb_opt_parse_numa_cpus(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                           char *err, size_t errlen)
{
    return parse_nodes(v, &((sb_io_job *)base)->numa_cpu_nodes, err, errlen);
}

static int numa_mem_value(void *base, const char *v, char *err, size_t errlen);

/* fio's numa_mem_policy: default, prefer:N, bind:NODES, interleave[:NODES], local. A value
 * that is none of these fails the run, not the parse, as fio's (job.h's run_fail). */
int sb_opt_parse_numa_mem(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                          char *err, size_t errlen)
{
    sb_io_job *job = base;
    if (numa_mem_value(base, v, err, errlen) < 0)
        snprintf(job->run_fail, sizeof job->run_fail, "numa_mem_policy: %s", err);
    return 0;
}

static int numa_mem_value(void *base, const char *v, char *err, size_t errlen)
{
    static const struct { const char *name; int mode; bool nodes; } pol[] = {
        {"default", SB_NUMA_MEM_DEFAULT, false}, {"prefer", SB_NUMA_MEM_PREFER, true},
        {"bind", SB_NUMA_MEM_BIND, true}, {"interleave", SB_NUMA_MEM_INTERLEAVE, true},
        {"local", SB_NUMA_MEM_LOCAL, false},
    };
    sb_io_job *job = base;
    const char *colon = strchr(v, ':');
    size_t n = colon ? (size_t)(colon - v) : strlen(v);
    for (size_t i = 0; i < sizeof pol / sizeof pol[0]; i++) {
        if (strlen(pol[i].name) != n || strncmp(v, pol[i].name, n))
            continue;
        /* fio's interleave without nodes: every node with memory */
        bool all = pol[i].mode == SB_NUMA_MEM_INTERLEAVE && !colon;
        if (!all && pol[i].nodes != (colon != NULL)) {
            snprintf(err, errlen, "'%s': %s %s", v, pol[i].name,
                     pol[i].nodes ? "needs :NODES (bind:0)" : "takes no nodes");
            return -EINVAL;
        }
        uint64_t m = 0;
        if (colon && parse_nodes(colon + 1, &m, err, errlen) < 0)
            return -EINVAL;
        for (int nd = 0; all && nd < 64; nd++) {
            char path[64];
            snprintf(path, sizeof path, "/sys/devices/system/node/node%d", nd);
            m |= access(path, F_OK) == 0 ? 1ull << nd : 0;
        }
        if (all && !m)
            m = 1; /* no node directory: one node, 0 */
        if (pol[i].mode == SB_NUMA_MEM_PREFER && (m & (m - 1))) {
            snprintf(err, errlen, "'%s': prefer takes one node", v);
            return -EINVAL;
        }
        job->numa_mem_mode = pol[i].mode;
        job->numa_mem_nodes = m;
        return 0;
    }
    snprintf(err, errlen, "'%s' is not default, prefer:N, bind:NODES, interleave[:NODES] or local", v);
    return -EINVAL;
}

int sb_opt_parse_spr_op(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                        char *err, size_t errlen)
{
    char *end;
    double d = strtod(v, &end);
    if (end == v || *end || !(d > 0 && d < 1)) {
        snprintf(err, errlen, "'%s' is not a ratio between 0 and 1 (0.15)", v);
        return -EINVAL;
    }
    ((sb_io_job *)base)->spr_op = d;
    return 0;
}

/* ---- cmdprio's values ---- */

static int parse_int(const char *s, size_t n, int lo, int hi, int *out)
{
    char buf[32];
    if (!n || n >= sizeof buf)
        return -EINVAL;
    memcpy(buf, s, n);
    buf[n] = '\0';
    char *end;
    long x = strtol(buf, &end, 10);
    if (*end || x < lo || x > hi)
        return -EINVAL;
    *out = (int)x;
    return 0;
}

int sb_cmdprio_parse_pair(const char *v, int lo, int hi, int out[2], char *err, size_t errlen)
{
    const char *comma = strchr(v, ',');
    size_t n = comma ? (size_t)(comma - v) : strlen(v);
    int a, b;
    if (parse_int(v, n, lo, hi, &a) < 0 ||
        (comma ? parse_int(comma + 1, strlen(comma + 1), lo, hi, &b) : (b = a, 0)) < 0) {
        snprintf(err, errlen, "'%s' is not N or READ,WRITE with each in %d .. %d", v, lo, hi);
        return -EINVAL;
    }
    out[0] = a;
    out[1] = b;
    return 0;
}

/* One direction's entries: BS/PCT[/CLASS/LEVEL[/HINT]]:... */
static int parse_dir(char *s, unsigned kb_base, sb_cmdprio *c, int d)
{
    char *save = NULL;
    c->n[d] = 0;
    for (char *e = strtok_r(s, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
        char *f[6];
        int nf = 0;
        char *save2 = NULL;
        for (char *t = strtok_r(e, "/", &save2); t && nf < 6; t = strtok_r(NULL, "/", &save2))
            f[nf++] = t;
        if ((nf != 2 && nf != 4 && nf != 5) || c->n[d] == SB_CMDPRIO_MAX_ENTRIES)
            return -EINVAL;
        sb_cmdprio_entry *x = &c->e[d][c->n[d]];
        int pct;
        x->cls = x->level = x->hint = -1;
        if (sb_opt_parse_size(f[0], kb_base, &x->bs) < 0 ||
            parse_int(f[1], strlen(f[1]), 0, 100, &pct) < 0 ||
            (nf >= 4 && (parse_int(f[2], strlen(f[2]), 0, 3, &x->cls) < 0 ||
                         parse_int(f[3], strlen(f[3]), 0, 7, &x->level) < 0)) ||
            (nf == 5 && parse_int(f[4], strlen(f[4]), 0, 1023, &x->hint) < 0))
            return -EINVAL;
        x->pct = (unsigned)pct;
        c->n[d]++;
    }
    return 0;
}

int sb_cmdprio_parse_bssplit(const char *v, unsigned kb_base, sb_cmdprio *c, char *err,
                             size_t errlen)
{
    char buf[1024];
    if (strlen(v) >= sizeof buf)
        goto bad;
    strcpy(buf, v);
    char *comma = strchr(buf, ',');
    if (comma)
        *comma = '\0';
    if (parse_dir(buf, kb_base, c, 0) < 0 || (comma && parse_dir(comma + 1, kb_base, c, 1) < 0))
        goto bad;
    if (!comma) { /* one value: both directions */
        c->n[1] = c->n[0];
        memcpy(c->e[1], c->e[0], sizeof c->e[0]);
    }
    return 0;
bad:
    snprintf(err, errlen, "'%s' is not BS/PCT[/CLASS/LEVEL[/HINT]]:... (64k/40:1m/60), for "
             "reads[,writes]", v);
    return -EINVAL;
}

int sb_opt_parse_prioclass(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                           char *err, size_t errlen)
{
    char *end;
    long c = strtol(v, &end, 10);
    if (!*v || *end || c < 0 || c > 3) {
        snprintf(err, errlen, "'%s' is not a class 0 .. 3 (1 realtime, 2 best effort, 3 idle)", v);
        return -EINVAL;
    }
    ((sb_io_job *)base)->prioclass = (int)c;
    return 0;
}

/* cmdprio_percentage, cmdprio_class, cmdprio (a value or READ,WRITE) and cmdprio_bssplit. */
int sb_opt_parse_cmdprio(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                         char *err, size_t errlen)
{
    sb_cmdprio *c = &((sb_io_job *)base)->cmdprio;
    int pair[2];
    if (!strcmp(o->name, "cmdprio_bssplit"))
        return sb_cmdprio_parse_bssplit(v, ctx ? ctx->kb_base : 0, c, err, errlen);
    bool pct = !strcmp(o->name, "cmdprio_percentage"), cls = !strcmp(o->name, "cmdprio_class");
    if (sb_cmdprio_parse_pair(v, pct ? 0 : cls ? 1 : 0, pct ? 100 : cls ? 3 : 7, pair, err,
                              errlen) < 0)
        return -EINVAL;
    for (int d = 0; d < 2; d++) {
        if (pct)
            c->pct[d] = (unsigned)pair[d];
        else if (cls)
            c->cls[d] = pair[d];
        else
            c->level[d] = pair[d];
    }
    return 0;
}

int sb_io_job_check_fiob(const sb_io_job *job, char *err, size_t errlen)
{
    for (unsigned i = 0; i < job->bssplit_w.n; i++) /* the writes' split (READS,WRITES) */
        if (job->bssplit_w.bs[i] < SB_IO_MIN_BS || job->bssplit_w.bs[i] > SB_IO_MAX_BS ||
            job->bssplit_w.bs[i] % SB_IO_MIN_BS) {
            snprintf(err, errlen, "bssplit: %llu is not a block size (multiples of 512 B, "
                     "512 B .. 64 MiB)", (unsigned long long)job->bssplit_w.bs[i]);
            return -EINVAL;
        }
    /* offload: the submit threads' engines move the bytes; what needs the job's own engine
     * between I/Os (a sync every N writes, verified I/O) is not done that way */
    if (job->submit_offload && (job->fsync_every || job->fdatasync_every || job->verify ||
                                job->verify_pattern || job->thinktime_s > 0)) {
        snprintf(err, errlen, "io_submit_mode=offload: not with %s", job->fsync_every ? "fsync=N"
                 : job->fdatasync_every ? "fdatasync=N" : job->thinktime_s > 0 ? "thinktime"
                 : "verify");
        return -EINVAL;
    }
    if (sb_cmdprio_on(&job->cmdprio)) {
        const sb_cmdprio *c = &job->cmdprio;
        if ((c->pct[0] || c->pct[1]) && (c->n[0] || c->n[1])) {
            snprintf(err, errlen, "cmdprio_percentage and cmdprio_bssplit exclude each other, as "
                     "fio's");
            return -EINVAL;
        }
        if (!sb_engine_can(job->engine, SB_ENGINE_PRIO)) {
            snprintf(err, errlen, "cmdprio: only the libaio and io_uring engines give each I/O "
                     "a priority (ioengine is %s)", job->engine);
            return -EINVAL;
        }
    }
    if (job->sprandom) {
        const char *why = job->rw != SB_RW_RANDWRITE ? "rw=randwrite"
                          : job->bs_max > job->bs || job->bssplit.n ? "one block size"
                          : job->dist.kind != SB_DIST_RANDOM ? "random_distribution=random"
                          : job->verify != SB_VERIFY_NONE ? "no verify" : NULL;
        if (why) {
            snprintf(err, errlen, "sprandom needs %s, as fio's", why);
            return -EINVAL;
        }
    }
    return 0;
}

/* fio's gtod_cpu: the CPU of the thread that keeps the time the job threads read
 * (io/run/jobclock.h); a CPU number, as fio's int (one this machine lacks fails the run,
 * when the thread is placed, as fio's setaffinity does). */
int sb_opt_parse_gtod_cpu(const sb_opt *o, void *base, const char *v, const sb_opt_ctx *ctx,
                          char *err, size_t errlen)
{
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (end == v || *end || errno || n < 0 || n >= CPU_SETSIZE) {
        snprintf(err, errlen, "'%s' is not a CPU number (0 .. %d)", v, CPU_SETSIZE - 1);
        return -EINVAL;
    }
    ((sb_io_job *)base)->gtod_cpu = (int)n;
    return 0;
}
