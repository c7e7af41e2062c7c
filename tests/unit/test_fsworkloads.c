/*
 * Unit tests of the file-system workloads (fs-mark, postmark, compilebench,
 * dbench): the compilebench tree generator against the data set's
 * statistics, the dbench loadfile parser and generator, and one tiny run of
 * each workload called directly, checking the counts it reports and that it
 * leaves its directory empty.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <math.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/workdir.h"
#include "workloads/compilebench/compilebench_tree.h"
#include "workloads/dbench/dbench_loadfile.h"
#include "workloads/dbench/dbench_replay.h"
#include "workloads/workload.h"

extern const sb_workload sb_wl_fsmark, sb_wl_postmark, sb_wl_compilebench, sb_wl_dbench;

static double fig(const sb_sample *s, const char *name)
{
    for (size_t i = 0; i < s->n_figures; i++)
        if (!strcmp(s->figures[i].name, name))
            return s->figures[i].value;
    fail_msg("figure %s missing", name);
    return -1;
}

static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)))
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

/* Runs workload w in a fresh directory with key=value pairs (NULL-terminated). */
static int run_wl(const sb_workload *w, sb_sample *samples, char *dir, size_t dirlen, char *err, ...)
{
    static sb_config cfg;
    sb_config_init(&cfg, w, false);
    va_list ap;
    va_start(ap, err);
    const char *kv;
    while ((kv = va_arg(ap, const char *)) != NULL) {
        static char store[32][128];
        static int next;
        char *k = store[next++ % 32];
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
    snprintf(dir, dirlen, "/var/tmp/sbfsunit.XXXXXX");
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
    return rc;
}

static void finish_dir(const char *dir)
{
    assert_int_equal(entries(dir), 0);
    assert_int_equal(rmdir(dir), 0);
}

/* ---- compilebench tree ---- */

static void within_1pct(double got, double want)
{
    if (fabs(got - want) > 0.01 * want)
        fail_msg("%.0f is not within 1 %% of %.0f", got, want);
}

static void test_cb_tree_statistics(void **state)
{
    (void)state;
    sb_cb_tree t;
    assert_int_equal(sb_cb_tree_generate(&t, SB_CB_SEED, 100), 0);
    assert_int_equal(t.n_dirs, 1263);
    assert_int_equal(t.n_files, 21280);
    within_1pct((double)t.total_bytes, 233176153);
    within_1pct((double)t.total_bytes / (double)t.n_files, 10958);
    within_1pct((double)sb_cb_tree_percentile(&t, 0), 6);
    within_1pct((double)sb_cb_tree_percentile(&t, 10), 390);
    within_1pct((double)sb_cb_tree_percentile(&t, 25), 1303);
    within_1pct((double)sb_cb_tree_percentile(&t, 50), 4055);
    within_1pct((double)sb_cb_tree_percentile(&t, 75), 11141);
    within_1pct((double)sb_cb_tree_percentile(&t, 90), 26112);
    within_1pct((double)sb_cb_tree_percentile(&t, 99), 97228);
    within_1pct((double)sb_cb_tree_percentile(&t, 100), 873603);
    assert_int_equal(t.n_objects, 3263);
    within_1pct((double)t.object_bytes, 680.6 * 1048576);
    /* Every directory's parent comes before it, so creating in order works. */
    for (size_t d = 1; d < t.n_dirs; d++) {
        const char *slash = strrchr(t.dirs[d], '/');
        if (!slash)
            continue;
        size_t plen = (size_t)(slash - t.dirs[d]);
        int found = 0;
        for (size_t q = 1; q < d && !found; q++)
            found = strlen(t.dirs[q]) == plen && !strncmp(t.dirs[q], t.dirs[d], plen);
        assert_true(found);
    }
    sb_cb_tree_free(&t);
}

static void test_cb_tree_deterministic(void **state)
{
    (void)state;
    sb_cb_tree a, b, c;
    assert_int_equal(sb_cb_tree_generate(&a, SB_CB_SEED, 100), 0);
    assert_int_equal(sb_cb_tree_generate(&b, SB_CB_SEED, 100), 0);
    assert_int_equal(sb_cb_tree_generate(&c, SB_CB_SEED + 1, 100), 0);
    assert_int_equal(a.n_files, b.n_files);
    assert_memory_equal(a.files, b.files, a.n_files * sizeof *a.files);
    for (size_t d = 0; d < a.n_dirs; d++)
        assert_string_equal(a.dirs[d], b.dirs[d]);
    assert_true(memcmp(a.files, c.files, a.n_files * sizeof *a.files) != 0);
    sb_cb_tree_free(&a);
    sb_cb_tree_free(&b);
    sb_cb_tree_free(&c);
    /* A scaled tree keeps the share of files asked for. */
    assert_int_equal(sb_cb_tree_generate(&a, SB_CB_SEED, 10), 0);
    assert_true(a.n_files >= 2120 && a.n_files <= 2140);
    assert_int_equal(a.n_dirs, 1263);
    sb_cb_tree_free(&a);
}

/* The order compilebench writes a tree in: directories depth-first (each one right
 * after its parent's subtree began: the previous directory lies inside its parent),
 * files grouped by directory in that order. */
static void test_cb_tree_walk_order(void **state)
{
    (void)state;
    sb_cb_tree t;
    assert_int_equal(sb_cb_tree_generate(&t, SB_CB_SEED, 100), 0);
    assert_string_equal(t.dirs[0], "");
    for (size_t d = 1; d < t.n_dirs; d++) {
        const char *slash = strrchr(t.dirs[d], '/');
        size_t plen = slash ? (size_t)(slash - t.dirs[d]) : 0;
        /* the parent's path is a prefix of the directory just before (pre-order) */
        assert_true(plen == 0 || (!strncmp(t.dirs[d - 1], t.dirs[d], plen) &&
                                  (t.dirs[d - 1][plen] == '/' || t.dirs[d - 1][plen] == 0)));
    }
    for (size_t i = 1; i < t.n_files; i++)
        assert_true(t.files[i - 1].dir <= t.files[i].dir);
    sb_cb_tree_free(&t);
}

/* ---- dbench loadfile ---- */

static void test_db_parse(void **state)
{
    (void)state;
    sb_dbench_script s;
    memset(&s, 0, sizeof s);
    char err[256];
    assert_int_equal(sb_dbench_parse_line(&s, "NTCreateX \"\\clients\\client1\\~dmtmp\\A B.DOC\" 0x40 0x2 9938 NT_STATUS_OK\n", 1, err, sizeof err), 0);
    assert_int_equal(s.ops[0].verb, SB_DBENCH_NTCREATEX);
    assert_string_equal(sb_dbench_str(&s, s.ops[0].path), "/~dmtmp/A B.DOC");
    assert_true(s.ops[0].path_client & 1);
    assert_int_equal(s.ops[0].a, 0x40);
    assert_int_equal(s.ops[0].b, 2);
    assert_int_equal(s.ops[0].handle, 9938);
    assert_true(s.ops[0].expect_ok);
    assert_int_equal(sb_dbench_parse_line(&s, "WriteX 9938 65536 65536 65536 NT_STATUS_OK", 2, err, sizeof err), 0);
    assert_int_equal(s.ops[1].offset, 65536);
    assert_int_equal(s.ops[1].size, 65536);
    assert_int_equal(sb_dbench_parse_line(&s, "0.125 Rename \"\\clients\\client1\\a\" \"\\clients\\client1\\b\" NT_STATUS_OK", 3, err, sizeof err), 0);
    assert_string_equal(sb_dbench_str(&s, s.ops[2].path2), "/b");
    assert_true(s.ops[2].at == 0.125 && s.ops[1].at == 0);
    assert_int_equal(sb_dbench_parse_line(&s, "QUERY_PATH_INFORMATION \"\\clients\\client1\\x\" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND", 4, err, sizeof err), 0);
    assert_false(s.ops[3].expect_ok);
    assert_int_equal(sb_dbench_parse_line(&s, "Mkdir \"\\clients\" NT_STATUS_OK", 5, err, sizeof err), 0);
    assert_false(s.ops[4].path_client & 1);
    assert_string_equal(sb_dbench_str(&s, s.ops[4].path), "/clients");
    assert_int_equal(sb_dbench_parse_line(&s, "# comment", 6, err, sizeof err), 1);
    assert_int_equal(sb_dbench_parse_line(&s, "   ", 7, err, sizeof err), 1);
    assert_int_equal(sb_dbench_parse_line(&s, "Frobnicate 1 NT_STATUS_OK", 8, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "Frobnicate"));
    assert_int_equal(sb_dbench_parse_line(&s, "ReadX 1 2 NT_STATUS_OK", 9, err, sizeof err), -EINVAL);
    assert_int_equal(sb_dbench_parse_line(&s, "ReadX x 0 4096 4096 NT_STATUS_OK", 10, err, sizeof err), -EINVAL);
    assert_int_equal(sb_dbench_parse_line(&s, "1.5x Close 1 NT_STATUS_OK", 11, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "timestamp"));
    assert_int_equal(s.n, 5);
    sb_dbench_script_free(&s);
}

/* A client's own reading of the loadfile (client=dbench): comments and blank lines are
 * skipped, the end rewinds to the start, every line read must be the operation about to
 * run, and a loadfile changed under the run is caught. */
static void test_db_replay(void **state)
{
    (void)state;
    char lf[] = "/tmp/sbreplay.XXXXXX";
    int fd = mkstemp(lf);
    assert_true(fd >= 0);
    const char *text = "# a comment\n"
                       "NTCreateX \"\\clients\\client1\\f\" 0x0 0x5 7 NT_STATUS_OK\n"
                       "\n"
                       "WriteX 7 0 1000 1000 NT_STATUS_OK\n"
                       "Close 7 NT_STATUS_OK\n";
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    sb_dbench_script sc;
    char err[256];
    assert_int_equal(sb_dbench_parse_file(&sc, lf, err, sizeof err), 0);
    assert_int_equal(sc.n, 3);
    sb_dbench_replay r;
    assert_int_equal(sb_dbench_replay_open(&r, lf, err, sizeof err), 0);
    for (int loop = 0; loop < 3; loop++)
        for (size_t i = 0; i < sc.n; i++)
            assert_int_equal(sb_dbench_replay_next(&r, &sc, &sc.ops[i], err, sizeof err), 0);
    /* out of step: the next line is the NTCreateX, not the Close */
    assert_int_equal(sb_dbench_replay_next(&r, &sc, &sc.ops[2], err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "changed during the run"));
    sb_dbench_replay_close(&r);

    /* the file rewritten after it was parsed (another size): caught at that line */
    FILE *f = fopen(lf, "r+");
    assert_non_null(f);
    fseek(f, (long)(strlen("# a comment\n") + strlen("NTCreateX \"\\clients\\client1\\f\" 0x0 0x5 7 NT_STATUS_OK\n\n") + 11), SEEK_SET);
    fputc('9', f); /* WriteX 7 0 9000 ... */
    fclose(f);
    assert_int_equal(sb_dbench_replay_open(&r, lf, err, sizeof err), 0);
    assert_int_equal(sb_dbench_replay_next(&r, &sc, &sc.ops[0], err, sizeof err), 0);
    assert_int_equal(sb_dbench_replay_next(&r, &sc, &sc.ops[1], err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, ":4: the loadfile changed"));
    sb_dbench_replay_close(&r);
    assert_int_equal(sb_dbench_replay_open(&r, "/nonexistent/loadfile", err, sizeof err), -ENOENT);
    sb_dbench_script_free(&sc);
    unlink(lf);
}

static void test_db_generate_mix(void **state)
{
    (void)state;
    sb_dbench_script s, t;
    assert_int_equal(sb_dbench_generate(&s, 1, 50000), 0);
    assert_int_equal(sb_dbench_generate(&t, 1, 50000), 0);
    assert_int_equal(s.n, t.n);
    assert_memory_equal(s.ops, t.ops, s.n * sizeof *s.ops);
    assert_true(s.n >= 50000 && s.n < 50100);
    assert_int_equal(s.ops[0].verb, SB_DBENCH_DELTREE);
    assert_int_equal(s.ops[s.n - 1].verb, SB_DBENCH_DELTREE);
    double n[SB_DBENCH_N_VERBS] = {0};
    for (size_t i = 0; i < s.n; i++)
        n[s.ops[i].verb]++;
    /* client.txt's shares, within a few points (docs/workloads.md). */
    struct { int v; double share; } mix[] = {
        {SB_DBENCH_READX, 27.1}, {SB_DBENCH_NTCREATEX, 17.3}, {SB_DBENCH_QPATHINFO, 15.7}, {SB_DBENCH_CLOSE, 12.7},
        {SB_DBENCH_WRITEX, 8.6}, {SB_DBENCH_FINDFIRST, 6.1}, {SB_DBENCH_UNLINK, 3.5}, {SB_DBENCH_QFSINFO, 2.9},
        {SB_DBENCH_QFILEINFO, 2.7}, {SB_DBENCH_SFILEINFO, 1.4}, {SB_DBENCH_FLUSH, 1.2}, {SB_DBENCH_RENAME, 0.7},
    };
    for (size_t i = 0; i < sizeof mix / sizeof mix[0]; i++) {
        double got = 100.0 * n[mix[i].v] / (double)s.n;
        if (fabs(got - mix[i].share) > 0.15 * mix[i].share + 0.2)
            fail_msg("%s: %.2f %% of operations, client.txt has %.2f %%", sb_dbench_verb_name(mix[i].v), got,
                     mix[i].share);
    }
    assert_true(n[SB_DBENCH_LOCKX] > 0 && n[SB_DBENCH_LOCKX] == n[SB_DBENCH_UNLOCKX]);
    sb_dbench_script_free(&s);
    sb_dbench_script_free(&t);
}

/* ---- tiny runs ---- */

static void test_fsmark_tiny(void **state)
{
    (void)state;
    sb_sample s[1];
    char dir[64], err[512];
    assert_int_equal(run_wl(&sb_wl_fsmark, s, dir, sizeof dir, err, "test=custom", "files=12", "size=20k",
                            "threads=2", "dirs=3", NULL), 0);
    assert_true(s[0].valid);
    assert_true(s[0].value > 0);
    assert_int_equal(fig(s, "files_created"), 24);
    assert_int_equal(fig(s, "files_removed"), 24);
    assert_int_equal(fig(s, "bytes_written"), 24 * 20480);
    assert_true(fig(s, "lat_max") > 0);
    finish_dir(dir);
    assert_int_equal(run_wl(&sb_wl_fsmark, s, dir, sizeof dir, err, "test=custom", "files=5", "size=1",
                            "sync=end", NULL), 0);
    assert_int_equal(fig(s, "files_created"), 5);
    finish_dir(dir);
}

static void test_postmark_tiny(void **state)
{
    (void)state;
    sb_sample s[1];
    char dir[64], err[512];
    assert_int_equal(run_wl(&sb_wl_postmark, s, dir, sizeof dir, err, "files=50", "transactions=200",
                            "size-min=100", "size-max=5000", "subdirs=2", NULL), 0);
    assert_true(s[0].valid);
    assert_int_equal(fig(s, "transactions"), 200);
    assert_int_equal(fig(s, "created_alone"), 50);
    assert_int_equal(fig(s, "files_created"), fig(s, "files_deleted"));
    /* Each transaction does one read-or-append (while files exist) and one create-or-delete. */
    assert_true(fig(s, "created_mixed") + fig(s, "deleted_mixed") <= 200);
    assert_true(fig(s, "created_mixed") + fig(s, "deleted_mixed") > 150);
    assert_true(fig(s, "files_read") + fig(s, "files_appended") <= 200);
    assert_true(fig(s, "bytes_written") >= 50 * 100);
    finish_dir(dir);
    /* A pool that runs dry stops the run with one line, leaving nothing behind. */
    assert_int_equal(run_wl(&sb_wl_postmark, s, dir, sizeof dir, err, "files=1", "transactions=1000",
                            "bias-create=0", NULL), -ENOENT);
    assert_non_null(strstr(err, "out of files"));
    finish_dir(dir);
    /* Unbuffered with a different seed works the same way. */
    assert_int_equal(run_wl(&sb_wl_postmark, s, dir, sizeof dir, err, "files=30", "transactions=50",
                            "size-min=10", "size-max=100", "buffered=no", "seed=7", NULL), 0);
    assert_int_equal(fig(s, "files_created"), fig(s, "files_deleted"));
    finish_dir(dir);
}

static void test_compilebench_tiny(void **state)
{
    (void)state;
    sb_sample s[1];
    char dir[64], err[512];
    static const char *const tests[] = {"test=compile", "test=read-tree", "test=delete"};
    for (int t = 0; t < 3; t++) {
        assert_int_equal(run_wl(&sb_wl_compilebench, s, dir, sizeof dir, err, tests[t], "trees=1", "scale=1",
                                NULL), 0);
        assert_true(s[0].valid);
        assert_true(s[0].value > 0);
        double files = fig(&s[0], "tree_files");
        assert_true(files >= 200 && files <= 220);
        assert_int_equal(fig(&s[0], "dirs_created"), 1263);
        assert_true(fig(&s[0], "files_created") > files); /* sources and objects */
        assert_int_equal(fig(&s[0], "files_created"), fig(&s[0], "files_removed"));
        if (t == 1)
            assert_true(fig(&s[0], "bytes_read") > fig(&s[0], "tree_bytes"));
        finish_dir(dir);
    }
    assert_int_equal(run_wl(&sb_wl_compilebench, s, dir, sizeof dir, err, "trees=2", "scale=1", NULL), 0);
    assert_true(s[0].valid);
    assert_int_equal(fig(&s[0], "trees"), 2);
    /* per tree: CPU and run-queue seconds, within the tree's wall seconds (one thread) */
    double cpu = fig(&s[0], "user_seconds") + fig(&s[0], "sys_seconds");
    assert_true(cpu >= 0);
    assert_true(fig(&s[0], "runq_seconds") >= 0);
    assert_true(cpu + fig(&s[0], "runq_seconds") <= fig(&s[0], "seconds") * 1.05 + 0.002);
    assert_int_equal(fig(&s[0], "dirs_created"), 2 * 1263);
    assert_int_equal(fig(&s[0], "files_created"), 2 * fig(&s[0], "tree_files"));
    assert_int_equal(fig(&s[0], "files_created"), fig(&s[0], "files_removed"));
    /* compilebench's set-up came first (written, removed, counted apart): the tree, an
     * even 6,136 / 21,280 of its files, an even 2,573 / 3,263 of its objects. At full
     * scale that is compilebench's 29,989 files. */
    sb_cb_tree t;
    assert_int_equal(sb_cb_tree_generate(&t, SB_CB_SEED, 1), 0);
    size_t setup = t.n_files + (t.n_files * 6136 + SB_CB_FILES / 2) / SB_CB_FILES +
                   (t.n_objects * 2573 + SB_CB_OBJECTS / 2) / SB_CB_OBJECTS;
    assert_true(setup > t.n_files + 50);
    assert_int_equal(fig(&s[0], "setup_files"), setup);
    sb_cb_tree_free(&t);
    finish_dir(dir);
}

static void test_dbench_tiny(void **state)
{
    (void)state;
    sb_sample s[1];
    char dir[64], err[512];
    assert_int_equal(run_wl(&sb_wl_dbench, s, dir, sizeof dir, err, "clients=2", "time=1", "warmup=0",
                            "loadfile=builtin", NULL), 0);
    assert_true(s[0].valid);
    assert_true(fig(s, "operations") > 0);
    assert_int_equal(fig(s, "unexpected"), 0);
    assert_true(fig(s, "n_ReadX") > 0);
    finish_dir(dir);

    /* The default stream is dbench's client.txt (the seed's); replayed, every outcome
     * is the one the loadfile recorded. */
    assert_string_equal(sb_wl_dbench.options[3].key, "loadfile");
    assert_string_equal(sb_wl_dbench.options[3].def, SB_DBENCH_CLIENT_TXT);
    if (access(SB_DBENCH_CLIENT_TXT, R_OK) == 0) {
        assert_int_equal(run_wl(&sb_wl_dbench, s, dir, sizeof dir, err, "clients=1", "time=1", "warmup=0", NULL), 0);
        assert_true(fig(s, "n_ReadX") > 0 && fig(s, "n_WriteX") > 0);
        assert_int_equal(fig(s, "unexpected"), 0);
        finish_dir(dir);
    }

    /* A three-line loadfile: each client creates and writes one file, then deletes it. */
    char lf[] = "/var/tmp/sbfsload.XXXXXX";
    int fd = mkstemp(lf);
    assert_true(fd >= 0);
    const char *text = "NTCreateX \"\\clients\\client1\\f\" 0x0 0x5 7 NT_STATUS_OK\n"
                       "WriteX 7 0 1000 1000 NT_STATUS_OK\n"
                       "Close 7 NT_STATUS_OK\n"
                       "Unlink \"\\clients\\client1\\f\" 0x6 NT_STATUS_OK\n"
                       "Unlink \"\\clients\\client1\\f\" 0x6 NT_STATUS_OBJECT_NAME_NOT_FOUND\n";
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    char opt[64];
    snprintf(opt, sizeof opt, "loadfile=%s", lf);
    assert_int_equal(run_wl(&sb_wl_dbench, s, dir, sizeof dir, err, "clients=1", "time=1", "warmup=0", opt, NULL), 0);
    double nc = fig(s, "n_NTCreateX"), nw = fig(s, "n_WriteX");
    assert_true(nc > 0);
    assert_true(nw >= nc - 1 && nw <= nc);
    assert_int_equal(fig(s, "unexpected"), 0);
    /* The counted bytes are those of the WriteX operations that completed. */
    assert_int_equal(fig(s, "bytes_written"), nw * 1000);
    finish_dir(dir);
    /* Three client processes (client=dbench forks them) after a warm-up: their counts, kept
     * in the shared mapping, start with the measured phase and add up the same way. Each
     * client may start or stop the phase between its NTCreateX and its WriteX. */
    assert_int_equal(run_wl(&sb_wl_dbench, s, dir, sizeof dir, err, "clients=3", "time=1", "warmup=0.3", opt,
                            NULL), 0);
    nc = fig(s, "n_NTCreateX"), nw = fig(s, "n_WriteX");
    assert_true(nc >= 3);
    assert_true(nw >= nc - 3 && nw <= nc + 3);
    assert_true(fig(s, "n_Close") >= nw - 3 && fig(s, "n_Close") <= nw + 3);
    assert_int_equal(fig(s, "unexpected"), 0);
    assert_int_equal(fig(s, "bytes_written"), nw * 1000);
    assert_int_equal(fig(s, "operations"), nc + nw + fig(s, "n_Close") + fig(s, "n_Unlink"));
    finish_dir(dir);
    /* the lighter client runs the same stream */
    assert_int_equal(run_wl(&sb_wl_dbench, s, dir, sizeof dir, err, "clients=1", "time=1", "warmup=0", opt,
                            "client=light", NULL), 0);
    assert_true(fig(s, "n_WriteX") > 0);
    assert_int_equal(fig(s, "unexpected"), 0);
    finish_dir(dir);
    unlink(lf);

    /* dbench's fileio semantics: Deltree unlinks the files and keeps the directories
     * (the Rmdir after it succeeds on the emptied folder); OPEN_IF opens an existing
     * file only, so it fails on a missing one as the loadfile says. Looped, any other
     * outcome shows up as unexpected. */
    snprintf(lf, sizeof lf, "/var/tmp/sbfsload.XXXXXX");
    fd = mkstemp(lf);
    assert_true(fd >= 0);
    text = "Mkdir \"\\clients\\client1\\d\" NT_STATUS_OK\n"
           "NTCreateX \"\\clients\\client1\\d\\f\" 0x0 0x2 7 NT_STATUS_OK\n"
           "Close 7 NT_STATUS_OK\n"
           "Deltree \"\\clients\\client1\" NT_STATUS_OK\n"
           "QUERY_PATH_INFORMATION \"\\clients\\client1\\d\\f\" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND\n"
           "Rmdir \"\\clients\\client1\\d\" NT_STATUS_OK\n"
           "NTCreateX \"\\clients\\client1\\g\" 0x0 0x3 8 NT_STATUS_OBJECT_NAME_NOT_FOUND\n";
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    snprintf(opt, sizeof opt, "loadfile=%s", lf);
    assert_int_equal(run_wl(&sb_wl_dbench, s, dir, sizeof dir, err, "clients=2", "time=1", "warmup=0", opt, NULL), 0);
    assert_true(fig(s, "n_Rmdir") > 0);
    assert_int_equal(fig(s, "unexpected"), 0);
    finish_dir(dir);
    unlink(lf);

    /* Timestamps pace the loop as in dbench: a Close due 0.4 s into the loop lets a
     * client finish at most three loops in one second (thousands without the wait). */
    snprintf(lf, sizeof lf, "/var/tmp/sbfsload.XXXXXX");
    fd = mkstemp(lf);
    assert_true(fd >= 0);
    text = "0.0 NTCreateX \"\\clients\\client1\\f\" 0x0 0x5 7 NT_STATUS_OK\n"
           "0.4 Close 7 NT_STATUS_OK\n";
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    snprintf(opt, sizeof opt, "loadfile=%s", lf);
    assert_int_equal(run_wl(&sb_wl_dbench, s, dir, sizeof dir, err, "clients=1", "time=1", "warmup=0", opt, NULL), 0);
    assert_true(fig(s, "n_Close") >= 1 && fig(s, "n_Close") <= 3);
    finish_dir(dir);
    unlink(lf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cb_tree_statistics),
        cmocka_unit_test(test_cb_tree_deterministic),
        cmocka_unit_test(test_cb_tree_walk_order),
        cmocka_unit_test(test_db_parse),
        cmocka_unit_test(test_db_replay),
        cmocka_unit_test(test_db_generate_mix),
        cmocka_unit_test(test_fsmark_tiny),
        cmocka_unit_test(test_postmark_tiny),
        cmocka_unit_test(test_compilebench_tiny),
        cmocka_unit_test(test_dbench_tiny),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
