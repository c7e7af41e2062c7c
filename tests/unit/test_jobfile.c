/* Unit tests for io/jobfile (fio job files) and the option types issue 27 added: [global]
 * inheritance, include, ${VAR} and $ncpus expansion with arithmetic, comments, kb_base
 * first, errors with FILE:LINE, stonewall/new_group/wait_for phases and groups; ranges,
 * splits, percentages, file lists, thinktime's microseconds. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "io/job.h"
#include "io/options/jobfile.h"
#include "io/options/options.h"

static char dir[] = "/tmp/sb-jobfile-XXXXXX";
static char err[1024];
static sb_io_job dflt;

static const char *write_file(const char *name, const char *text)
{
    static char path[4][512];
    static int k;
    char *p = path[k++ % 4];
    snprintf(p, 512, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return p;
}

static int read_into(const char *path, sb_jobset *set)
{
    sb_io_job_init(&dflt);
    err[0] = '\0';
    return sb_jobfile_read(path, &dflt, NULL, 0, false, set, err, sizeof err);
}

static void test_global_include_comments(void **state)
{
    write_file("inc.fio", "iodepth=7\n# nothing\n");
    const char *p = write_file("a.fio", "; top\n[global]\nrw=randwrite ; after\nbs=8k\n"
                                        "include inc.fio\n\n[one]\n  bs = 16k\n[two]\n"
                                        "[global]\nrw=read\n[three]\n");
    sb_jobset set = {0};
    assert_int_equal(read_into(p, &set), 0);
    assert_int_equal(set.n, 3);
    assert_string_equal(set.jobs[0]->job.name, "one");
    assert_int_equal(set.jobs[0]->job.rw, SB_RW_RANDWRITE);
    assert_int_equal(set.jobs[0]->job.bs, 16384);
    assert_int_equal(set.jobs[0]->job.iodepth, 7);
    assert_int_equal(set.jobs[1]->job.bs, 8192);
    /* a later [global] changes only the jobs after it */
    assert_int_equal(set.jobs[1]->job.rw, SB_RW_RANDWRITE);
    assert_int_equal(set.jobs[2]->job.rw, SB_RW_READ);
    sb_jobset_free(&set);
}

static void test_expansion(void **state)
{
    char out[256];
    setenv("SB_JF_SIZE", "64m", 1);
    unsetenv("SB_JF_NONE");
    assert_int_equal(sb_jobfile_expand("${SB_JF_SIZE}", out, sizeof out), 0);
    assert_string_equal(out, "64m");
    assert_int_equal(sb_jobfile_expand("a${SB_JF_NONE}b", out, sizeof out), 0);
    assert_string_equal(out, "ab");
    char want[64];
    snprintf(want, sizeof want, "%ld", 2 * sysconf(_SC_NPROCESSORS_ONLN) + 1);
    assert_int_equal(sb_jobfile_expand("2*$ncpus+1", out, sizeof out), 0);
    assert_string_equal(out, want);
    snprintf(want, sizeof want, "%ld", sysconf(_SC_PAGESIZE));
    assert_int_equal(sb_jobfile_expand("$pagesize", out, sizeof out), 0);
    assert_string_equal(out, want);
    /* no keyword: no arithmetic (a range stays a range) */
    assert_int_equal(sb_jobfile_expand("4-16", out, sizeof out), 0);
    assert_string_equal(out, "4-16");
    assert_int_equal(sb_jobfile_expand("${unclosed", out, sizeof out), -EINVAL);
}

static void test_errors_name_lines(void **state)
{
    sb_jobset set = {0};
    const char *p = write_file("b.fio", "[j]\nrw=read\n\nnosuch=1\n");
    assert_int_equal(read_into(p, &set), -ENOENT);
    char want[600];
    snprintf(want, sizeof want, "%s:4: unknown option 'nosuch'", p);
    assert_string_equal(err, want);
    sb_jobset_free(&set);
    p = write_file("c.fio", "[j]\niodepth=0\n");
    assert_int_equal(read_into(p, &set), -EINVAL);
    snprintf(want, sizeof want, "%s:2: iodepth: '0' is not in 1 .. 65536", p);
    assert_string_equal(err, want);
    sb_jobset_free(&set);
    p = write_file("d.fio", "rw=read\n[j]\n");
    assert_int_equal(read_into(p, &set), -EINVAL);
    assert_non_null(strstr(err, ":1: option 'rw=read' outside of a [section]"));
    sb_jobset_free(&set);
    write_file("sect.fio", "[x]\n");
    p = write_file("e.fio", "[j]\ninclude sect.fio\n");
    assert_int_equal(read_into(p, &set), -EINVAL);
    assert_non_null(strstr(err, "an included file has no sections"));
    sb_jobset_free(&set);
}

