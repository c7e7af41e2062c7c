/*
 * ranks — the rank state and collectives (see ranks.h). Until an
 * implementation is installed this process is rank 0 of 1: a barrier returns,
 * a gather copies, a reduction leaves its input as it is. The agreement that
 * ends each phase is built here from all-gather and broadcast, so that every
 * implementation gets the same rules.
 */
#include "core/ranks.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/rankmap.h"
#include "core/strutil.h"

_Static_assert(SB_HOST_MAX == SB_RANKMAP_NAME, "host name slots of one size");

static const sb_ranks_ops *g_ops;
static sb_ranks_info g_info = {.rank = 0, .size = 1, .local_rank = 0, .local_size = 1,
                               .hosts = 1, .min_per_host = 1, .max_per_host = 1};
static char (*g_hosts)[SB_HOST_MAX];
static int *g_leader; /* the first rank of each rank's host */
static int g_failed_status;
static char g_failed_line[1024];

/* STORBENCH_MPI_TIMES=1: rank 0 says at exit how many collectives of each kind it made
 * and how long it spent in them (waiting for the slowest rank included), for
 * bench/mpi-scale.sh and docs/mpi.md, "Scale". Counted always (a clock read per call,
 * against a collective's microseconds at least), printed only when asked. Bytes: what
 * this rank contributed ("per rank"), what the collective delivered into this rank's
 * buffer ("in at rank 0", as rank 0 prints it) and into the buffer of a rank that is
 * neither rank 0 nor the root ("in at each other rank": the ranks not at the root are
 * alike, so rank 0 knows their share without asking them). */
enum { T_BARRIER, T_ALLGATHER, T_GATHER, T_BCAST, T_ALLREDUCE, T_HIST, T_KINDS };
static const char *const t_names[T_KINDS] = {"barrier", "allgather", "gather", "bcast", "allreduce",
                                             "histogram merge"};
static struct { uint64_t calls, ns, bytes, in_self, in_other; } g_times[T_KINDS];

static int timed_in(int kind, size_t bytes, size_t in_self, size_t in_other, uint64_t t0, int rc)
{
    g_times[kind].calls++;
    g_times[kind].ns += sb_now_ns() - t0;
    g_times[kind].bytes += bytes;
    g_times[kind].in_self += in_self;
    g_times[kind].in_other += in_other;
    return rc;
}

/* A collective whose result every rank receives whole (barrier, reductions). */
static int timed(int kind, size_t bytes, uint64_t t0, int rc)
{
    return timed_in(kind, bytes, bytes, bytes, t0, rc);
}

static void report_times(void)
{
    if (g_info.rank != 0)
        return;
    for (int k = 0; k < T_KINDS; k++)
        fprintf(stderr, "storbench: mpi times: %s: %llu calls, %.3f ms, %llu bytes per rank, %llu bytes in "
                "at rank 0, %llu bytes in at each other rank\n", t_names[k],
                (unsigned long long)g_times[k].calls, (double)g_times[k].ns / 1e6,
                (unsigned long long)g_times[k].bytes, (unsigned long long)g_times[k].in_self,
                (unsigned long long)g_times[k].in_other);
}

static void ensure_host(void)
{
    if (!g_info.host[0] && gethostname(g_info.host, sizeof g_info.host) < 0)
        snprintf(g_info.host, sizeof g_info.host, "localhost");
    g_info.host[sizeof g_info.host - 1] = '\0';
}

void sb_ranks_install(const sb_ranks_ops *ops, int rank, int size, int local_rank,
                      int local_size, const char (*hosts)[SB_HOST_MAX])
{
    g_ops = ops;
    g_info.rank = rank;
    g_info.size = size;
    g_info.local_rank = local_rank;
    g_info.local_size = local_size;
    g_hosts = sb_xrealloc(NULL, (size_t)size * SB_HOST_MAX);
    memcpy(g_hosts, hosts, (size_t)size * SB_HOST_MAX);
    snprintf(g_info.host, sizeof g_info.host, "%s", hosts[rank]);
    for (int i = 0; i < size; i++)
        g_hosts[i][SB_HOST_MAX - 1] = '\0';
    /* hosts, each host's first rank and the fewest and most ranks on one: a sort of the
     * names, N log N, once (docs/mpi.md, "Thousands of ranks") */
    g_leader = sb_xrealloc(g_leader, (size_t)size * sizeof *g_leader);
    sb_host_groups hg;
    if (sb_host_group((const char (*)[SB_RANKMAP_NAME])g_hosts, size, g_leader, &hg) < 0)
        sb_oom();
    g_info.hosts = hg.hosts;
    g_info.min_per_host = hg.min_per_host;
    g_info.max_per_host = hg.max_per_host;
    const char *t = getenv("STORBENCH_MPI_TIMES");
    if (t && t[0] && strcmp(t, "0"))
        atexit(report_times);
}

bool sb_ranks_active(void) { return g_ops != NULL; }

const sb_ranks_info *sb_ranks(void)
{
    ensure_host();
    return &g_info;
}

const char *sb_ranks_host_of(int rank)
{
    if (g_hosts && rank >= 0 && rank < g_info.size)
        return g_hosts[rank];
    ensure_host();
    return g_info.host;
}

int sb_ranks_leader_of(int rank)
{
    if (g_leader && rank >= 0 && rank < g_info.size)
        return g_leader[rank];
    return 0;
}

const char *sb_ranks_impl_name(void) { return g_ops ? g_ops->name : "none"; }

/* (the clock is read before the call: the order of a call's arguments is the compiler's) */
int sb_ranks_barrier(void)
{
    if (!g_ops)
        return 0;
    uint64_t t0 = sb_now_ns();
    return timed(T_BARRIER, 0, t0, g_ops->barrier());
}

