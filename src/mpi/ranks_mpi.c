/*
 * ranks_mpi — storbench-mpi's rank coordination on Open MPI: initialises MPI
 * (funneled: only the main thread calls it; the I/O threads never do), learns
 * each rank's host, and implements the collectives of core/ranks.h on
 * MPI_COMM_WORLD. It is the only file that includes mpi.h, and it is linked
 * ahead of libstorbench.a so that its sb_ranks_start() replaces plain
 * storbench's (src/cli/ranks_launch.c).
 *
 * Only rank 0 speaks: the other ranks' standard output and error go to
 * /dev/null, since their failures reach rank 0 through sb_ranks_agree() and
 * anything else they would print is rank 0's line repeated.
 *
 * Only the thread that initialised MPI calls it (MPI_THREAD_FUNNELED): the two
 * operations a workload's threads may reach through sb_ctx_interrupted() and a
 * failure (failure_announced, announce_failure) are answered from flags on any
 * other thread, and the main thread does the MPI part at its next poll. A worker
 * thread that called MPI would run Open MPI's progress engine (libevent) on its
 * own descriptor table (core/fdtable.h), where the library's eventfd and
 * sockets do not exist: an endless "Error reading from eventfd: Bad file
 * descriptor" (issue 24, item 9), or a descriptor the library opens in the wrong
 * table.
 *
 * A failure is announced along a binomial tree rooted at the failing rank
 * (core/rankmap.h): it sends to at most log2 N ranks, and each rank that
 * receives the announcement passes it on to its own children in that tree at
 * once, so every rank hears of it within log2 N hops, where the failing rank
 * used to send N - 1 messages itself. A rank passes it on wherever it is:
 * polling in a phase, or waiting in a collective — every collective here is
 * started non-blocking and waited for together with the receive that is always
 * posted for an announcement (MPI_Waitany), since a rank that had finished its
 * share and sat in a blocking one would hold the message back from its whole
 * subtree, still busy, until the end of their phase.
 */
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/log.h"
#include "core/rankmap.h"
#include "core/ranks.h"

#define TAG_FAILURE 7177

static char g_name[64];
static atomic_bool g_failed_seen;
static atomic_bool g_announce_pending; /* asked for on another thread, not sent yet */
static pthread_t g_mpi_thread;        /* the one that called MPI_Init_thread */
static int g_rank, g_size;
static int *g_roots; /* g_roots[r] == r: the payload of an announcement from r (Isend's
                      * buffer must outlive the call) */

static MPI_Request g_ann_req = MPI_REQUEST_NULL; /* the posted receive of an announcement */
static int g_ann_buf;

static void relay_announcements(void);
static void announcement_came(void);

static bool on_mpi_thread(void) { return pthread_equal(pthread_self(), g_mpi_thread); }

/* Waits for a non-blocking collective, relaying announcements meanwhile: MPI_Waitany on
 * the collective and the receive that is always posted for an announcement, so that the
 * wait is the library's own (as MPI_Wait's), woken only to pass one on. */
static int wait_relaying(int rc, MPI_Request *req)
{
    if (rc != MPI_SUCCESS)
        return -EIO;
    relay_announcements(); /* one a worker thread asked for, or one that came */
    for (;;) {
        MPI_Request rq[2] = {*req, g_ann_req};
        int idx = MPI_UNDEFINED;
        rc = MPI_Waitany(2, rq, &idx, MPI_STATUS_IGNORE);
        *req = rq[0];
        g_ann_req = rq[1];
        if (rc != MPI_SUCCESS)
            return -EIO;
        if (idx != 1)
            return 0;
        announcement_came();
    }
}

static int mpi_barrier(void)
{
    MPI_Request q;
    return wait_relaying(MPI_Ibarrier(MPI_COMM_WORLD, &q), &q);
}

static int mpi_allgather(const void *send, void *recv, size_t len)
{
    MPI_Request q;
    return wait_relaying(MPI_Iallgather(send, (int)len, MPI_BYTE, recv, (int)len, MPI_BYTE, MPI_COMM_WORLD, &q), &q);
}

