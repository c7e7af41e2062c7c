/* Unit tests for the I/O engine (src/io): the offset permutation visits every
 * block once per pass; every engine reads back what it wrote (checked against
 * the verify pattern with an independent pread checksum, and a corrupted block
 * is caught); job checks give one clear line for bad input; the statistics of
 * a run add up (histogram counts = I/Os, bytes = I/Os x bs, rwmix extremes);
 * every batching of submission and reaping moves every block once; CPU lists
 * (cpus_allowed) parse, refuse and place threads, and a run reports the CPU it
 * cost over exactly the I/Os it counted; the synchronous engines' threads keep
 * descriptor tables of their own that hold nothing of the process's but the job's
 * file. */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/cpuset.h"
#include "io/engine.h"
#include "io/job.h"
#include "io/loop/offsets.h"

static char tmpdir[256];

static int setup(void **state)
{
    snprintf(tmpdir, sizeof tmpdir, "/var/tmp/sbiotest.XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* ------------------------------------------------------------ offsets */

static void check_pass(uint64_t n, bool random)
{
    sb_offgen g;
    sb_offgen_init(&g, n, random, false, 42);
    for (int pass = 0; pass < 3; pass++) {
        unsigned char *seen = calloc(n, 1);
        bool done = false;
        uint64_t in_order = 0;
        for (uint64_t i = 0; i < n; i++) {
            assert_false(done);
            uint64_t b = sb_offgen_next(&g, &done);
            assert_true(b < n);
            assert_int_equal(seen[b], 0);
            seen[b] = 1;
            in_order += b == i;
        }
        assert_true(done);
        if (!random)
            assert_int_equal(in_order, n);
        else if (n >= 1000)
            assert_true(in_order < n / 10); /* a permutation, not the identity */
        free(seen);
    }
}

static void test_offsets_every_block_once(void **state)
{
    uint64_t sizes[] = {1, 2, 3, 5, 7, 16, 17, 1000, 4097, 65536, 100003};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        check_pass(sizes[i], true);
        check_pass(sizes[i], false);
    }
}

static void test_offsets_passes_differ_and_seed_repeats(void **state)
{
    const uint64_t n = 5000;
    sb_offgen a, b, c;
    sb_offgen_init(&a, n, true, false, 7);
    sb_offgen_init(&b, n, true, false, 7);
    sb_offgen_init(&c, n, true, false, 8);
    uint64_t *p1 = malloc(n * sizeof *p1);
    bool done;
    uint64_t same_seed_diff = 0, other_seed_same = 0, pass2_same = 0;
    for (uint64_t i = 0; i < n; i++) {
        p1[i] = sb_offgen_next(&a, &done);
        same_seed_diff += p1[i] != sb_offgen_next(&b, &done);
        other_seed_same += p1[i] == sb_offgen_next(&c, &done);
    }
    for (uint64_t i = 0; i < n; i++)
        pass2_same += p1[i] == sb_offgen_next(&a, &done);
    assert_int_equal(same_seed_diff, 0);
    assert_true(other_seed_same < n / 10);
    assert_true(pass2_same < n / 10);
    free(p1);
}

static void test_offsets_norandommap_uniform(void **state)
{
    const uint64_t n = 16;
    sb_offgen g;
    sb_offgen_init(&g, n, true, true, 3);
    unsigned counts[16] = {0};
    bool done;
    for (int i = 0; i < 160000; i++) {
        uint64_t b = sb_offgen_next(&g, &done);
        assert_true(b < n);
        counts[b]++;
    }
    for (int i = 0; i < 16; i++)
        assert_true(counts[i] > 9000 && counts[i] < 11000);
}

/* Consecutive blocks of a pass are as far apart as independent draws: mean distance
 * n/3, neighbours (within 16 blocks) and equal parity at chance — no sequence a
 * device or read-ahead could exploit. */
static void test_offsets_spread(void **state)
{
    const uint64_t sizes[] = {1000, 65536, 100003};
    for (size_t k = 0; k < 3; k++) {
        uint64_t n = sizes[k], prev = 0, near = 0, same_parity = 0;
        double dist = 0;
        sb_offgen g;
        sb_offgen_init(&g, n, true, false, 11 + k);
        bool done;
        for (uint64_t i = 0; i < n; i++) {
            uint64_t b = sb_offgen_next(&g, &done);
            if (i) {
                uint64_t d = b > prev ? b - prev : prev - b;
                dist += (double)d;
                near += d <= 16;
                same_parity += (b & 1) == (prev & 1);
            }
            prev = b;
        }
        double mean = dist / (double)(n - 1) / (double)n;
        assert_true(mean > 0.30 && mean < 0.37);
        assert_true(near < 4 * 33 * (n - 1) / n + 8);
        assert_true(same_parity > (n - 1) * 40 / 100 && same_parity < (n - 1) * 60 / 100);
    }
}

/* ------------------------------------------------------------ engines */

static void job_for(sb_io_job *job, const char *engine, sb_rw rw, const char *file)
{
    sb_io_job_init(job);
    job->rw = rw;
    job->bs = 4096;
    job->size = 512 * 1024;
    job->iodepth = 8;
    job->verify_pattern = true;
    job->seed = 99;
    snprintf(job->engine, sizeof job->engine, "%s", engine);
    snprintf(job->filename, sizeof job->filename, "%s", file);
}

static uint64_t fnv(const unsigned char *p, size_t n, uint64_t h)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static void check_file_holds_pattern(const char *file, uint64_t size, uint64_t seed)
{
    int fd = open(file, O_RDONLY);
    assert_true(fd >= 0);
    unsigned char *got = malloc(size), *want = malloc(size);
    assert_int_equal(pread(fd, got, size, 0), (ssize_t)size);
    close(fd);
    sb_io_pattern_fill(want, 0, (uint32_t)size, seed);
    assert_int_equal(fnv(got, size, 0xcbf29ce484222325ull), fnv(want, size, 0xcbf29ce484222325ull));
    free(got);
    free(want);
}

static void test_engines_read_back(void **state)
{
    static sb_io_job job;
    static sb_io_result res;
    char err[512];
    int tested = 0;
    for (size_t i = 0; i < sb_engine_count(); i++) {
        const sb_engine_ops *ops = sb_engine_at(i);
        if (ops->probe && ops->probe() < 0) {
            print_message("engine %s does not work here, skipped\n", ops->name);
            continue;
        }
        if (ops == &sb_engine_null || (ops->caps & SB_ENGINE_NO_DATA)) /* nothing to read back */
            continue;
        if (ops->caps & SB_ENGINE_SCSI) /* a SCSI device, not a file (test_fio_engines.sh) */
            continue;
        for (int direct = 0; direct < 2; direct++) {
            if (direct && ops == &sb_engine_mmap)
                continue;
            char file[300];
            snprintf(file, sizeof file, "%s/rb-%s-%d", tmpdir, ops->name, direct);
            /* write every block once, in random order */
            job_for(&job, ops->name, SB_RW_RANDWRITE, file);
            job.direct = direct;
            job.end_fsync = true;
            int rc = sb_io_run(&job, &res, err, sizeof err);
            if (rc)
                print_message("%s: %s\n", ops->name, err);
            assert_int_equal(rc, 0);
            assert_int_equal(res.dir[SB_DDIR_WRITE].ios, job.size / job.bs);
            assert_int_equal(res.dir[SB_DDIR_WRITE].bytes, job.size);
            assert_int_equal(res.dir[SB_DDIR_WRITE].clat.count, job.size / job.bs);
            assert_int_equal(res.dir[SB_DDIR_READ].ios, 0);
            sb_io_result_free(&res);
            check_file_holds_pattern(file, job.size, job.seed);
            /* read it back with the same engine, checking every block */
            job_for(&job, ops->name, SB_RW_RANDREAD, file);
            job.direct = direct;
            rc = sb_io_run(&job, &res, err, sizeof err);
            if (rc)
                print_message("%s: %s\n", ops->name, err);
            assert_int_equal(rc, 0);
            assert_int_equal(res.dir[SB_DDIR_READ].ios, job.size / job.bs);
            sb_io_result_free(&res);
            /* a corrupted block is noticed */
            int fd = open(file, O_WRONLY);
            assert_int_equal(pwrite(fd, "XXXXXXXX", 8, 40960 + 16), 8);
            close(fd);
            rc = sb_io_run(&job, &res, err, sizeof err);
            assert_int_equal(rc, -EILSEQ);
            assert_non_null(strstr(err, "40976"));
            unlink(file);
            tested++;
        }
    }
    assert_true(tested >= 5);
}

/* ------------------------------------------------------------ bad input */

static void test_bad_input(void **state)
{
    static sb_io_job job;
    static sb_io_result res;
    char err[512], warn[256], file[300];
    snprintf(file, sizeof file, "%s/bad", tmpdir);

    job_for(&job, "nosuch", SB_RW_READ, file);
    assert_int_equal(sb_io_job_check(&job, err, sizeof err, warn, sizeof warn), -EINVAL);
    assert_non_null(strstr(err, "nosuch"));
    assert_non_null(strstr(err, "psync"));
    assert_null(strchr(err, '\n'));

    job_for(&job, "psync", SB_RW_READ, file);
    job.iodepth = 4;
    assert_int_equal(sb_io_job_check(&job, err, sizeof err, warn, sizeof warn), 0);
    assert_non_null(strstr(warn, "iodepth 4"));

    job_for(&job, "libaio", SB_RW_READ, file);
    job.iodepth = 4;
    assert_int_equal(sb_io_job_check(&job, err, sizeof err, warn, sizeof warn), 0);
    assert_string_equal(warn, "");

    job_for(&job, "psync", SB_RW_READ, file);
    job.bs = 100; /* through the page cache any size, as fio's bs=448 */
    assert_int_equal(sb_io_job_check(&job, err, sizeof err, warn, sizeof warn), 0);
    job.bs = 0;
    assert_int_equal(sb_io_job_check(&job, err, sizeof err, warn, sizeof warn), -EINVAL);
    job.bs = 128ull << 20; /* one block size: up to what one read or write moves, as fio's */
    assert_int_equal(sb_io_job_check(&job, err, sizeof err, warn, sizeof warn), 0);
    job.bs = 3ull << 30;
    assert_int_equal(sb_io_job_check(&job, err, sizeof err, warn, sizeof warn), -EINVAL);
    job.bs = 4096;
    job.iodepth = 70000; /* above 65536 (fio has no bound at 1024: 2000 is fine) */
    assert_int_equal(sb_io_job_check(&job, err, sizeof err, warn, sizeof warn), -EINVAL);

    job_for(&job, "libaio", SB_RW_READ, file);
    job.batch_complete_min = 4;
    job.batch_complete_max = 2;
    assert_int_equal(sb_io_job_check(&job, err, sizeof err, warn, sizeof warn), -EINVAL);
    assert_non_null(strstr(err, "iodepth_batch_complete_max"));
    job.batch_complete_max = 0;
    job.batch_submit = 70000;
    assert_int_equal(sb_io_job_check(&job, err, sizeof err, warn, sizeof warn), -EINVAL);

    job_for(&job, "mmap", SB_RW_READ, file);
    job.direct = true; /* as fio: opened O_DIRECT and mapped, with a warning */
    warn[0] = '\0';
    assert_int_equal(sb_io_job_check(&job, err, sizeof err, warn, sizeof warn), 0);
    assert_non_null(strstr(warn, "page cache"));
    job.direct = false;

    /* bs not a multiple of the logical block size with O_DIRECT */
    job_for(&job, "psync", SB_RW_WRITE, file);
    job.direct = true;
    job.bs = 4096 + 100;
    job.size = job.bs * 4;
    job.verify_pattern = false;
    assert_int_equal(sb_io_run(&job, &res, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "logical block size"));

    /* a read job on a file shorter than size */
    int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_int_equal(ftruncate(fd, 8192), 0);
    close(fd);
    job_for(&job, "psync", SB_RW_READ, file);
    assert_int_equal(sb_io_run(&job, &res, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "shorter"));
    unlink(file);

    /* more than the free space */
    job_for(&job, "psync", SB_RW_WRITE, file);
    job.size = 1ull << 60;
    assert_int_equal(sb_io_run(&job, &res, err, sizeof err), -ENOSPC);
    assert_non_null(strstr(err, "free"));
    assert_int_equal(access(file, F_OK), -1);
}

/* ------------------------------------------------------------ job behaviour */

static void test_mix_and_numjobs(void **state)
{
    static sb_io_job job;
    static sb_io_result res;
    char err[512];
    sb_io_job_init(&job);
    job.rw = SB_RW_RANDRW;
    job.bs = 4096;
    job.size = 256 * 1024;
    job.numjobs = 3;
    snprintf(job.directory, sizeof job.directory, "%s", tmpdir);
    unsigned mixes[] = {0, 100, 50};
    for (int i = 0; i < 3; i++) {
        job.rwmixread = mixes[i];
        assert_int_equal(sb_io_run(&job, &res, err, sizeof err), 0);
        uint64_t all = res.dir[0].ios + res.dir[1].ios;
        assert_int_equal(all, 3 * job.size / job.bs);
        assert_int_equal(res.clat_all.count, all);
        if (mixes[i] == 0)
            assert_int_equal(res.dir[SB_DDIR_READ].ios, 0);
        else if (mixes[i] == 100)
            assert_int_equal(res.dir[SB_DDIR_WRITE].ios, 0);
        else
            assert_true(res.dir[0].ios > all / 4 && res.dir[1].ios > all / 4);
        sb_io_result_free(&res);
    }
    /* the per-job files are removed */
    char path[400];
    snprintf(path, sizeof path, "%s/storbench-io.0", tmpdir);
    assert_int_equal(access(path, F_OK), -1);
}

/* CPU lists as fio's cpus_allowed: parsed, refused with one line, formatted back;
 * a job placed on them (shared and split) moves every block once and reports its
 * CPU time and the I/Os it covers (no ramp: the I/Os counted). */
static void test_cpu_placement_and_cost(void **state)
{
    static sb_io_job job;
    static sb_io_result res;
    char err[512], list[64];
    cpu_set_t set, allowed;
    assert_int_equal(sched_getaffinity(0, sizeof allowed, &allowed), 0);
    int first = sb_cpuset_nth(&allowed, 0);
    assert_true(first >= 0);
    char one[16];
    snprintf(one, sizeof one, "%d", first);
    assert_int_equal(sb_cpuset_parse(one, &set, err, sizeof err), 0);
    assert_int_equal(CPU_COUNT(&set), 1);
    assert_int_equal(sb_cpuset_nth(&set, 5), first);
    const char *bad[] = {"", "x", "1-", "3-1", "0,,1", "1,", "-1", "99999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(sb_cpuset_parse(bad[i], &set, err, sizeof err), -EINVAL);
        assert_null(strchr(err, '\n'));
    }
    assert_int_equal(sb_cpuset_parse("1023", &set, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "not available"));
    CPU_ZERO(&set);
    CPU_SET(0, &set); CPU_SET(1, &set); CPU_SET(2, &set); CPU_SET(5, &set);
    sb_cpuset_format(&set, list, sizeof list);
    assert_string_equal(list, "0-2,5");
    assert_int_equal(sb_cpuset_nth(&set, 3), 5);
    assert_int_equal(sb_cpuset_nth(&set, 4), 0);

    for (int split = 0; split < 2; split++) {
        char file[300];
        snprintf(file, sizeof file, "%s/cpus-%d", tmpdir, split);
        job_for(&job, "psync", SB_RW_RANDWRITE, file);
        job.numjobs = 3;
        job.cpus_allowed_set = true;
        job.cpus_allowed = allowed;
        job.cpus_split = split;
        assert_int_equal(sb_io_run(&job, &res, err, sizeof err), 0);
        assert_int_equal(res.dir[SB_DDIR_WRITE].ios, 3 * job.size / job.bs);
        assert_int_equal(res.cpu_ios, res.dir[SB_DDIR_WRITE].ios);
        assert_true(res.cpu_user_s >= 0 && res.cpu_sys_s >= 0 && res.cpu_wall_s > 0);
        sb_io_result_free(&res);
        check_file_holds_pattern(file, job.size, job.seed);
        unlink(file);
    }
}

static void test_fsync_every(void **state)
{
    static sb_io_job job;
    static sb_io_result res;
    char err[512];
    const char *engines[] = {"psync", "libaio", "io_uring", "posixaio"};
    for (int i = 0; i < 4; i++) {
        const sb_engine_ops *ops = sb_engine_find(engines[i]);
        if (ops->probe && ops->probe() < 0)
            continue;
        char file[300];
        snprintf(file, sizeof file, "%s/fs-%s", tmpdir, engines[i]);
        job_for(&job, engines[i], SB_RW_WRITE, file);
        job.fsync_every = 5;
        job.end_fsync = true;
        assert_int_equal(sb_io_run(&job, &res, err, sizeof err), 0);
        assert_int_equal(res.dir[SB_DDIR_WRITE].ios, job.size / job.bs);
        sb_io_result_free(&res);
        check_file_holds_pattern(file, job.size, job.seed);
        unlink(file);
    }
}

static void test_io_uring_registered(void **state)
{
    static sb_io_job job;
    static sb_io_result res;
    char err[512], file[300];
    if (sb_engine_io_uring.probe() < 0)
        skip();
    snprintf(file, sizeof file, "%s/reg", tmpdir);
    /* mode -1: the default (each used when the kernel accepts it); 0..3: required or off */
    for (int mode = -1; mode < 4; mode++) {
        for (int direct = 0; direct < 2; direct++) {
            job_for(&job, "io_uring", SB_RW_RANDWRITE, file);
            job.uring_fixed_files = mode < 0 ? -1 : mode & 1;
            job.uring_fixed_bufs = mode < 0 ? -1 : (mode & 2) != 0;
            job.direct = direct;
            job.end_fsync = true;
            assert_int_equal(sb_io_run(&job, &res, err, sizeof err), 0);
            if (mode >= 0) {
                assert_int_equal(res.uring_fixed_files, mode & 1);
                assert_int_equal(res.uring_fixed_bufs, (mode & 2) != 0);
            }
            sb_io_result_free(&res);
            check_file_holds_pattern(file, job.size, job.seed);
            job.rw = SB_RW_RANDREAD;
            assert_int_equal(sb_io_run(&job, &res, err, sizeof err), 0);
            assert_int_equal(res.dir[SB_DDIR_READ].ios, job.size / job.bs);
            assert_int_equal(res.dir[SB_DDIR_READ].bytes, job.size);
            sb_io_result_free(&res);
            unlink(file);
        }
    }
}

/* Every batching of submission and reaping moves every block once, and the data
 * read back is what was written (values above the depth act as the depth). */
static void test_batching(void **state)
{
    static sb_io_job job;
    static sb_io_result res;
    char err[512], file[300];
    const char *engines[] = {"libaio", "io_uring", "posixaio"};
    const unsigned sets[][3] = {{0, 0, 0}, {3, 2, 0}, {8, 8, 8}, {64, 5, 7}, {1, 1, 1000}};
    for (int e = 0; e < 3; e++) {
        const sb_engine_ops *ops = sb_engine_find(engines[e]);
        if (ops->probe && ops->probe() < 0)
            continue;
        for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
            snprintf(file, sizeof file, "%s/batch-%s-%zu", tmpdir, engines[e], i);
            job_for(&job, engines[e], SB_RW_RANDWRITE, file);
            job.direct = true;
            job.end_fsync = true;
            job.batch_submit = sets[i][0];
            job.batch_complete_min = sets[i][1];
            job.batch_complete_max = sets[i][2];
            int rc = sb_io_run(&job, &res, err, sizeof err);
            if (rc)
                print_message("%s %zu: %s\n", engines[e], i, err);
            assert_int_equal(rc, 0);
            assert_int_equal(res.dir[SB_DDIR_WRITE].ios, job.size / job.bs);
            assert_int_equal(res.dir[SB_DDIR_WRITE].clat.count, job.size / job.bs);
            sb_io_result_free(&res);
            check_file_holds_pattern(file, job.size, job.seed);
            job.rw = SB_RW_RANDREAD;
            assert_int_equal(sb_io_run(&job, &res, err, sizeof err), 0);
            assert_int_equal(res.dir[SB_DDIR_READ].ios, job.size / job.bs);
            sb_io_result_free(&res);
            unlink(file);
        }
    }
}

