/*
 * test_mdtest — the mdtest workload (workloads/mdtest.c, mdtest_tree.c) run for
 * real at a tiny scale in a scratch directory: every phase's figure and count in
 * the easy and hard layouts, find's matches, the hard layout's 3,901-byte files,
 * a phases list that leaves phases out, the stonewall's figures, the option
 * errors, a failed operation's one line, and that nothing is left behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#define SCRATCH_TEMPLATE "/var/tmp/sbmdtest.XXXXXX"
#include "scratch_dir.h"

#include "workloads/mdtest.h"
#include "workloads/workload.h"

extern const sb_workload sb_wl_mdtest;

enum { P_CREATE, P_FIND, P_STAT, P_READ, P_DELETE, NP };

static sb_config cfg;
static char err_line[512];

static double fig(const sb_sample *s, const char *name)
{
    const sb_figure *f = sb_sample_figure(s, name);
    if (!f)
        fail_msg("figure %s missing", name);
    return f->value;
}

/* Sets "key=value" pairs (NULL-terminated) on a fresh configuration; 0 or the first error. */
static int configure(const char *first, ...)
{
    static char store[16][128];
    sb_config_init(&cfg, &sb_wl_mdtest, false);
    va_list ap;
    va_start(ap, first);
    int n = 0, rc = 0;
    for (const char *kv = first; kv && rc == 0; kv = va_arg(ap, const char *)) {
        char *k = store[n++ % 16];
        snprintf(k, 128, "%s", kv);
        char *eq = strchr(k, '=');
        assert_non_null(eq);
        *eq = 0;
        rc = sb_config_set(&cfg, k, eq + 1, err_line, sizeof err_line);
    }
    va_end(ap);
    if (rc == 0)
        rc = sb_config_resolve(&cfg, err_line, sizeof err_line);
    return rc;
}

static int run_in(const char *where, sb_sample *samples)
{
    memset(samples, 0, NP * sizeof *samples);
    sb_run_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.dir = where;
    ctx.target = where;
    ctx.cfg = &cfg;
    ctx.run_count = 1;
    int rc = sb_wl_mdtest.run(&ctx, sb_config_params(&cfg), samples);
    snprintf(err_line, sizeof err_line, "%s", ctx.err);
    return rc;
}

static void test_easy_every_phase(void **state)
{
    (void)state;
    sb_sample s[NP];
    assert_int_equal(configure("files=120", NULL), 0);
    assert_int_equal(run_in(dir, s), 0);
    for (int p = 0; p < NP; p++) {
        assert_true(sb_config_measured(&cfg, (size_t)p));
        assert_true(s[p].valid);
        assert_true(s[p].value > 0);
        assert_true(s[p].seconds > 0);
        assert_true(s[p].end_ns >= s[p].begin_ns);
        assert_int_equal((int)fig(&s[p], "files"), 120);
    }
    assert_int_equal((int)fig(&s[P_CREATE], "bytes"), 0); /* easy: empty files */
    assert_int_equal((int)fig(&s[P_STAT], "bytes"), 0);
    /* file.mdtest.0.101 is the one name of 0..119 with "01" in it */
    assert_int_equal((int)fig(&s[P_FIND], "found"), 1);
    /* IO500 order: find after create, before stat */
    assert_true(s[P_FIND].begin_ns >= s[P_CREATE].end_ns);
    assert_true(s[P_STAT].begin_ns >= s[P_FIND].end_ns);
    assert_int_equal((int)entries(dir), 0);
}

static void test_hard_every_phase(void **state)
{
    (void)state;
    sb_sample s[NP];
    assert_int_equal(configure("files=150", "layout=hard", NULL), 0);
    assert_int_equal(run_in(dir, s), 0);
    for (int p = 0; p < NP; p++) {
        assert_true(s[p].valid && s[p].value > 0);
        assert_int_equal((int)fig(&s[p], "files"), 150);
    }
    assert_int_equal((int)fig(&s[P_CREATE], "bytes"), 150 * 3901);
    assert_int_equal((int)fig(&s[P_STAT], "bytes"), 150 * 3901); /* st_size of each */
    assert_int_equal((int)fig(&s[P_READ], "bytes"), 150 * 3901);
    assert_int_equal((int)fig(&s[P_FIND], "found"), 1);
    assert_int_equal((int)entries(dir), 0);
}

