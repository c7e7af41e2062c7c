/* Unit tests for the durability test (src/workloads/durability*.c, writelog.c):
 * the write log's format (a log storbench writes reads back entry by entry; a log
 * laid out by hand as the kernel's dm-log-writes writes it, 4 KiB sectors, is read
 * and replayed); the power-cut rule (writes before the last FLUSH are kept, FUA
 * writes after it too, nothing else; a FLUSH entry's own data only with FUA;
 * discards read as zeros); and the workload itself at a small scale on this
 * machine's recorder: ext4 and btrfs with default options lose no acknowledged
 * write at any cut point, the same with nobarrier lose them, and the run leaves
 * nothing behind. Without root, loop devices or FUSE the workload tests are
 * skipped with one line. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#define SCRATCH_TEMPLATE "/var/tmp/sbdurability.XXXXXX"
#include "scratch_dir.h"
#include "workloads/durability/durability_stack.h"
#include "workloads/workload.h"
#include "workloads/durability/writelog.h"

extern const sb_workload sb_wl_durability;

static void path_in(char *out, size_t len, const char *name) { snprintf(out, len, "%s/%s", dir, name); }

static void sectors(char *buf, char c, size_t n) { memset(buf, c, n * 512); }

static char byte_at(int fd, uint64_t off)
{
    char c = 0;
    assert_int_equal(pread(fd, &c, 1, (off_t)off), 1);
    return c;
}

/* The image after a cut before entry `upto`: sector k holds what byte_at reads. */
static int replayed(const writelog *lg, uint64_t upto, const char *img)
{
    int fd = open(img, O_RDWR | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, 16 * 512), 0);
    char err[256];
    assert_true(writelog_replay(lg, upto, fd, err, sizeof err) >= 0);
    return fd;
}

static void test_log_roundtrip_and_cut_rule(void **state)
{
    char logp[300], img[300], err[256], data[4 * 512];
    path_in(logp, sizeof logp, "log");
    path_in(img, sizeof img, "img");
    writelog_writer w;
    assert_int_equal(writelog_create(&w, logp), 0);
    sectors(data, 'a', 2);
    assert_int_equal(writelog_append(&w, 0, 2, 0, data, 0), 0);                 /* 0: a at 0-1 */
    assert_int_equal(writelog_append(&w, 0, 0, WRITELOG_FLUSH, NULL, 0), 0);     /* 1: flush */
    sectors(data, 'b', 1);
    assert_int_equal(writelog_append(&w, 4, 1, 0, data, 0), 0);                 /* 2: b at 4 */
    sectors(data, 'c', 1);
    assert_int_equal(writelog_append(&w, 6, 1, WRITELOG_FUA, data, 0), 0);      /* 3: c at 6, FUA */
    assert_int_equal(writelog_append(&w, 0, 0, WRITELOG_MARK, "ack 1", 5), 0);  /* 4: mark */
    sectors(data, 'd', 1);
    assert_int_equal(writelog_append(&w, 8, 1, WRITELOG_FLUSH, data, 0), 0);    /* 5: flush + d at 8 */
    assert_int_equal(writelog_append(&w, 0, 1, WRITELOG_DISCARD, NULL, 0), 0);  /* 6: discard 0 */
    assert_int_equal(writelog_append(&w, 0, 0, WRITELOG_FLUSH, NULL, 0), 0);     /* 7: flush */
    assert_int_equal(writelog_close(&w), 0);

    writelog lg;
    assert_int_equal(writelog_open(&lg, logp, err, sizeof err), 0);
    assert_int_equal(lg.n, 8);
    assert_int_equal(lg.e[2].sector, 4);
    assert_int_equal(lg.e[3].flags, WRITELOG_FUA);
    assert_int_equal(writelog_find_mark(&lg, "ack 1"), 4);
    assert_int_equal(writelog_find_mark(&lg, "ack 2"), -1);

    /* before the first flush: nothing was obliged to be kept */
    int fd = replayed(&lg, 1, img);
    assert_int_equal(byte_at(fd, 0), 0);
    close(fd);
    /* after the flush and the FUA: a (flushed) and c (FUA) kept, b (cached) not */
    fd = replayed(&lg, 5, img);
    assert_int_equal(byte_at(fd, 0), 'a');
    assert_int_equal(byte_at(fd, 4 * 512), 0);
    assert_int_equal(byte_at(fd, 6 * 512), 'c');
    close(fd);
    /* after the second flush: b kept; d is the flush's own data (after the flush): not */
    fd = replayed(&lg, 6, img);
    assert_int_equal(byte_at(fd, 4 * 512), 'b');
    assert_int_equal(byte_at(fd, 8 * 512), 0);
    close(fd);
    /* after the last flush: d kept, the discard reads as zeros */
    fd = replayed(&lg, 8, img);
    assert_int_equal(byte_at(fd, 8 * 512), 'd');
    assert_int_equal(byte_at(fd, 0), 0);
    close(fd);
    writelog_free(&lg);
}

/* A log laid out as the kernel writes it with a 4 KiB log sector: super block,
 * entries one sector each, data in sectors of 4 KiB. */