static void test_kb_base_first(void **state)
{
    sb_jobset set = {0};
    /* kb_base after the size still governs it, as fio parses it first */
    const char *p = write_file("k.fio", "[a]\nsize=16MiB\n[b]\nsize=1MiB\nkb_base=1000\n[c]\nsize=4k\n");
    assert_int_equal(read_into(p, &set), 0);
    assert_int_equal(set.jobs[0]->job.size, 16000000);
    assert_int_equal(set.jobs[1]->job.size, 1048576);
    assert_int_equal(set.jobs[2]->job.size, 4096);
    sb_jobset_free(&set);
}

static void test_order(void **state)
{
    sb_jobset set = {0};
    const char *p = write_file("o.fio", "[a]\n[b]\n[c]\nstonewall\n[d]\nnew_group\n[e]\nwait_for=d\n"
                                        "[f]\nwait_for=a\n");
    assert_int_equal(read_into(p, &set), 0);
    assert_int_equal(sb_jobset_order(&set, err, sizeof err), 0);
    unsigned phase[] = {0, 0, 1, 1, 2, 2}, group[] = {0, 0, 1, 2, 2, 2};
    for (int i = 0; i < 6; i++) {
        assert_int_equal(set.jobs[i]->phase, phase[i]);
        assert_int_equal(set.jobs[i]->group, group[i]);
    }
    sb_jobset_free(&set);
    /* a wait_for naming no earlier job: ordered, and the job's run fails (fio's) */
    p = write_file("o2.fio", "[a]\nwait_for=b\n[b]\n");
    assert_int_equal(read_into(p, &set), 0);
    assert_int_equal(sb_jobset_order(&set, err, sizeof err), 0);
    assert_non_null(strstr(set.jobs[0]->job.run_fail, "wait_for=b"));
    assert_string_equal(set.jobs[1]->job.run_fail, "");
    sb_jobset_free(&set);
}

static int set(sb_io_job *job, const char *name, const char *value)
{
    const sb_opt_ctx ctx = {1024};
    err[0] = '\0';
    return sb_io_opt_set(job, name, NULL, value, &ctx, err, sizeof err);
}

/* bsrange and bssplit together: the later one decides, as fio's callbacks fill the same
 * per-direction min and max (rinetd-fio.cfg gives bsrange=1k-4k,8k-8k, then bssplit) */
static void test_bsrange_bssplit_order(void **state)
{
    static sb_io_job job;
    (void)state;
    sb_io_job_init(&job);
    assert_int_equal(set(&job, "bsrange", "1k-4k,8k-8k"), 0);
    assert_int_equal(job.bs_w, 8192);
    assert_int_equal(set(&job, "bssplit", "4k/30:8k/40:16k/30"), 0);
    sb_io_job_resolve(&job);
    assert_int_equal(job.bs, 4096); /* the split alone, both ways */
    assert_int_equal(job.bs_w, 0);
    assert_int_equal(job.bssplit.n, 3);
    assert_int_equal(job.bssplit_w.n, 0);
    sb_io_job_init(&job);
    assert_int_equal(set(&job, "bssplit", "4k/30:8k/40:16k/30"), 0);
    assert_int_equal(set(&job, "blocksize_range", "1k-4k,8k-8k"), 0);
    for (int i = 0; i < 2; i++) { /* resolved twice (job file, then command): the same */
        sb_io_job_resolve(&job);
        assert_int_equal(job.bssplit.n, 1); /* reads: 4k, 8k, 16k aligned to 1k, capped at 4k */
        assert_int_equal(job.bssplit.bs[0], 4096);
        assert_int_equal(job.bssplit.pct[0], 100);
        assert_int_equal(job.bssplit_w.n, 1); /* writes: a range of one size, 8k */
        assert_int_equal(job.bssplit_w.bs[0], 8192);
        assert_int_equal(job.bs, 4096);
        assert_int_equal(job.bs_w, 0);
    }
    sb_io_job_init(&job); /* a range that keeps some sizes apart: 12k cut to 8k joins 8k */
    assert_int_equal(set(&job, "bssplit", "4k/20:8k/30:12k/50"), 0);
    assert_int_equal(set(&job, "bsrange", "4k-8k"), 0);
    sb_io_job_resolve(&job);
    assert_int_equal(job.bssplit.n, 2);
    assert_int_equal(job.bssplit.bs[1], 8192);
    assert_int_equal(job.bssplit.pct[1], 80);
    assert_int_equal(job.bssplit_w.n, 0);
}

