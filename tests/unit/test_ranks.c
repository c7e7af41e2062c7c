/* Unit tests for core/ranks: one rank alone (every collective immediate), and a fake
 * three-rank implementation in which this process is rank 0 and ranks 1 and 2 send
 * what the test sets: the agreement names the lowest failing rank and its host, prefers
 * a real failure to an interruption, and merged histograms are the sum of the ranks'. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/ranks.h"
#include "runner/io_ranks_jobs.h"

static void test_alone(void **state)
{
    assert_false(sb_ranks_active());
    assert_int_equal(sb_ranks()->rank, 0);
    assert_int_equal(sb_ranks()->size, 1);
    assert_int_equal(sb_ranks_barrier(), 0);
    int a = 42, b = 0;
    assert_int_equal(sb_ranks_allgather(&a, &b, sizeof a), 0);
    assert_int_equal(b, 42);
    uint64_t v = 7;
    assert_int_equal(sb_ranks_allreduce_u64(&v, 1, SB_RANKS_SUM), 0);
    assert_int_equal(v, 7);
    char out[256];
    assert_int_equal(sb_ranks_agree(0, "", out, sizeof out), 0);
    assert_int_equal(sb_ranks_agree(-ENOSPC, "disk full", out, sizeof out), -ENOSPC);
    assert_string_equal(out, "disk full");
    assert_false(sb_ranks_failure_announced());
}

/* ---- the fake: ranks 1 and 2 ---- */
static int other_status[3];
static const char *other_msg[3];

static int fk_barrier(void) { return 0; }
static int fk_allgather(const void *send, void *recv, size_t len)
{
    memcpy(recv, send, len);
    for (int r = 1; r < 3; r++) /* only statuses (int) are gathered in these tests */
        memcpy((char *)recv + r * len, &other_status[r], len);
    return 0;
}
static int fk_bcast(void *buf, size_t len, int root)
{
    if (root != 0)
        snprintf(buf, len, "%s", other_msg[root]);
    return 0;
}
static int fk_reduce_u64(uint64_t *buf, size_t n, sb_ranks_op op)
{
    if (op == SB_RANKS_SUM) /* the other ranks hold what this one holds */
        for (size_t i = 0; i < n; i++)
            buf[i] *= 3;
    return 0;
}
static int fk_reduce_double(double *buf, size_t n, sb_ranks_op op)
{
    if (op == SB_RANKS_SUM)
        for (size_t i = 0; i < n; i++)
            buf[i] *= 3;
    return 0;
}
static void fk_announce(void) {}
static bool fk_announced(void) { return false; }

static const sb_ranks_ops fake = {"fake", fk_barrier, fk_allgather, fk_bcast, fk_reduce_u64,
                                  fk_reduce_double, fk_announce, fk_announced,
                                  NULL, NULL}; /* no gather here (test_rankmap.c) */

static void test_fake_three(void **state)
{
    static const char hosts[3][SB_HOST_MAX] = {"alpha", "alpha", "beta"};
    sb_ranks_install(&fake, 0, 3, 0, 2, hosts);
    assert_true(sb_ranks_active());
    assert_int_equal(sb_ranks()->hosts, 2);
    assert_int_equal(sb_ranks()->max_per_host, 2);
    assert_string_equal(sb_ranks_host_of(2), "beta");

    char out[256];
    other_status[1] = other_status[2] = 0;
    assert_int_equal(sb_ranks_agree(0, "", out, sizeof out), 0);

    /* rank 1 interrupted (it was told to stop), rank 2 failed: rank 2 is the cause */
    other_status[1] = -EINTR;
    other_status[2] = -EISDIR;
    other_msg[2] = "/x/f.2 is a directory";
    assert_int_equal(sb_ranks_agree(0, "", out, sizeof out), -EISDIR);
    assert_string_equal(out, "rank 2 on beta: /x/f.2 is a directory");

    /* two real failures: the lowest rank's, here this one */
    assert_int_equal(sb_ranks_agree(-ENOSPC, "no space", out, sizeof out), -ENOSPC);
    assert_string_equal(out, "rank 0 on alpha: no space");

    /* only interruptions: reported as one */
    other_status[2] = -EINTR;
    other_msg[1] = "interrupted";
    assert_int_equal(sb_ranks_agree(0, "", out, sizeof out), -EINTR);
    assert_string_equal(out, "rank 1 on alpha: interrupted");

    sb_histogram *h = malloc(sizeof *h);
    sb_hist_init(h);
    for (uint64_t v = 1000; v <= 100000; v += 1000)
        sb_hist_record(h, v);
    double p50 = sb_hist_percentile(h, 50), mean = sb_hist_mean(h);
    assert_int_equal(sb_ranks_merge_hist(h), 0);
    assert_int_equal(h->count, 300);
    assert_true(sb_hist_percentile(h, 50) == p50);
    assert_true(sb_hist_mean(h) == mean);
    assert_int_equal(h->min, 1000);
    assert_int_equal(h->max, 100000);
    free(h);
}

/* io --ranks-per-job K: job i on ranks i*K .. i*K+K-1 modulo the ranks (docs/mpi.md) */
static void test_ranks_per_job(void **state)
{
    (void)state;
    char got[64];
    /* 4 ranks, K = 3: job 0 on 0-2, job 1 on 3, 0, 1, job 2 on 2, 3, 0 */
    const char *const want[] = {"1110", "1101", "1011"};
    for (size_t j = 0; j < 3; j++) {
        for (int r = 0; r < 4; r++)
            got[r] = sb_io_ranks_runs_job(j, 3, r, 4) ? '1' : '0';
        got[4] = '\0';
        assert_string_equal(got, want[j]);
    }
    for (int r = 0; r < 8; r++) { /* K = 2 of 8: job 1 on ranks 2-3, job 4 on 0-1 again */
        assert_int_equal(sb_io_ranks_runs_job(1, 2, r, 8), r == 2 || r == 3);
        assert_int_equal(sb_io_ranks_runs_job(4, 2, r, 8), r == 0 || r == 1);
    }
    for (int r = 0; r < 4; r++) /* 0 (none given) or K = the ranks: every rank */
        assert_true(sb_io_ranks_runs_job(5, 0, r, 4) && sb_io_ranks_runs_job(5, 4, r, 4));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ranks_per_job),
        cmocka_unit_test(test_alone),
        cmocka_unit_test(test_fake_three),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
