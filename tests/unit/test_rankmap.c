/* Unit tests for core/rankmap and what uses it at thousands of ranks (docs/mpi.md,
 * "Thousands of ranks"): the sorted host grouping gives the hosts, the first rank of
 * each host and the fewest and most ranks per host that comparing every pair of names
 * gave (shuffled names, duplicates, one host, every rank its own host, names that
 * differ only in their last byte or after their end); the relay tree reaches every rank
 * exactly once within ceil(log2 N) hops from any root; core/ranks installs the grouping;
 * and `run`'s system description at rank 0 comes from one gather of the hosts' first
 * ranks only (a fake implementation of four ranks on two hosts). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/rankmap.h"
#include "core/ranks.h"
#include "runner/run_ranks.h"

typedef char name_t[SB_RANKMAP_NAME];

/* The answers of the pairwise count core/ranks.c made before (issue 30). */
static void pairwise(const name_t *names, int n, int *leader, sb_host_groups *g)
{
    g->hosts = 0;
    g->min_per_host = n;
    g->max_per_host = 0;
    for (int i = 0; i < n; i++) {
        int same = 0, first = -1;
        for (int j = 0; j < n; j++)
            if (!strcmp(names[i], names[j])) {
                same++;
                if (first < 0)
                    first = j;
            }
        leader[i] = first;
        g->hosts += first == i;
        g->min_per_host = same < g->min_per_host ? same : g->min_per_host;
        g->max_per_host = same > g->max_per_host ? same : g->max_per_host;
    }
}

static void check_same(const name_t *names, int n)
{
    int *want = calloc((size_t)n, sizeof *want), *got = calloc((size_t)n, sizeof *got);
    sb_host_groups gw, gg;
    pairwise(names, n, want, &gw);
    assert_int_equal(sb_host_group(names, n, got, &gg), 0);
    assert_int_equal(gg.hosts, gw.hosts);
    assert_int_equal(gg.min_per_host, gw.min_per_host);
    assert_int_equal(gg.max_per_host, gw.max_per_host);
    assert_memory_equal(got, want, (size_t)n * sizeof *got);
    free(want);
    free(got);
}

static uint64_t rng = 88172645463325252ull;
static unsigned next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng >> 11);
}

static void test_group_shuffled(void **state)
{
    name_t *names = calloc(600, sizeof *names);
    for (int round = 0; round < 200; round++) {
        int n = 1 + (int)(next() % 600), k = 1 + (int)(next() % 40);
        for (int i = 0; i < n; i++) /* k hosts, each rank's chosen at random: uneven */
            snprintf(names[i], sizeof names[i], "node%02u.cluster", next() % (unsigned)k);
        check_same((const name_t *)names, n);
    }
    free(names);
}

static void test_group_shapes(void **state)
{
    name_t *names = calloc(1000, sizeof *names);
    sb_host_groups g;
    int *leader = calloc(1000, sizeof *leader);
    /* one rank */
    snprintf(names[0], sizeof names[0], "alone");
    check_same((const name_t *)names, 1);
    /* one host, 1000 ranks */
    for (int i = 0; i < 1000; i++)
        snprintf(names[i], sizeof names[i], "sbhost1");
    check_same((const name_t *)names, 1000);
    assert_int_equal(sb_host_group((const name_t *)names, 1000, leader, &g), 0);
    assert_int_equal(g.hosts, 1);
    assert_int_equal(g.min_per_host, 1000);
    assert_int_equal(leader[999], 0);
    /* every rank its own host, in reverse order of name */
    for (int i = 0; i < 1000; i++)
        snprintf(names[i], sizeof names[i], "h%04d", 999 - i);
    check_same((const name_t *)names, 1000);
    assert_int_equal(sb_host_group((const name_t *)names, 1000, leader, &g), 0);
    assert_int_equal(g.hosts, 1000);
    assert_int_equal(g.max_per_host, 1);
    assert_int_equal(leader[500], 500);
    /* 2 hosts x 2 ranks, interleaved (a round-robin mapping): 2 per host */
    const char *rr[4] = {"sbhost1", "sbhost2", "sbhost1", "sbhost2"};
    for (int i = 0; i < 4; i++)
        snprintf(names[i], sizeof names[i], "%s", rr[i]);
    check_same((const name_t *)names, 4);
    assert_int_equal(sb_host_group((const name_t *)names, 4, leader, &g), 0);
    assert_int_equal(g.hosts, 2);
    assert_int_equal(g.min_per_host, 2);
    assert_int_equal(leader[3], 1);
    /* 63-byte names that differ only in the last byte; bytes after a name's end ignored */
    memset(names, 0, 8 * sizeof *names);
    for (int i = 0; i < 6; i++) {
        memset(names[i], 'x', SB_RANKMAP_NAME - 1);
        names[i][SB_RANKMAP_NAME - 2] = (char)('a' + i % 2);
    }
    snprintf(names[6], sizeof names[6], "short");
    snprintf(names[7], sizeof names[7], "short");
    names[7][7] = 'z'; /* past the NUL: still "short" */
    check_same((const name_t *)names, 8);
    assert_int_equal(sb_host_group((const name_t *)names, 8, leader, &g), 0);
    assert_int_equal(g.hosts, 3);
    assert_int_equal(g.min_per_host, 2);
    assert_int_equal(g.max_per_host, 3);
    assert_int_equal(leader[7], 6);
    assert_int_equal(leader[5], 1);
    free(names);
    free(leader);
}