static void test_value_types(void **state)
{
    static sb_io_job job;
    sb_io_job_init(&job);
    assert_int_equal(set(&job, "bsrange", "4k-64k"), 0);
    assert_int_equal(job.bs, 4096);
    assert_int_equal(job.bs_max, 65536);
    assert_int_equal(set(&job, "bs", "8k"), 0);
    assert_int_equal(job.bs_max, 0); /* one size: no range */
    assert_int_equal(set(&job, "bs", "64k-4k"), 0); /* fio's READ-WRITE: reads 64k, writes 4k */
    assert_true(job.bs == 65536 && job.bs_w == 4096 && job.bs_max == 0);
    assert_int_equal(set(&job, "bsrange", "64k-4k"), -EINVAL); /* a range that runs backwards */
    assert_int_equal(set(&job, "bs", "4k,8k"), 0); /* fio's READ,WRITE */
    assert_int_equal(job.bs, 4096);
    assert_int_equal(job.bs_w, 8192);
    assert_int_equal(set(&job, "bs", "4k,8k,16k"), 0); /* a trim size of its own: refused */
    assert_true(job.bs_trim_own);                          /* by sb_io_job_check if it trims */
    assert_int_equal(set(&job, "bs", "8k"), 0);
    assert_int_equal(job.bs_w, 0);
    assert_int_equal(set(&job, "bssplit", "4k/50:64k/50"), 0);
    assert_int_equal(job.bssplit.n, 2);
    assert_int_equal(job.bssplit.pct[1], 50);
    assert_int_equal(set(&job, "bssplit", "4k/10:8k:64k"), 0); /* the rest shared: 45, 45 */
    assert_int_equal(job.bssplit.pct[1] + job.bssplit.pct[2], 90);
    assert_int_equal(set(&job, "bssplit", "4k/60:64k/60"), -EINVAL);
    sb_io_job_resolve(&job);
    assert_int_equal(job.bs, 4096);
    assert_int_equal(set(&job, "rwmixread", "70%"), 0);
    assert_int_equal(job.rwmixread, 70);
    assert_int_equal(set(&job, "rwmixread", "101"), -EINVAL);
    assert_int_equal(set(&job, "rwmixwrite", "30"), 0);
    assert_int_equal(job.rwmixread, 70);
    assert_int_equal(set(&job, "filename", "a:b\\:c"), 0);
    assert_int_equal(sb_opt_list_count(job.filename), 2);
    assert_string_equal(job.filename, "a");
    assert_string_equal(job.filename + 2, "b:c");
    /* each filename adds its files to the job's, as fio's (a name twice is two files) */
    assert_int_equal(set(&job, "filename", "a"), 0);
    assert_int_equal(sb_opt_list_count(job.filename), 3);
    assert_string_equal(job.filename + 6, "a");
    /* an empty name is skipped, as fio's (filename=D: is the file D); none at all is refused */
    job.filename[0] = '\0';
    assert_int_equal(set(&job, "filename", "a::b:"), 0);
    assert_int_equal(sb_opt_list_count(job.filename), 2);
    assert_string_equal(job.filename + 2, "b");
    assert_int_equal(set(&job, "filename", ":"), -EINVAL);
    assert_int_equal(sb_opt_list_count(job.filename), 2);
    /* below the directory as it is when the line is read (fio's add_file: the first of
     * A:B, and an absolute name too) */
    job.filename[0] = '\0';
    strcpy(job.directory, "/d:/e");
    assert_int_equal(set(&job, "filename", "a:/b"), 0);
    assert_string_equal(job.filename, "/d/a");
    assert_string_equal(job.filename + 5, "/d//b");
    job.directory[0] = job.filename[0] = '\0';
    assert_int_equal(set(&job, "thinktime", "250"), 0); /* fio: microseconds */
    assert_true(job.thinktime_s > 249e-6 && job.thinktime_s < 251e-6);
    assert_int_equal(set(&job, "thinktime", "2ms"), 0);
    assert_true(job.thinktime_s > 1.9e-3 && job.thinktime_s < 2.1e-3);
    assert_int_equal(set(&job, "buffered", "0"), 0);
    assert_true(job.direct);
    /* fio's distributions (io/distribution.h) */
    assert_int_equal(set(&job, "random_distribution", "zipf:1.2"), 0);
    assert_int_equal(job.dist.kind, SB_DIST_ZIPF);
    assert_true(job.dist.param == 1.2);
    assert_int_equal(set(&job, "random_distribution", "zipf:1"), -EINVAL);
    assert_int_equal(set(&job, "random_distribution", "pareto:1.5"), -EINVAL);
    assert_int_equal(set(&job, "random_distribution", "zoned:50/5:30/15:20/"), 0);
    assert_int_equal(job.dist.nzones, 3);
    assert_true(job.dist.zone_size[2] == 80); /* the zone without a size takes the rest */
    assert_int_equal(set(&job, "random_distribution", "zoned:50/5:30/15"), -EINVAL); /* 80 % */
    assert_int_equal(set(&job, "random_distribution", "zoned_abs:50/1m:50/1m"), 0);
    assert_true(job.dist.zone_size[0] == 1048576);
    assert_int_equal(set(&job, "random_distribution", "zipf:1.2,zipf:0.8"), -EINVAL);
    assert_int_equal(set(&job, "random_distribution", "random"), 0);
    assert_int_equal(job.dist.kind, SB_DIST_RANDOM);
    assert_int_equal(set(&job, "rw", "read:-8k"), 0);
    assert_int_equal(job.rw, SB_RW_READ);
    assert_int_equal(job.rw_skip, -8192);
    assert_int_equal(set(&job, "rw", "randread:8"), 0); /* a new random offset every 8 I/Os */
    assert_int_equal(job.rw_seq_nr, 8);
    assert_int_equal(set(&job, "rw", "randread:0"), -EINVAL);
    assert_int_equal(set(&job, "rw", "write"), 0);
    assert_int_equal(job.rw_skip, 0);
    assert_int_equal(set(&job, "percentile_list", "50:99.9"), 0);
    assert_int_equal(job.n_percentiles, 2);
    assert_int_equal(set(&job, "nice", "-21"), -EINVAL);
    assert_int_equal(set(&job, "prio", "7"), 0);
    assert_int_equal(set(&job, "filesize", "16MiB"), 0);
    assert_int_equal(job.size, 16000000);
}