static bool stop_now(void *arg) { return true; }
/* true from the third call on: the control loop asks ~10 times a second */
/* Stops the job at the control loop's third look that comes 200 ms or more after its first
 * (its naps start at 1 ms): time for I/O past the first pass. */
typedef struct later {
    int calls;
    struct timespec t0;
} later;
static bool stop_later(void *arg)
{
    later *l = arg;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    if (!l->calls++)
        l->t0 = t;
    return l->calls >= 3 && (t.tv_sec - l->t0.tv_sec) * 1000 + (t.tv_nsec - l->t0.tv_nsec) / 1000000 >= 200;
}

static void test_time_based_and_interrupt(void **state)
{
    static sb_io_job job;
    static sb_io_result res;
    char err[512];
    sb_io_job_init(&job);
    job.rw = SB_RW_READ;
    job.size = 64 * 1024; /* many passes in the time given */
    job.runtime_s = 0.3;
    job.time_based = true;
    snprintf(job.engine, sizeof job.engine, "io_uring");
    if (sb_engine_io_uring.probe() < 0)
        snprintf(job.engine, sizeof job.engine, "libaio");
    job.iodepth = 4;
    snprintf(job.directory, sizeof job.directory, "%s", tmpdir);
    assert_int_equal(sb_io_run(&job, &res, err, sizeof err), 0);
    assert_true(res.dir[SB_DDIR_READ].ios > job.size / job.bs); /* more than one pass */
    assert_true(res.seconds > 0);
    assert_false(res.interrupted);
    sb_io_result_free(&res);

    job.runtime_s = 30;
    job.should_stop = stop_now;
    assert_int_equal(sb_io_run(&job, &res, err, sizeof err), 0);
    assert_true(res.interrupted);
    assert_true(res.seconds < 29);
    sb_io_result_free(&res);

    /* Interrupted with a deep queue, direct, on the engines that reap without a
     * syscall (the AIO ring, the CQ ring): the run returns only when every I/O in
     * flight is back (a lost one would leave the drain waiting), and every
     * completion counted is one that was measured or ramped. */
    const char *deep[] = {"libaio", "io_uring"};
    for (int e = 0; e < 2; e++) {
        const sb_engine_ops *ops = sb_engine_find(deep[e]);
        if (ops->probe && ops->probe() < 0)
            continue;
        snprintf(job.engine, sizeof job.engine, "%s", deep[e]);
        job.iodepth = 32;
        job.direct = true;
        job.size = 1 << 20;
        later calls = {0};
        job.should_stop = stop_later;
        job.cb_arg = &calls;
        assert_int_equal(sb_io_run(&job, &res, err, sizeof err), 0);
        assert_true(res.interrupted);
        assert_true(res.dir[SB_DDIR_READ].ios > 0);
        assert_int_equal(res.cpu_ios, res.dir[SB_DDIR_READ].ios);
        assert_int_equal(res.dir[SB_DDIR_READ].bytes, res.dir[SB_DDIR_READ].ios * job.bs);
        sb_io_result_free(&res);
    }
}