static int ceil_log2(int n)
{
    int k = 0;
    while ((1 << k) < n)
        k++;
    return k;
}

/* From every root of every size up to 130 (and a few large ones): each rank but the root
 * is some rank's child exactly once, and lies within ceil(log2 size) hops. */
static void test_tree(void **state)
{
    int sizes[140], n_sizes = 0;
    for (int s = 1; s <= 130; s++)
        sizes[n_sizes++] = s;
    sizes[n_sizes++] = 1000;
    sizes[n_sizes++] = 4096;
    sizes[n_sizes++] = 10000;
    for (int k = 0; k < n_sizes; k++) {
        int size = sizes[k];
        int *parents = malloc((size_t)size * sizeof *parents), *depth = malloc((size_t)size * sizeof *depth);
        int *queue = malloc((size_t)size * sizeof *queue);
        int roots[3] = {0, size / 2, size - 1};
        for (int ri = 0; ri < 3; ri++) {
            int root = roots[ri], head = 0, tail = 0;
            for (int i = 0; i < size; i++)
                parents[i] = 0;
            depth[root] = 0;
            queue[tail++] = root;
            while (head < tail) {
                int r = queue[head++], kids[32];
                int n = sb_rank_tree_children(r, root, size, kids, 32);
                assert_true(n <= ceil_log2(size));
                for (int i = 0; i < n; i++) {
                    assert_true(kids[i] >= 0 && kids[i] < size);
                    assert_int_not_equal(kids[i], root);
                    if (parents[kids[i]]++ == 0) {
                        depth[kids[i]] = depth[r] + 1;
                        queue[tail++] = kids[i];
                    }
                }
            }
            assert_int_equal(tail, size); /* every rank reached */
            for (int i = 0; i < size; i++) {
                assert_int_equal(parents[i], i == root ? 0 : 1);
                assert_true(depth[i] <= ceil_log2(size));
            }
        }
        free(parents);
        free(depth);
        free(queue);
    }
    int kids[4];
    assert_int_equal(sb_rank_tree_children(0, 0, 1, kids, 4), 0); /* alone: nobody to tell */
    assert_int_equal(sb_rank_tree_children(0, 0, 64, kids, 4), 4); /* no more than room */
}

/* ---- a fake implementation in which this process is rank 0 of the ranks installed:
 * what is gathered is this rank's data, copied into every rank's slot ---- */
static int gathered_slots, gathered_calls;
static int fk_barrier(void) { return 0; }
static int fk_allgather(const void *send, void *recv, size_t len)
{
    for (int r = 0; r < 4; r++)
        memcpy((char *)recv + r * len, send, len);
    return 0;
}
static int fk_bcast(void *buf, size_t len, int root) { return 0; }
static int fk_reduce_u64(uint64_t *buf, size_t n, sb_ranks_op op) { return 0; }
static int fk_reduce_double(double *buf, size_t n, sb_ranks_op op) { return 0; }
static void fk_announce(void) {}
static bool fk_announced(void) { return false; }
static int fk_gather(const void *send, void *recv, size_t len, int root)
{
    for (int r = 0; r < 4; r++)
        memcpy((char *)recv + r * len, send, len);
    return 0;
}
/* Every rank with a length sends rank 0's description, the later ones with "Xeon" made
 * "EPYC": the hosts then differ. */