static void test_kernel_layout(void **state)
{
    char logp[300], img[300], err[256];
    path_in(logp, sizeof logp, "klog");
    path_in(img, sizeof img, "img");
    const uint32_t ss = 4096;
    char *buf = calloc(1, 5 * ss);
    uint64_t super[3] = {WRITELOG_MAGIC, 1, 3};
    memcpy(buf, super, sizeof super);
    memcpy(buf + 24, &ss, 4);
    uint64_t e0[4] = {1, 1, 0, 0}; /* write: sector 1 (4 KiB units), one sector */
    memcpy(buf + ss, e0, sizeof e0);
    memset(buf + 2 * ss, 'k', ss);
    uint64_t e1[4] = {0, 0, WRITELOG_MARK, 4};
    memcpy(buf + 3 * ss, e1, sizeof e1);
    memcpy(buf + 3 * ss + 32, "mkfs", 4);
    uint64_t e2[4] = {0, 0, WRITELOG_FLUSH, 0};
    memcpy(buf + 4 * ss, e2, sizeof e2);
    FILE *f = fopen(logp, "w");
    assert_int_equal(fwrite(buf, 1, 5 * ss, f), 5 * ss);
    fclose(f);
    writelog lg;
    assert_int_equal(writelog_open(&lg, logp, err, sizeof err), 0);
    assert_int_equal(lg.sectorsize, 4096);
    assert_int_equal(writelog_find_mark(&lg, "mkfs"), 1);
    int fd = open(img, O_RDWR | O_CREAT | O_TRUNC, 0600);
    assert_int_equal(ftruncate(fd, 3 * ss), 0);
    assert_int_equal(writelog_replay(&lg, 3, fd, err, sizeof err), 1);
    assert_int_equal(byte_at(fd, ss), 'k');
    close(fd);
    writelog_free(&lg);
    /* not a log, and a log cut short */
    buf[0] ^= 1;
    f = fopen(logp, "w");
    fwrite(buf, 1, 5 * ss, f);
    fclose(f);
    assert_int_equal(writelog_open(&lg, logp, err, sizeof err), -EILSEQ);
    assert_non_null(strstr(err, "not a dm-log-writes log"));
    buf[0] ^= 1;
    f = fopen(logp, "w");
    fwrite(buf, 1, 4 * ss, f);
    fclose(f);
    assert_int_equal(writelog_open(&lg, logp, err, sizeof err), -EILSEQ);
    assert_non_null(strstr(err, "cut short"));
    free(buf);
    unlink(logp);
    unlink(img);
}

/* ---- the workload, small scale ---- */

static int run_wl(const char *fs, const char *opts, sb_sample *s, sb_run_ctx *ctx, sb_config *cfg)
{
    char err[256];
    sb_config_init(cfg, &sb_wl_durability, true);
    assert_int_equal(sb_config_set(cfg, "fs", fs, err, sizeof err), 0);
    assert_int_equal(sb_config_set(cfg, "mount-options", opts, err, sizeof err), 0);
    assert_int_equal(sb_config_set(cfg, "writes", "24", err, sizeof err), 0);
    assert_int_equal(sb_config_set(cfg, "cuts", "6", err, sizeof err), 0);
    assert_int_equal(sb_config_resolve(cfg, err, sizeof err), 0);
    memset(ctx, 0, sizeof *ctx);
    ctx->dir = dir;
    ctx->target = "/var/tmp";
    ctx->cfg = cfg;
    ctx->run_count = 1;
    memset(s, 0, sizeof *s);
    return sb_wl_durability.run(ctx, sb_config_params(cfg), s);
}

static double fig(const sb_sample *s, const char *name)
{
    const sb_figure *f = sb_sample_figure(s, name);
    assert_non_null(f);
    return f->value;
}

static void safe_and_unsafe(const char *fs)
{
    char why[200];
    dur_rec_probe(DUR_REC_FUSE, why, sizeof why);
    if (why[0]) {
        printf("# skipped: durability on %s: %s\n", fs, why);
        skip();
    }
    sb_sample s;
    sb_run_ctx ctx;
    sb_config cfg;
    int rc = run_wl(fs, "defaults", &s, &ctx, &cfg);
    if (rc == -ENOTSUP) {
        printf("# skipped: %s\n", ctx.err);
        skip();
    }
    if (rc != 0) /* the run's one line: why (CI once saw -EIO on btrfs, not seen again) */
        printf("# durability on %s: %s\n", fs, ctx.err);
    assert_int_equal(rc, 0);
    assert_true(s.valid);
    assert_true(fig(&s, "cut_points") >= 6);
    assert_true(fig(&s, "acked_checked") > 0);
    assert_true(fig(&s, "acked_lost") == 0 && fig(&s, "torn") == 0);
    assert_true(s.value == 0);
    assert_int_equal(entries(dir), 0);
    /* no flushes: acknowledged writes are lost at every cut */
    assert_int_equal(run_wl(fs, "nobarrier", &s, &ctx, &cfg), 0);
    assert_true(fig(&s, "acked_lost") > 0);
    assert_true(s.value > 0);
    assert_int_equal(entries(dir), 0);
}

static void test_ext4(void **state) { safe_and_unsafe("ext4"); }
static void test_btrfs(void **state) { safe_and_unsafe("btrfs"); }

static void test_bad_options(void **state)
{
    sb_config cfg;
    char err[256];
    sb_config_init(&cfg, &sb_wl_durability, false);
    assert_int_equal(sb_config_set(&cfg, "mount-options", "a b", err, sizeof err), 0);
    assert_int_equal(sb_config_resolve(&cfg, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "mount-options"));
    sb_config_init(&cfg, &sb_wl_durability, false);
    assert_int_equal(sb_config_set(&cfg, "writes", "0", err, sizeof err), 0);
    assert_int_equal(sb_config_resolve(&cfg, err, sizeof err), -EINVAL);
    assert_int_equal(sb_config_set(&cfg, "fs", "ntfs", err, sizeof err), -EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_log_roundtrip_and_cut_rule, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kernel_layout, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ext4, setup, teardown),
        cmocka_unit_test_setup_teardown(test_btrfs, setup, teardown),
        cmocka_unit_test(test_bad_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