static int mpi_gather(const void *send, void *recv, size_t len, int root)
{
    MPI_Request q;
    return wait_relaying(MPI_Igather(send, (int)len, MPI_BYTE, recv, (int)len, MPI_BYTE, root, MPI_COMM_WORLD, &q), &q);
}

/* The counts and offsets MPI wants (int) exist at root only: N ints there, none elsewhere. */
static int mpi_gatherv(const void *send, size_t len, void *recv, const size_t *lens, int root)
{
    int *counts = NULL, *displs = NULL;
    if (g_rank == root) {
        counts = malloc((size_t)g_size * sizeof *counts);
        displs = malloc((size_t)g_size * sizeof *displs);
        if (!counts || !displs) {
            free(counts);
            free(displs);
            return -ENOMEM;
        }
        size_t at = 0;
        for (int i = 0; i < g_size; i++) {
            counts[i] = (int)lens[i];
            displs[i] = (int)at;
            at += lens[i];
        }
    }
    MPI_Request q;
    int r = wait_relaying(MPI_Igatherv(send, (int)len, MPI_BYTE, recv, counts, displs, MPI_BYTE, root,
                                       MPI_COMM_WORLD, &q), &q);
    free(counts);
    free(displs);
    return r;
}

static int mpi_bcast(void *buf, size_t len, int root)
{
    MPI_Request q;
    return wait_relaying(MPI_Ibcast(buf, (int)len, MPI_BYTE, root, MPI_COMM_WORLD, &q), &q);
}

static MPI_Op mpi_op(sb_ranks_op op)
{
    return op == SB_RANKS_MIN ? MPI_MIN : op == SB_RANKS_MAX ? MPI_MAX : MPI_SUM;
}

static int mpi_allreduce_u64(uint64_t *buf, size_t n, sb_ranks_op op)
{
    MPI_Request q;
    return wait_relaying(MPI_Iallreduce(MPI_IN_PLACE, buf, (int)n, MPI_UINT64_T, mpi_op(op), MPI_COMM_WORLD, &q), &q);
}

static int mpi_allreduce_double(double *buf, size_t n, sb_ranks_op op)
{
    MPI_Request q;
    return wait_relaying(MPI_Iallreduce(MPI_IN_PLACE, buf, (int)n, MPI_DOUBLE, mpi_op(op), MPI_COMM_WORLD, &q), &q);
}

/* Root's announcement to this rank's children in root's tree: small messages sent
 * without waiting (eager-sized), so that ranks still in a phase stop at their next poll. */
static void pass_on(int root)
{
    int kids[32];
    int n = sb_rank_tree_children(g_rank, root, g_size, kids, 32);
    for (int i = 0; i < n; i++) {
        MPI_Request req;
        if (MPI_Isend(&g_roots[root], 1, MPI_INT, kids[i], TAG_FAILURE, MPI_COMM_WORLD, &req) == MPI_SUCCESS)
            MPI_Request_free(&req);
    }
}

/* The receive of the next announcement, from any rank: posted at start-up and after
 * each one, cancelled at the end. */
static void post_receive(void)
{
    if (MPI_Irecv(&g_ann_buf, 1, MPI_INT, MPI_ANY_SOURCE, TAG_FAILURE, MPI_COMM_WORLD, &g_ann_req) !=
        MPI_SUCCESS)
        g_ann_req = MPI_REQUEST_NULL;
}

/* The posted receive completed: noted, passed on down its root's tree, posted again. */
static void announcement_came(void)
{
    int root = g_ann_buf;
    atomic_store(&g_failed_seen, true);
    if (root >= 0 && root < g_size && root != g_rank)
        pass_on(root);
    post_receive();
}

/* Sends this rank's own announcement if a worker thread asked for one, then takes every
 * announcement that arrived, noting each and passing it on. Main thread only. */
