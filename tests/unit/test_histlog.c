/* Unit tests for fio's log files as io/log writes them, on synthetic clocks (nothing here
 * depends on timing): fio's latency bins (histlog.h) and their bounds; the histogram log's
 * windows (a line per direction by the first I/O at or past the window's end, the next
 * window where this one should have ended, the unfinished last window left out, the
 * columns of a coarseness); averaged lines (iolog.c) with log_max_value and the
 * bwavgtime samples they are made of. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/workdir.h"
#include "io/job.h"
#include "io/log/histlog.h"
#include "io/log/iolog.h"

#define MS 1000000ull

static char dir[64]; /* the scratch directory, short enough for the job's 128-byte prefixes */

static int setup(void **state)
{
    snprintf(dir, sizeof dir, "/var/tmp/sb-histlog.XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    sb_remove_tree(dir);
    return 0;
}

static void test_bins(void **state)
{
    for (unsigned v = 0; v < 128; v++)
        assert_int_equal(sb_histlog_bin(v), v);
    assert_int_equal(sb_histlog_bin(128), 128);
    assert_int_equal(sb_histlog_bin(129), 128);  /* 2 ns bins from 128 */
    assert_int_equal(sb_histlog_bin(255), 191);
    assert_int_equal(sb_histlog_bin(256), 192);
    assert_int_equal(sb_histlog_bin(UINT64_MAX), SB_HISTLOG_BINS - 1);
    /* every bin holds exactly the values from its low bound to the next one's */
    for (unsigned b = 0; b + 1 < SB_HISTLOG_BINS; b++) {
        uint64_t lo = sb_histlog_bin_low(b), hi = sb_histlog_bin_low(b + 1);
        assert_true(hi > lo);
        assert_int_equal(sb_histlog_bin(lo), b);
        assert_int_equal(sb_histlog_bin(hi - 1), b);
    }
}

/* The file's lines: time, ddir, bs, the line's I/Os, its first and last column with I/Os
 * (histogram log; the value for the others is field 1); returns the line count. */
static unsigned read_lines(const char *path, uint64_t f[][8], unsigned nf[], unsigned max_lines)
{
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    static char line[1 << 16];
    unsigned n = 0;
    while (n < max_lines && fgets(line, sizeof line, fp)) {
        unsigned k = 0;
        uint64_t sum = 0;
        for (char *p = strtok(line, ","); p; p = strtok(NULL, ","), k++) {
            uint64_t v = strtoull(p, NULL, 10);
            if (k < 3) {
                f[n][k] = v;
            } else if (v) {
                if (!sum)
                    f[n][4] = k - 3; /* the first column with I/Os */
                f[n][5] = k - 3;     /* the last */
                sum += v;
            }
        }
        f[n][3] = sum;  /* the line's I/Os */
        nf[n++] = k;
    }
    fclose(fp);
    return n;
}

static void test_hist_windows(void **state)
{
    static sb_io_job job;
    sb_io_job_init(&job);
    snprintf(job.hist_log, sizeof job.hist_log, "%s/h", dir);
    job.log_hist_ms = 100;
    job.log_hist_coarseness = 2;
    sb_iolog *l;
    char err[256];
    assert_int_equal(sb_iolog_open(&job, 0, &l, err, sizeof err), 0);
    /* reads from 5 ms, one every 10 ms; a write at 50 ms and one at 400 ms */
    for (uint64_t t = 5; t < 330; t += 10)
        sb_iolog_add(l, t * MS, 1000000, 1000 + t, 0, 4096, 0); /* the histogram is of clat */
    sb_iolog_add(l, 50 * MS, 300, 300, 1, 8192, 0);
    sb_iolog_add(l, 400 * MS, 300, 300, 1, 512, 0);
    assert_int_equal(sb_iolog_close(l, 400 * MS), 0);
    char path[512];
    snprintf(path, sizeof path, "%s/h_clat_hist.1.log", dir);
    uint64_t f[8][8];
    unsigned nf[8];
    unsigned n = read_lines(path, f, nf, 8);
    /* reads: windows from 5 ms: lines at 105 (11 I/Os), 205 (10), 305 (10); 315 and 325
     * are the unfinished window's. The write: its window starts at 50, the I/O at 400
     * ends it (both I/Os) */
    assert_int_equal(n, 4);
    uint64_t want[4][4] = {{105, 0, 4096, 11}, {205, 0, 4096, 10}, {305, 0, 4096, 10}, {400, 1, 512, 2}};
    /* the reads' clat (1005 .. 1325 ns) lies in fio's bins 317 .. 338: columns 79 .. 84 */
    assert_int_equal(sb_histlog_bin(1005) / 4, 79);
    assert_int_equal(sb_histlog_bin(1325) / 4, 84);
    for (unsigned i = 0; i < n; i++) {
        assert_int_equal(nf[i], 3 + SB_HISTLOG_BINS / 4);
        for (int k = 0; k < 4; k++)
            assert_int_equal(f[i][k], want[i][k]);
        /* the reads' in columns 79 .. 84; the write's 300 ns in bin 203, column 50 */
        assert_true(f[i][4] >= (i < 3 ? 79 : 50) && f[i][5] <= (i < 3 ? 84 : 50));
    }
}

/* Averaged lines: latency mean or max of the window's I/Os; bandwidth (KiB/s) from the
 * bwavgtime samples that ended in it. */
static void averaged(bool log_max, uint64_t *lat, uint64_t *clat, uint64_t *bw, unsigned *nbw)
{
    static sb_io_job job;
    sb_io_job_init(&job);
    snprintf(job.lat_log, sizeof job.lat_log, "%s/a%d", dir, log_max);
    snprintf(job.bw_log, sizeof job.bw_log, "%s/a%d", dir, log_max);
    job.log_avg_ms = 1000;
    job.bw_avg_ms = 500;
    job.log_max = log_max;
    sb_iolog *l;
    char err[256];
    assert_int_equal(sb_iolog_open(&job, 0, &l, err, sizeof err), 0);
    /* first half second: 100 I/Os of 1 KiB, latency 10 us; second: 300, latency 20 us */
    for (unsigned i = 0; i < 100; i++)
        sb_iolog_add(l, (uint64_t)i * 5 * MS, 10000, 5000, 0, 1024, 0);
    for (unsigned i = 0; i < 300; i++)
        sb_iolog_add(l, 500 * MS + (uint64_t)i * 5 * MS / 3, 20000, 15000, 0, 1024, 0);
    sb_iolog_add(l, 1001 * MS, 20000, 15000, 0, 1024, 0); /* closes the first window */
    assert_int_equal(sb_iolog_close(l, 1001 * MS), 0);
    char path[512];
    uint64_t f[8][8];
    unsigned nf[8];
    snprintf(path, sizeof path, "%s/a%d_lat.1.log", dir, log_max);
    assert_true(read_lines(path, f, nf, 8) >= 1);
    *lat = f[0][1];
    snprintf(path, sizeof path, "%s/a%d_clat.1.log", dir, log_max);
    assert_true(read_lines(path, f, nf, 8) >= 1);
    *clat = f[0][1];
    snprintf(path, sizeof path, "%s/a%d_bw.1.log", dir, log_max);
    *nbw = read_lines(path, f, nf, 8);
    *bw = f[0][1];
    assert_int_equal(f[0][0], 1000);
}

static void test_averaged_lines(void **state)
{
    uint64_t lat, clat, bw;
    unsigned nbw;
    averaged(false, &lat, &clat, &bw, &nbw);
    assert_int_equal(lat, 17500);  /* (100 x 10 us + 300 x 20 us) / 400 */
    assert_int_equal(clat, 12500); /* (100 x 5 us + 300 x 15 us) / 400 */
    assert_int_equal(bw, 400);     /* samples 200 and 600 KiB/s, their mean */
    assert_int_equal(nbw, 1);      /* the unfinished window has no sample */
    averaged(true, &lat, &clat, &bw, &nbw);
    assert_int_equal(lat, 20000);
    assert_int_equal(clat, 15000);
    assert_int_equal(bw, 600);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bins),
        cmocka_unit_test(test_hist_windows),
        cmocka_unit_test(test_averaged_lines),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