static int fk_gatherv(const void *send, size_t len, void *recv, const size_t *lens, int root)
{
    size_t at = 0;
    gathered_calls++;
    gathered_slots = 0;
    for (int r = 0; r < 4; r++) {
        if (!lens[r])
            continue;
        char *slot = (char *)recv + at;
        memcpy(slot, send, lens[r]);
        char *x = gathered_slots ? strstr(slot, "Xeon") : NULL;
        if (x)
            memcpy(x, "EPYC", 4);
        at += lens[r];
        gathered_slots++;
    }
    assert_int_equal(len, lens[0]);
    return 0;
}

static const sb_ranks_ops fake = {
    .name = "fake",
    .barrier = fk_barrier,
    .allgather = fk_allgather,
    .bcast = fk_bcast,
    .allreduce_u64 = fk_reduce_u64,
    .allreduce_double = fk_reduce_double,
    .announce_failure = fk_announce,
    .failure_announced = fk_announced,
    .gather = fk_gather,
    .gatherv = fk_gatherv,
};

static void test_installed_and_described(void **state)
{
    static const char hosts[5][SB_HOST_MAX] = {"beta", "alpha", "beta", "alpha", "beta"};
    sb_ranks_install(&fake, 0, 5, 0, 3, hosts);
    assert_int_equal(sb_ranks()->hosts, 2);
    assert_int_equal(sb_ranks()->min_per_host, 2);
    assert_int_equal(sb_ranks()->max_per_host, 3);
    assert_int_equal(sb_ranks_leader_of(0), 0);
    assert_int_equal(sb_ranks_leader_of(3), 1);
    assert_int_equal(sb_ranks_leader_of(4), 0);

    /* the gather to rank 0: every rank's slot, in rank order */
    int mine = 7, all[5] = {0};
    assert_int_equal(sb_ranks_gather(&mine, all, sizeof mine, 0), 0);
    assert_int_equal(all[3], 7);
}

static void test_described_by_leaders(void **state)
{
    static const char hosts[4][SB_HOST_MAX] = {"alpha", "beta", "alpha", "beta"};
    sb_ranks_install(&fake, 0, 4, 0, 2, hosts);
    sb_system sys = {0};
    sb_kvlist_set(&sys.hardware, "Processor", "Xeon E5");
    sb_kvlist_set(&sys.software, "Kernel", "6.1");
    gathered_calls = 0;
    assert_int_equal(sb_run_ranks_describe(&sys), 0);
    assert_int_equal(gathered_calls, 1);
    assert_int_equal(gathered_slots, 2); /* one description per host, not per rank */
    assert_string_equal(sb_kvlist_get(&sys.hardware, "Processor"), "Xeon E5 (alpha); EPYC E5 (beta)");
    assert_string_equal(sb_kvlist_get(&sys.software, "Kernel"), "6.1");
    assert_string_equal(sb_kvlist_get(&sys.hardware, "Ranks"), "4");
    assert_string_equal(sb_kvlist_get(&sys.hardware, "Hosts"), "2");
    assert_string_equal(sb_kvlist_get(&sys.hardware, "Ranks Per Host"), "2");
    assert_string_equal(sb_kvlist_get(&sys.software, "MPI"), "fake");
    sb_kvlist_free(&sys.hardware);
    sb_kvlist_free(&sys.software);

    /* uneven: 3 ranks on alpha, 1 on beta */
    static const char uneven[4][SB_HOST_MAX] = {"alpha", "alpha", "beta", "alpha"};
    sb_ranks_install(&fake, 0, 4, 0, 3, uneven);
    sb_system two = {0};
    sb_kvlist_set(&two.hardware, "Processor", "Xeon");
    assert_int_equal(sb_run_ranks_describe(&two), 0);
    assert_int_equal(gathered_slots, 2);
    assert_string_equal(sb_kvlist_get(&two.hardware, "Processor"), "Xeon (alpha); EPYC (beta)");
    assert_string_equal(sb_kvlist_get(&two.hardware, "Ranks Per Host"), "1 to 3");
    sb_kvlist_free(&two.hardware);
    sb_kvlist_free(&two.software);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_group_shuffled),
        cmocka_unit_test(test_group_shapes),
        cmocka_unit_test(test_tree),
        cmocka_unit_test(test_installed_and_described),
        cmocka_unit_test(test_described_by_leaders),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