static void relay_announcements(void)
{
    if (atomic_exchange(&g_announce_pending, false))
        pass_on(g_rank);
    for (;;) {
        int flag = 0;
        if (g_ann_req == MPI_REQUEST_NULL || MPI_Test(&g_ann_req, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS ||
            !flag)
            break;
        announcement_came();
    }
}

static void mpi_announce_failure(void)
{
    if (!on_mpi_thread()) {
        atomic_store(&g_announce_pending, true);
        return;
    }
    atomic_store(&g_announce_pending, false);
    pass_on(g_rank);
}

static bool mpi_failure_announced(void)
{
    if (!on_mpi_thread())
        return atomic_load(&g_failed_seen);
    relay_announcements();
    return atomic_load(&g_failed_seen);
}

static const sb_ranks_ops mpi_ops = {
    .name = g_name,
    .barrier = mpi_barrier,
    .allgather = mpi_allgather,
    .bcast = mpi_bcast,
    .allreduce_u64 = mpi_allreduce_u64,
    .allreduce_double = mpi_allreduce_double,
    .announce_failure = mpi_announce_failure,
    .failure_announced = mpi_failure_announced,
    .gather = mpi_gather,
    .gatherv = mpi_gatherv,
};

static void finalize(void)
{
    int done = 0;
    MPI_Finalized(&done);
    if (!done) {
        mpi_failure_announced(); /* what came is taken, then the receive withdrawn */
        if (g_ann_req != MPI_REQUEST_NULL) {
            MPI_Cancel(&g_ann_req);
            MPI_Wait(&g_ann_req, MPI_STATUS_IGNORE);
        }
        MPI_Finalize();
    }
}

/* "Open MPI v4.1.4, package: ..." -> "Open MPI v4.1.4" */
static void library_name(void)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(v, &len);
    v[len < (int)sizeof v ? len : (int)sizeof v - 1] = '\0';
    v[strcspn(v, ",\n")] = '\0';
    snprintf(g_name, sizeof g_name, "%.63s", v);
}

/* Commands that coordinate their ranks; any other would run N times over. */
static bool runs_on_ranks(const char *cmd)
{
    return !strcmp(cmd, "io") || !strcmp(cmd, "run") || !strcmp(cmd, "ior") || !strcmp(cmd, "io500") || !strcmp(cmd, "--help") ||
           !strcmp(cmd, "-h") || !strcmp(cmd, "help") || !strcmp(cmd, "--version") ||
           !strcmp(cmd, "-V");
}

int sb_ranks_start(int *argc, char ***argv)
{
    int provided = 0;
    g_mpi_thread = pthread_self();
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        sb_error("MPI_Init_thread failed");
        return SB_EXIT_RUNTIME;
    }
    atexit(finalize);
    int rank, size, local_rank, local_size, len = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    g_rank = rank;
    g_size = size;
    g_roots = malloc((size_t)size * sizeof *g_roots);
    if (!g_roots) {
        sb_error("out of memory");
        return SB_EXIT_RUNTIME;
    }
    for (int i = 0; i < size; i++)
        g_roots[i] = i;
    post_receive();
    MPI_Comm local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &local);
    MPI_Comm_rank(local, &local_rank);
    MPI_Comm_size(local, &local_size);
    MPI_Comm_free(&local);
    char me[MPI_MAX_PROCESSOR_NAME] = "", mine[SB_HOST_MAX] = "";
    MPI_Get_processor_name(me, &len);
    snprintf(mine, sizeof mine, "%s", me);
    char (*hosts)[SB_HOST_MAX] = calloc((size_t)size, SB_HOST_MAX);
    if (!hosts) {
        sb_error("out of memory");
        return SB_EXIT_RUNTIME;
    }
    MPI_Allgather(mine, SB_HOST_MAX, MPI_BYTE, hosts, SB_HOST_MAX, MPI_BYTE, MPI_COMM_WORLD);
    library_name();
    sb_ranks_install(&mpi_ops, rank, size, local_rank, local_size, (const char (*)[SB_HOST_MAX])hosts);
    free(hosts);
    if (rank != 0) {
        int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (fd >= 0) {
            dup2(fd, STDOUT_FILENO);
            dup2(fd, STDERR_FILENO);
            close(fd);
        }
    }
    if (size > 1 && *argc >= 2 && !runs_on_ranks((*argv)[1])) {
        sb_error("%s: runs as one process, not on %d MPI ranks (start it without mpirun)",
                 (*argv)[1], size);
        return SB_EXIT_USAGE;
    }
    return -1;
}
