/*
 * Unit tests of what makes fs-mark and postmark do their reference tool's
 * work: PostMark's random stream (checked against bytes and sizes the real
 * PostMark 1.5x produced with seed 42), the pool and transaction sequence
 * that follows from it, and fs_mark's sub-directory policies. The figures
 * are counts, never timings.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>
#include <cmocka.h>

#include "workloads/postmark_rand.h"
#include "workloads/workload.h"

extern const sb_workload sb_wl_fsmark, sb_wl_postmark;

static double fig(const sb_sample *s, const char *name)
{
    for (size_t i = 0; i < s->n_figures; i++)
        if (!strcmp(s->figures[i].name, name))
            return s->figures[i].value;
    fail_msg("figure %s missing", name);
    return -1;
}

/* Runs workload w in a fresh directory with key=value pairs (NULL-terminated); the
 * directory must be empty afterwards and is removed. */
static int run_wl(const sb_workload *w, sb_sample *samples, char *err, ...)
{
    static sb_config cfg;
    static char store[16][128];
    sb_config_init(&cfg, w, false);
    va_list ap;
    va_start(ap, err);
    const char *kv;
    for (int n = 0; (kv = va_arg(ap, const char *)) != NULL; n++) {
        char *k = store[n % 16];
        snprintf(k, 128, "%s", kv);
        char *eq = strchr(k, '=');
        assert_non_null(eq);
        *eq = 0;
        char e[256];
        assert_int_equal(sb_config_set(&cfg, k, eq + 1, e, sizeof e), 0);
    }
    va_end(ap);
    char e[256];
    assert_int_equal(sb_config_resolve(&cfg, e, sizeof e), 0);
    char dir[] = "/var/tmp/sbfsfid.XXXXXX";
    assert_non_null(mkdtemp(dir));
    sb_run_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.dir = dir;
    ctx.target = dir;
    ctx.cfg = &cfg;
    ctx.run_count = 1;
    memset(samples, 0, sizeof(sb_sample) * w->n_measures);
    int rc = w->run(&ctx, sb_config_params(&cfg), samples);
    snprintf(err, 512, "%s", ctx.err);
    assert_int_equal(rmdir(dir), 0); /* nothing left behind */
    return rc;
}

/* PostMark 1.53 (Debian) with "set seed 42", "set size 5120 20000", "set number 5" writes
 * files whose data starts with these bytes, of these sizes (seen with strace). */
static void test_pm_stream_matches_postmark(void **state)
{
    (void)state;
    sb_pm_rand r;
    sb_pm_rand_seed(&r, 42);
    char head[33];
    for (int i = 0; i < 32; i++)
        head[i] = (char)(32 + sb_pm_rnd(&r, 95));
    head[32] = 0;
    assert_string_equal(head, "LeZebJ6S5~qPv$C$py}hmKd H58nM4~.");
    for (int i = 32; i < 2 * 20000; i++) /* the rest of the source buffer */
        sb_pm_rnd(&r, 95);
    static const unsigned sizes[] = {8273, 16546, 12452, 6408, 19485};
    for (int i = 0; i < 5; i++)
        assert_int_equal(5120 + sb_pm_rnd(&r, 20000 - 5120), sizes[i]);
    assert_int_equal(sb_pm_rnd(&r, 0), 0);
}

static void test_pm_run_follows_postmark(void **state)
{
    (void)state;
    sb_sample s[1];
    char err[512];
    /* The pool of the stream test above: its bytes are the sum of those sizes. */
    assert_int_equal(run_wl(&sb_wl_postmark, s, err, "files=5", "size-min=5120", "size-max=20000",
                            "transactions=0", NULL), 0);
    assert_int_equal(fig(s, "bytes_written"), 8273 + 16546 + 12452 + 6408 + 19485);
    assert_int_equal(fig(s, "created_alone"), 5);
    assert_int_equal(fig(s, "deleted_alone"), 5);
    /* PostMark with these settings and 20 transactions says "out of files!" after its 9th
     * (same calls, seen with strace); storbench fails at the same point. */
    assert_int_equal(run_wl(&sb_wl_postmark, s, err, "files=5", "size-min=5120", "size-max=20000",
                            "transactions=20", NULL), -ENOENT);
    assert_non_null(strstr(err, "out of files after 9 transactions"));
    /* Same seed, same work: two runs read and write the same bytes. */
    assert_int_equal(run_wl(&sb_wl_postmark, s, err, "files=40", "size-min=100", "size-max=9000",
                            "transactions=300", "subdirs=3", "buffered=no", NULL), 0);
    double w = fig(s, "bytes_written"), rd = fig(s, "bytes_read"), c = fig(s, "files_created");
    assert_int_equal(run_wl(&sb_wl_postmark, s, err, "files=40", "size-min=100", "size-max=9000",
                            "transactions=300", "subdirs=3", "buffered=yes", NULL), 0);
    assert_int_equal(fig(s, "bytes_written"), w);
    assert_int_equal(fig(s, "bytes_read"), rd);
    assert_int_equal(fig(s, "files_created"), c);
    assert_int_equal(fig(s, "files_created"), fig(s, "files_deleted"));
}