/* What the controlling thread sees of the threads' descriptor tables while a job runs:
 * a table without the test's pipe is a job thread's own (loop.c). */
typedef struct fd_probe {
    int pipe_w;
    int own_tables;   /* observations of a table of a thread's own */
    int most;         /* most descriptors seen in one */
} fd_probe;

static int count_fds(const char *dir, int fd, bool *has)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') {
            n++;
            *has |= atoi(e->d_name) == fd;
        }
    closedir(d);
    return n;
}

static bool probe_tables(void *arg)
{
    fd_probe *p = arg;
    DIR *t = opendir("/proc/self/task");
    assert_non_null(t);
    struct dirent *e;
    while ((e = readdir(t))) {
        if (e->d_name[0] == '.')
            continue;
        char path[300];
        snprintf(path, sizeof path, "/proc/self/task/%s/fd", e->d_name);
        bool has = false;
        int n = count_fds(path, p->pipe_w, &has);
        if (n >= 0 && !has) {
            p->own_tables++;
            if (n > p->most)
                p->most = n;
        }
    }
    closedir(t);
    return false;
}

/* psync's threads have descriptor tables of their own (loop.c, issue 16): while the
 * job runs, such a table holds the job's file and stdin/out/err only, not a pipe the
 * test opened; afterwards the test's table is as before, and the pipe's write end is
 * the only one left (closing it gives the reader EOF at once). The one-clock loop
 * moves every block of a pass once, and interrupted it counts exactly the I/Os it
 * did. */