static void test_job_checks(void **state)
{
    static sb_io_job job;
    char warn[256];
    sb_io_job_init(&job);
    strcpy(job.directory, "/tmp");
    assert_int_equal(set(&job, "filename", "a:b"), 0);
    job.directory[0] = '\0';
    assert_int_equal(sb_io_job_check(&job, err, sizeof err, warn, sizeof warn), 0); /* two files */
    job.verify = SB_VERIFY_CRC32C; /* a table per file */
    assert_int_equal(sb_io_job_check(&job, err, sizeof err, warn, sizeof warn), 0);
    job.trim_percentage = 10; /* trims of verified blocks: one file only */
    job.trim_backlog = 4;
    assert_int_equal(sb_io_job_check(&job, err, sizeof err, warn, sizeof warn), -EINVAL);
    assert_non_null(strstr(err, "trim_percentage with 2 files per job"));
    job.trim_percentage = job.trim_backlog = 0;
    job.verify = SB_VERIFY_NONE;
    strcpy(job.engine, "mmap"); /* a mapping per file */
    assert_int_equal(sb_io_job_check(&job, err, sizeof err, warn, sizeof warn), 0);
    strcpy(job.engine, "psync");
    job.filename[0] = '\0';
    assert_int_equal(set(&job, "filename", "a"), 0);
    job.fsync_every = job.fdatasync_every = 1;
    assert_int_equal(sb_io_job_check(&job, err, sizeof err, warn, sizeof warn), -EINVAL);
    job.fdatasync_every = 0;
    job.nrfiles = 2; /* with a filename, ignored (fio) */
    assert_int_equal(sb_io_job_check(&job, err, sizeof err, warn, sizeof warn), 0);
    job.nrfiles = 1;
    assert_int_equal(sb_io_job_check(&job, err, sizeof err, warn, sizeof warn), 0);
}

static int setup(void **state) { return mkdtemp(dir) ? 0 : -1; }
static int teardown(void **state)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_global_include_comments), cmocka_unit_test(test_expansion),
        cmocka_unit_test(test_errors_name_lines),      cmocka_unit_test(test_kb_base_first),
        cmocka_unit_test(test_order),                  cmocka_unit_test(test_value_types),
        cmocka_unit_test(test_bsrange_bssplit_order),
        cmocka_unit_test(test_job_checks),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