static void test_pm_rejects_out_of_range(void **state)
{
    (void)state;
    sb_config cfg;
    char e[256];
    sb_config_init(&cfg, &sb_wl_postmark, false);
    assert_int_equal(sb_config_set(&cfg, "size-max", "2G", e, sizeof e), 0);
    assert_int_not_equal(sb_config_resolve(&cfg, e, sizeof e), 0);
    assert_non_null(strstr(e, "size-max"));
    sb_config_init(&cfg, &sb_wl_postmark, false);
    assert_int_equal(sb_config_set(&cfg, "seed", "4294967296", e, sizeof e), 0);
    assert_int_not_equal(sb_config_resolve(&cfg, e, sizeof e), 0);
}

/* fs_mark -D 32 without -N: one sub-directory, chosen by the clock, for a short run;
 * per-dir=N (-N) fills N files in each in turn. */
static void test_fsmark_subdir_policies(void **state)
{
    (void)state;
    sb_sample s[1];
    char err[512];
    assert_int_equal(run_wl(&sb_wl_fsmark, s, err, "test=custom", "files=10", "size=4k", "dirs=32", NULL), 0);
    assert_int_equal(fig(s, "files_created"), 10);
    assert_int_equal(fig(s, "files_removed"), 10);
    assert_int_equal(fig(s, "sub_dirs"), 32);
    assert_int_equal(fig(s, "sub_dirs_used"), 1);
    assert_int_equal(run_wl(&sb_wl_fsmark, s, err, "test=custom", "files=10", "size=4k", "dirs=32",
                            "per-dir=3", NULL), 0);
    assert_int_equal(fig(s, "sub_dirs_used"), 4);
    /* Two workers, each with its own turn, over 4 sub-directories: 4 used at most. */
    assert_int_equal(run_wl(&sb_wl_fsmark, s, err, "test=custom", "files=12", "size=4k", "dirs=4",
                            "per-dir=1", "threads=2", NULL), 0);
    assert_int_equal(fig(s, "sub_dirs_used"), 4);
    assert_int_equal(fig(s, "files_removed"), 24);
    /* No sub-directories: none made. */
    assert_int_equal(run_wl(&sb_wl_fsmark, s, err, "test=custom", "files=3", "size=4k", NULL), 0);
    assert_int_equal(fig(s, "sub_dirs_used"), 0);
}

static void test_fsmark_data_option(void **state)
{
    (void)state;
    sb_sample s[1];
    char err[512];
    assert_int_equal(run_wl(&sb_wl_fsmark, s, err, "test=custom", "files=2", "size=40k", NULL), 0);
    assert_int_equal(fig(s, "random_data"), 0); /* fs_mark's zeros by default */
    assert_int_equal(run_wl(&sb_wl_fsmark, s, err, "test=custom", "files=2", "size=40k", "data=random", NULL),
                     0);
    assert_int_equal(fig(s, "random_data"), 1);
    assert_int_equal(fig(s, "bytes_written"), 2 * 40960);
    sb_config cfg;
    char e[256];
    sb_config_init(&cfg, &sb_wl_fsmark, false);
    assert_int_not_equal(sb_config_set(&cfg, "data", "ones", e, sizeof e), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pm_stream_matches_postmark),
        cmocka_unit_test(test_pm_run_follows_postmark),
        cmocka_unit_test(test_pm_rejects_out_of_range),
        cmocka_unit_test(test_fsmark_subdir_policies),
        cmocka_unit_test(test_fsmark_data_option),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