static void test_sync_own_fd_table(void **state)
{
    static sb_io_job job;
    static sb_io_result res;
    char err[512], file[300];
    int p[2];
    snprintf(file, sizeof file, "%s/own-fd", tmpdir);
    job_for(&job, "psync", SB_RW_RANDWRITE, file);
    assert_int_equal(sb_io_run(&job, &res, err, sizeof err), 0); /* lay it out */
    sb_io_result_free(&res);
    assert_int_equal(pipe(p), 0);
    bool unused = false;
    int before = count_fds("/proc/self/fd", -1, &unused);

    fd_probe probe = {.pipe_w = p[1]};
    job_for(&job, "psync", SB_RW_RANDREAD, file);
    job.verify_pattern = false; /* the one-clock loop */
    job.numjobs = 2;
    job.runtime_s = 0.35;
    job.time_based = true;
    job.should_stop = probe_tables;
    job.cb_arg = &probe;
    assert_int_equal(sb_io_run(&job, &res, err, sizeof err), 0);
    assert_true(probe.own_tables >= 1);
    assert_true(probe.most <= 4);
    assert_int_equal(res.dir[SB_DDIR_READ].clat.count, res.dir[SB_DDIR_READ].ios);
    sb_io_result_free(&res);
    assert_int_equal(count_fds("/proc/self/fd", -1, &unused), before);
    assert_int_equal(write(p[1], "x", 1), 1);
    close(p[1]);
    char c;
    assert_int_equal(read(p[0], &c, 1), 1);
    assert_int_equal(read(p[0], &c, 1), 0); /* EOF: no other table holds the write end */
    close(p[0]);

    job.should_stop = NULL;
    job.time_based = false;
    job.runtime_s = 0;
    job.numjobs = 1;
    assert_int_equal(sb_io_run(&job, &res, err, sizeof err), 0);
    assert_int_equal(res.dir[SB_DDIR_READ].ios, job.size / job.bs);
    assert_int_equal(res.dir[SB_DDIR_READ].bytes, job.size);
    assert_int_equal(res.dir[SB_DDIR_READ].clat.count, job.size / job.bs);
    sb_io_result_free(&res);

    later calls = {0};
    job.time_based = true;
    job.runtime_s = 30;
    job.should_stop = stop_later;
    job.cb_arg = &calls;
    assert_int_equal(sb_io_run(&job, &res, err, sizeof err), 0);
    assert_true(res.interrupted);
    assert_true(res.dir[SB_DDIR_READ].ios > job.size / job.bs);
    assert_int_equal(res.cpu_ios, res.dir[SB_DDIR_READ].ios);
    assert_int_equal(res.dir[SB_DDIR_READ].bytes, res.dir[SB_DDIR_READ].ios * job.bs);
    sb_io_result_free(&res);
    unlink(file);
}