/* The hard layout's files themselves: one directory, each 3,901 bytes. */
static void test_hard_files_on_disk(void **state)
{
    (void)state;
    mdt_params p = {.files = 5, .hard = true, .size = 3901, .phases = 1};
    char buf[3901];
    memset(buf, 'x', sizeof buf);
    mdt_tree t = {.rank = 0, .size = 1, .p = &p, .buf = buf};
    snprintf(t.root, sizeof t.root, "%s/mdtest", dir);
    sb_run_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.dir = dir;
    mdt_count c = {0};
    assert_int_equal(mdt_make_shared(&t, &ctx), 0);
    assert_int_equal(mdt_make_own(&t, &ctx), 0);
    assert_int_equal(mdt_create(&t, &ctx, 0, 5, 0, &c), 0);
    assert_int_equal((int)c.ops, 5);
    char hard[MDT_PATH_MAX];
    snprintf(hard, sizeof hard, "%s/hard", t.root);
    assert_int_equal((int)entries(hard), 5);
    for (int i = 0; i < 5; i++) {
        char path[MDT_PATH_MAX + 32];
        struct stat st;
        snprintf(path, sizeof path, "%s/file.mdtest.0.%d", hard, i);
        assert_int_equal(lstat(path, &st), 0);
        assert_true(S_ISREG(st.st_mode));
        assert_int_equal((int)st.st_size, 3901);
    }
    /* a second create of the same names is refused (O_EXCL), naming the call and path */
    mdt_count again = {0};
    assert_int_equal(mdt_create(&t, &ctx, 0, 1, 0, &again), -EEXIST);
    assert_non_null(strstr(ctx.err, "create"));
    assert_non_null(strstr(ctx.err, "file.mdtest.0.0"));
    assert_int_equal(mdt_delete(&t, &ctx, 0, 5, &c), 0);
    assert_int_equal(mdt_remove_shared(&t, &ctx), 0);
    assert_int_equal((int)entries(dir), 0);
}

static void test_phases_left_out(void **state)
{
    (void)state;
    sb_sample s[NP];
    assert_int_equal(configure("files=50", "phases=create,stat", NULL), 0);
    assert_true(sb_config_measured(&cfg, P_CREATE));
    assert_true(sb_config_measured(&cfg, P_STAT));
    assert_false(sb_config_measured(&cfg, P_FIND));
    assert_false(sb_config_measured(&cfg, P_READ));
    assert_false(sb_config_measured(&cfg, P_DELETE));
    assert_int_equal(run_in(dir, s), 0);
    assert_true(s[P_CREATE].valid && s[P_STAT].valid);
    assert_false(s[P_FIND].valid || s[P_READ].valid || s[P_DELETE].valid);
    assert_int_equal((int)entries(dir), 0); /* no delete phase: removed untimed */
}

static void test_stonewall(void **state)
{
    (void)state;
    sb_sample s[NP];
    /* far more files than 20 ms can make: the wall stops the create phase */
    assert_int_equal(configure("files=100000000", "stonewall=20ms", "phases=create,stat,delete", NULL), 0);
    assert_int_equal(run_in(dir, s), 0);
    double made = fig(&s[P_CREATE], "files");
    assert_true(made > 0 && made < 100000000);
    /* alone, the wear-out adds nothing: every later phase works on what was made */
    assert_true(fig(&s[P_CREATE], "files_at_stonewall") == made);
    assert_true(fig(&s[P_STAT], "files") == made);
    assert_true(fig(&s[P_DELETE], "files") == made);
    assert_true(fig(&s[P_CREATE], "stonewall_kiops") > 0);
    assert_true(fig(&s[P_CREATE], "stonewall_s") >= 0.02);
    assert_int_equal((int)entries(dir), 0);
}

static void test_option_errors(void **state)
{
    (void)state;
    assert_int_equal(configure("phases=stat,read", NULL), -EINVAL);
    assert_non_null(strstr(err_line, "create is required"));
    assert_int_equal(configure("phases=create,list", NULL), -EINVAL);
    assert_non_null(strstr(err_line, "unknown phase 'list'"));
    assert_int_equal(configure("files=0", NULL), -EINVAL);
    assert_int_equal(configure("size=1G", NULL), -EINVAL);
    assert_int_equal(configure("stonewall=soon", NULL), -EINVAL);
    assert_int_not_equal(configure("layout=medium", NULL), 0);
    /* the defaults and the --quick values are valid */
    assert_int_equal(configure(NULL), 0);
    sb_config_init(&cfg, &sb_wl_mdtest, true);
    assert_int_equal(sb_config_resolve(&cfg, err_line, sizeof err_line), 0);
}

/* A failed metadata operation fails the run with one line naming it and its path. */
static void test_failure_names_op_and_path(void **state)
{
    (void)state;
    sb_sample s[NP];
    char squat[600];
    snprintf(squat, sizeof squat, "%s/mdtest", dir);
    assert_int_equal(mkdir(squat, 0700), 0);
    assert_int_equal(configure("files=10", NULL), 0);
    assert_int_equal(run_in(dir, s), -EEXIST);
    assert_non_null(strstr(err_line, "mdtest: mkdir "));
    assert_non_null(strstr(err_line, squat));
    assert_null(strchr(err_line, '\n'));
    assert_int_equal(rmdir(squat), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_easy_every_phase, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hard_every_phase, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hard_files_on_disk, setup, teardown),
        cmocka_unit_test_setup_teardown(test_phases_left_out, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stonewall, setup, teardown),
        cmocka_unit_test_setup_teardown(test_option_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failure_names_op_and_path, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