int sb_ranks_allgather(const void *send, void *recv, size_t len)
{
    if (!g_ops) {
        memmove(recv, send, len);
        return 0;
    }
    uint64_t t0 = sb_now_ns();
    size_t all = (size_t)g_info.size * len;
    return timed_in(T_ALLGATHER, len, all, all, t0, g_ops->allgather(send, recv, len));
}

int sb_ranks_bcast(void *buf, size_t len, int root)
{
    if (!g_ops)
        return 0;
    uint64_t t0 = sb_now_ns();
    return timed_in(T_BCAST, len, g_info.rank == root ? 0 : len, len, t0, g_ops->bcast(buf, len, root));
}

int sb_ranks_gather(const void *send, void *recv, size_t len, int root)
{
    if (!g_ops) {
        memmove(recv, send, len);
        return 0;
    }
    uint64_t t0 = sb_now_ns();
    size_t all = (size_t)g_info.size * len;
    return timed_in(T_GATHER, len, g_info.rank == root ? all : 0, 0, t0, g_ops->gather(send, recv, len, root));
}

int sb_ranks_gatherv(const void *send, size_t len, void *recv, const size_t *lens, int root)
{
    if (!g_ops) {
        memmove(recv, send, len);
        return 0;
    }
    uint64_t t0 = sb_now_ns();
    size_t all = 0;
    for (int i = 0; g_info.rank == root && i < g_info.size; i++)
        all += lens[i];
    return timed_in(T_GATHER, len, all, 0, t0, g_ops->gatherv(send, len, recv, lens, root));
}

int sb_ranks_allreduce_u64(uint64_t *buf, size_t n, sb_ranks_op op)
{
    if (!g_ops)
        return 0;
    uint64_t t0 = sb_now_ns();
    return timed(T_ALLREDUCE, n * sizeof *buf, t0, g_ops->allreduce_u64(buf, n, op));
}

int sb_ranks_allreduce_double(double *buf, size_t n, sb_ranks_op op)
{
    if (!g_ops)
        return 0;
    uint64_t t0 = sb_now_ns();
    return timed(T_ALLREDUCE, n * sizeof *buf, t0, g_ops->allreduce_double(buf, n, op));
}

int sb_ranks_merge_hist(sb_histogram *h)
{
    if (!g_ops)
        return 0;
    /* merging is summing buckets and moments, and the extremes: three reductions of a
     * fixed size whatever the number of ranks */
    double sums[2] = {h->sum, h->sum_sq};
    uint64_t lo = h->min, hi = h->max, t0 = sb_now_ns();
    int r;
    if ((r = sb_ranks_allreduce_u64(h->buckets, SB_HIST_BUCKETS, SB_RANKS_SUM)) < 0 ||
        (r = sb_ranks_allreduce_u64(&h->count, 1, SB_RANKS_SUM)) < 0 ||
        (r = sb_ranks_allreduce_u64(&lo, 1, SB_RANKS_MIN)) < 0 ||
        (r = sb_ranks_allreduce_u64(&hi, 1, SB_RANKS_MAX)) < 0 ||
        (r = sb_ranks_allreduce_double(sums, 2, SB_RANKS_SUM)) < 0)
        return r;
    timed(T_HIST, 0, t0, 0); /* its reductions are counted under allreduce too */
    h->min = lo;
    h->max = hi;
    h->sum = sums[0];
    h->sum_sq = sums[1];
    return 0;
}

void sb_ranks_announce_failure(void)
{
    if (g_ops)
        g_ops->announce_failure();
}

bool sb_ranks_failure_announced(void) { return g_ops && g_ops->failure_announced(); }

bool sb_ranks_failure_agreed(const char **line, int *status)
{
    if (line)
        *line = g_failed_line;
    if (status)
        *status = g_failed_status;
    return g_failed_status < 0;
}

void sb_ranks_clear_failure(void)
{
    g_failed_status = 0;
    g_failed_line[0] = '\0';
}

int sb_ranks_agree(int status, const char *msg, char *out, size_t outlen)
{
    if (!g_ops) {
        if (status < 0 && out != msg)
            snprintf(out, outlen, "%s", msg ? msg : "");
        return status < 0 ? status : 0;
    }
    int n = g_info.size;
    int *all = sb_xrealloc(NULL, (size_t)n * sizeof *all);
    int r = sb_ranks_allgather(&status, all, sizeof status);
    if (r < 0) {
        free(all);
        snprintf(out, outlen, "rank %d on %s: exchanging status: %s", g_info.rank, g_info.host,
                 strerror(-r));
        return r;
    }
    /* the cause, not its echo: an interruption that other ranks' stop caused is
     * reported only when nothing else failed */
    int root = -1;
    for (int i = 0; i < n && root < 0; i++)
        if (all[i] < 0 && all[i] != -EINTR)
            root = i;
    for (int i = 0; i < n && root < 0; i++)
        if (all[i] < 0)
            root = i;
    int result = root < 0 ? 0 : all[root];
    free(all);
    if (root < 0)
        return 0;
    char line[512] = "";
    if (g_info.rank == root)
        snprintf(line, sizeof line, "%s", msg && msg[0] ? msg : strerror(-status));
    if ((r = sb_ranks_bcast(line, sizeof line, root)) < 0)
        snprintf(line, sizeof line, "(its message was lost: %s)", strerror(-r));
    line[sizeof line - 1] = '\0';
    snprintf(out, outlen, "rank %d on %s: %s", root, sb_ranks_host_of(root), line);
    g_failed_status = result;
    snprintf(g_failed_line, sizeof g_failed_line, "rank %d on %s: %s", root, sb_ranks_host_of(root), line);
    return result;
}