static void test_unknown_engine_run(void **state)
{
    static sb_io_job job;
    static sb_io_result res;
    char err[512];
    sb_io_job_init(&job);
    snprintf(job.engine, sizeof job.engine, "windowsaio");
    snprintf(job.directory, sizeof job.directory, "%s", tmpdir);
    assert_int_equal(sb_io_run(&job, &res, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "engines that work here"));
    sb_rw rw;
    assert_int_equal(sb_rw_parse("randrw", &rw), 0);
    assert_int_equal(rw, SB_RW_RANDRW);
    assert_int_equal(sb_rw_parse("sideways", &rw), -EINVAL);
}

/* The one refusal for an engine this kernel cannot run (worker, fio, diskmark): its text
 * with the caller's prefix, the probe's errno, and nothing when the probe passes. */
static int probe_nosys(void) { return -ENOSYS; }
static int probe_ok(void) { return 0; }

static void test_engine_check_works(void **state)
{
    sb_engine_ops ops = sb_engine_psync;
    char err[512], list[256], want[512];
    ops.name = "fakeaio";
    ops.probe = probe_nosys;
    sb_engine_list_working(list, sizeof list);
    snprintf(want, sizeof want, "fio: I/O engine fakeaio does not work on this kernel (%s); "
             "engines that work here: %s", strerror(ENOSYS), list);
    assert_int_equal(sb_engine_check_works(&ops, "fio: ", err, sizeof err), -ENOSYS);
    assert_string_equal(err, want);
    ops.probe = probe_ok;
    assert_int_equal(sb_engine_check_works(&ops, "", err, sizeof err), 0);
    ops.probe = NULL;
    assert_int_equal(sb_engine_check_works(&ops, "", err, sizeof err), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_offsets_every_block_once),
        cmocka_unit_test(test_offsets_passes_differ_and_seed_repeats),
        cmocka_unit_test(test_offsets_norandommap_uniform),
        cmocka_unit_test(test_offsets_spread),
        cmocka_unit_test(test_engines_read_back),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_mix_and_numjobs),
        cmocka_unit_test(test_cpu_placement_and_cost),
        cmocka_unit_test(test_fsync_every),
        cmocka_unit_test(test_io_uring_registered),
        cmocka_unit_test(test_batching),
        cmocka_unit_test(test_time_based_and_interrupt),
        cmocka_unit_test(test_sync_own_fd_table),
        cmocka_unit_test(test_unknown_engine_run),
        cmocka_unit_test(test_engine_check_works),
    };
    return cmocka_run_group_tests_name("io", tests, setup, teardown);
}
