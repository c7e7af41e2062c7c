/*
 * check — a job's values checked on their own and together before anything is opened
 * (sb_io_job_check, job.h): each area's own rules (offsets, job control, fio's job-file
 * options, files, trims, zones, verify, steady state), then those that involve the engine.
 * Kept apart from the job model (job.c) because it asks every other part of the engine,
 * while those parts only read the model.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "io/engine.h"
#include "io/job.h"
#include "io/job/fileopts.h"

/* fio's offset options: rw's skip, blockalign, random_distribution, rate_min. */
static int check_offsets(const sb_io_job *job, char *err, size_t errlen)
{
    bool var = job->bs_max > job->bs || job->bssplit.n || job->bs_w;
    if (job->rw_skip && (var || job->rw_skip % (int64_t)job->bs || job->rw_skip == -(int64_t)job->bs)) {
        snprintf(err, errlen, "rw's skip %" PRId64 " must be a multiple of bs %" PRIu64 " (not -bs), "
                 "with one block size", job->rw_skip, job->bs);
        return -EINVAL;
    }
    /* blockalign: any unit (fio's), for the offsets of random jobs; a sequential job's
     * follow one another, so only bs itself (fio's default) means nothing there */
    if ((job->blockalign && job->blockalign != job->bs && !sb_rw_is_random(job->rw)) ||
        (job->blockalign_w && !sb_rw_is_random(job->rw))) {
        snprintf(err, errlen, "blockalign %" PRIu64 ": aligns a random job's offsets; this job's are "
                 "sequential (fio ignores it there)", job->blockalign_w ? job->blockalign_w : job->blockalign);
        return -EINVAL;
    }
    /* zbd, sprandom and lfsr keep their blocks of bs: an alignment of whole blocks */
    bool blocks = job->zonemode == SB_ZONEMODE_ZBD || job->sprandom || job->random_generator == SB_RNG_LFSR;
    if (blocks && (job->bs_w || job->blockalign_w || (job->blockalign && job->blockalign % job->bs))) {
        snprintf(err, errlen, "%s: with zonemode=zbd, sprandom or random_generator=lfsr, %s",
                 job->bs_w ? "bs=READ,WRITE" : "blockalign", job->bs_w ? "not supported"
                 : "one multiple of bs");
        return -EINVAL;
    }
    if (job->bs_trim_own && sb_rw_trims(job->rw)) {
        snprintf(err, errlen, "bs=READ,WRITE,TRIM: storbench's trims take the reads' size; a trim "
                 "size of its own is not supported");
        return -EINVAL;
    }
    if (job->bs_w && (job->bs_w > SB_IO_MAX_BS || job->bs_max_w > SB_IO_MAX_BS)) {
        snprintf(err, errlen, "bs's write value %" PRIu64 " out of range (1 B .. 64 MiB)", job->bs_w);
        return -EINVAL;
    }
    if (job->bs_w && (job->bssplit.n || job->rw == SB_RW_TRIMWRITE || job->rw_skip ||
                      job->zonemode == SB_ZONEMODE_STRIDED)) {
        snprintf(err, errlen, "bs=READ,WRITE: not with bssplit, trimwrite, rw's skip or zonemode=strided");
        return -EINVAL;
    }
    if (job->bs_is_seq_rand && job->bs_w) { /* left after sb_io_job_resolve: both kinds */
        snprintf(err, errlen, "bs_is_seq_rand: a job of random and sequential I/Os (randread:N, "
                 "percentage_random) with two sizes is not supported");
        return -EINVAL;
    }
    if (job->bs_unaligned && !job->bssplit.n && job->bs_max <= job->bs && job->bs_max_w <= job->bs_w) {
        snprintf(err, errlen, "bs_unaligned: needs a range or a split of sizes (bsrange=LO-HI, bs=LO-HI, "
                 "bssplit)");
        return -EINVAL;
    }
    /* sizes drawn (bsrange, bssplit) take byte positions (loop/varsize.c) */
    bool mix = job->rw_seq_nr > 1 || sb_io_job_pct_mixed(job);
    /* verify reads back each block's last write whatever the order of offsets (fio verifies
     * every logged write, the overwritten too, and fails such a job unless norandommap) */
    bool drawn = job->bs_max > job->bs || job->bssplit.n || job->bs_w;
    if (mix && (!sb_rw_is_random(job->rw) || ((job->verify || job->verify_pattern) && drawn) ||
                job->zonemode == SB_ZONEMODE_ZBD || job->sprandom)) {
        snprintf(err, errlen, "%s: for random jobs without zbd, sprandom, or verify with drawn sizes",
                 job->rw_seq_nr > 1 ? "rw's :N" : "percentage_random");
        return -EINVAL;
    }
    if (job->offset_align && !job->offset_pct) {
        snprintf(err, errlen, "offset_align: needs offset=N%% (it rounds that offset up)");
        return -EINVAL;
    }
    if (job->rw_sequencer && job->rw_seq_nr < 2) {
        snprintf(err, errlen, "rw_sequencer=identical: needs rw=randread:N (N above 1), the I/Os it "
                 "shapes");
        return -EINVAL;
    }
    if (sb_io_zbd_check(job, err, errlen, NULL, 0) < 0)
        return -EINVAL;
    if (job->zonemode == SB_ZONEMODE_STRIDED &&
        (!job->zonesize || job->zonesize % job->bs || job->zoneskip % job->bs ||
         sb_rw_is_random(job->rw) || var || job->rw_skip)) {
        snprintf(err, errlen, "zonemode=strided: zonesize and zoneskip multiples of bs %" PRIu64
                 " (zonesize above 0), for sequential jobs of one block size without rw's skip",
                 job->bs);
        return -EINVAL;
    }
    bool skew = job->dist.kind != SB_DIST_RANDOM || job->zonemode == SB_ZONEMODE_STRIDED;
    if ((skew || job->blockalign || job->rw_skip) && (job->verify || job->verify_pattern)) {
        snprintf(err, errlen, "verify: not supported with random_distribution, blockalign, zonemode "
                 "or rw's skip");
        return -EINVAL;
    }
    if (job->rate_min && job->rate && job->rate_min > job->rate) {
        snprintf(err, errlen, "rate_min %" PRIu64 " is above rate %" PRIu64, job->rate_min, job->rate);
        return -EINVAL;
    }
    return 0;
}

/* thinktime's and rate's details, max_latency and the latency target (loop/pace.c): an
 * option that would change nothing (fio's ignore them) is refused. */
static int check_pacing(const sb_io_job *job, char *err, size_t errlen)
{
    const char *alone = NULL;
    if (job->thinktime_s <= 0 && job->thinktime_spin_s > 0)
        alone = "thinktime_spin";
    else if (job->thinktime_s <= 0 && job->thinktime_blocks > 1)
        alone = "thinktime_blocks";
    else if (job->thinktime_s <= 0 && job->thinktime_blocks_type != SB_THINK_COMPLETE)
        alone = "thinktime_blocks_type";
    else if (job->thinktime_s <= 0 && job->thinktime_iotime_s > 0)
        alone = "thinktime_iotime";
    if (alone) {
        snprintf(err, errlen, "%s: needs thinktime (without it there is no think to shape)", alone);
        return -EINVAL;
    }
    if (job->thinktime_spin_s > job->thinktime_s) {
        snprintf(err, errlen, "thinktime_spin %.0f us is above thinktime %.0f us",
                 job->thinktime_spin_s * 1e6, job->thinktime_s * 1e6);
        return -EINVAL;
    }
    bool rated = job->rate || job->rate_write || job->rate_iops || job->rate_iops_write;
    if (job->rate_ign_think && (job->thinktime_s <= 0 || !rated)) {
        snprintf(err, errlen, "rate_ignore_thinktime: needs thinktime and rate or rate_iops");
        return -EINVAL;
    }
    if (job->rate_cycle_ms != 1000 && !job->rate_min && !job->rate_iops_min) {
        snprintf(err, errlen, "rate_cycle: needs rate_min or rate_iops_min (the window they are "
                 "judged on)");
        return -EINVAL;
    }
    if (job->latency_target_s <= 0 && (job->latency_window_s > 0 || job->latency_run ||
                                       job->latency_percentile != 100)) {
        snprintf(err, errlen, "%s: needs latency_target", job->latency_run ? "latency_run"
                 : job->latency_window_s > 0 ? "latency_window" : "latency_percentile");
        return -EINVAL;
    }
    if ((job->latency_target_s > 0 || job->serialize_overlap) && job->submit_offload) {
        snprintf(err, errlen, "%s: not with io_submit_mode=offload", job->serialize_overlap
                 ? "serialize_overlap" : "latency_target");
        return -EINVAL;
    }
    return 0;
}

/* fio's job control (jobctl.c) together with the rest. */
static int check_jobctl(const sb_io_job *job, char *err, size_t errlen)
{
    if ((job->offset_increment || job->offinc_pct) && job->numjobs > 1 && (job->verify || job->verify_pattern)) {
        snprintf(err, errlen, "offset_increment: with verify, only for numjobs=1");
        return -EINVAL;
    }
    if (job->offset_increment % SB_IO_MIN_BS) {
        snprintf(err, errlen, "offset_increment %" PRIu64 " is not a multiple of 512", job->offset_increment);
        return -EINVAL;
    }
    if (job->dedupe_mode == 1 && job->dedupe_percentage + job->dedupe_ws_pct > 100) {
        snprintf(err, errlen, "dedupe_percentage %u + dedupe_working_set_percentage %u is above 100, "
                 "as fio refuses", job->dedupe_percentage, job->dedupe_ws_pct);
        return -EINVAL;
    }
    for (unsigned i = 0; job->dist.kind == SB_DIST_SEQUENCE && i < job->dist.nseq; i++)
        if (job->dist.seq[i] >= job->size / job->bs) {
            snprintf(err, errlen, "random_distribution=sequence: block %u is beyond the region's "
                     "%" PRIu64 " blocks", job->dist.seq[i], job->size / job->bs);
            return -EINVAL;
        }
    if (job->verify_interval && (sb_io_verify_unit(job) % job->verify_interval || job->verify_interval % 64 ||
                                 job->verify_interval < 128)) {
        snprintf(err, errlen, "verify_interval %" PRIu64 ": storbench's divides bs %" PRIu64 " (with "
                 "several sizes their common unit), is a multiple of 64 and at least 128 (a header is "
                 "96 bytes)", job->verify_interval, sb_io_verify_unit(job));
        return -EINVAL;
    }
    /* time based too: the ENOSPC that fills the device ends the job at once, as fio's */
    if (job->fill_device && (sb_rw_is_random(job->rw) || sb_rw_reads(job->rw))) {
        snprintf(err, errlen, "fill_device is for sequential write jobs");
        return -EINVAL;
    }
    if ((job->dedupe_percentage || job->compress_pct) && (job->verify || job->verify_pattern)) {
        snprintf(err, errlen, "verify with dedupe_percentage or buffer_compress_percentage is not "
                 "supported (verify writes its own data)");
        return -EINVAL;
    }
    return 0;
}

/* The options of issue 27 (fio's job files) together: block size ranges and splits,
 * one file per job, one kind of periodic sync. */
static int sb_io_job_check_fio(const sb_io_job *job, char *err, size_t errlen)
{
    bool var = job->bs_max > job->bs || job->bssplit.n || job->bs_w;
    if (check_offsets(job, err, errlen) < 0 || check_jobctl(job, err, errlen) < 0 ||
        check_pacing(job, err, errlen) < 0)
        return -EINVAL;
    if (job->bs_max > SB_IO_MAX_BS) {
        snprintf(err, errlen, "bsrange %" PRIu64 " out of range (512 B .. 64 MiB)", job->bs_max);
        return -EINVAL;
    }
    for (unsigned i = 0; i < job->bssplit.n; i++)
        if (job->bssplit.bs[i] < SB_IO_MIN_BS || job->bssplit.bs[i] > SB_IO_MAX_BS ||
            job->bssplit.bs[i] % SB_IO_MIN_BS) {
            snprintf(err, errlen, "bssplit: %" PRIu64 " is not a block size (multiples of 512 B, "
                     "512 B .. 64 MiB)", job->bssplit.bs[i]);
            return -EINVAL;
        }
    /* verify keeps each block's last write in blocks of the sizes' common unit (run.c's
     * sb_io_verify_check); the plain pattern check the tests' jobs set is for one size */
    if (var && job->verify_pattern) {
        snprintf(err, errlen, "the pattern check (job.h's verify_pattern) with bsrange, bssplit or "
                 "bs=READ,WRITE is not supported (verify=ALGO is)");
        return -EINVAL;
    }
    if (job->bssplit.n) {
        /* sizes larger than size are skipped, as fio's (loop.c), while one fits: bs, the
         * smallest, must */
        for (unsigned i = 0; i < job->bssplit.n; i++)
            if (job->bssplit.bs[i] % job->bs || job->bs > job->size) {
                snprintf(err, errlen, "bssplit: %" PRIu64 " is not a multiple of bs %" PRIu64
                         " (offsets are multiples of bs: make bs the split's smallest) or is "
                         "larger than size", job->bssplit.bs[i], job->bs);
                return -EINVAL;
            }
    }
    if (sb_io_files_check(job, err, errlen) < 0 || sb_io_trim_check(job, err, errlen) < 0)
        return -EINVAL;
    if (job->fsync_every && job->fdatasync_every) {
        snprintf(err, errlen, "fsync and fdatasync together: give one of them");
        return -EINVAL;
    }
    uint64_t fmax = job->filesize_max ? job->filesize_max : job->filesize; /* LO-HI: HI */
    if (job->filesize && job->size > fmax) {
        snprintf(err, errlen, "size %" PRIu64 " is more than filesize %" PRIu64 " (several passes: "
                 "use loops)", job->size, fmax);
        return -EINVAL;
    }
    return 0;
}

/* What an engine that moves no data (falloc, ftruncate) can run. */
static int engine_kind_check(const sb_io_job *job, const sb_engine_ops *ops, char *err, size_t errlen)
{
    if ((ops->caps & SB_ENGINE_NO_DATA) && (job->verify || job->verify_pattern || job->verify_only)) {
        snprintf(err, errlen, "the %s engine moves no data: there is nothing to verify", ops->name);
        return -EINVAL;
    }
    if ((ops->caps & SB_ENGINE_FILE_OPS) && (job->fsync_every || job->fdatasync_every || job->end_fsync ||
                                             job->fsync_on_close)) {
        snprintf(err, errlen, "the %s engine opens no file to fsync (fsync, fdatasync, end_fsync, "
                 "fsync_on_close)", ops->name);
        return -EINVAL;
    }
    if ((ops->caps & SB_ENGINE_FILE_OPS) && sb_rw_trims(job->rw)) {
        snprintf(err, errlen, "the %s engine times one operation per file: rw=%s has nothing to "
                 "trim", ops->name, sb_rw_name(job->rw));
        return -EINVAL;
    }
    /* ftruncate's only I/O is a write (a size change), as fio's, which fails a read with EINVAL */
    if ((ops->caps & SB_ENGINE_WRITES_ONLY) && job->rw != SB_RW_WRITE && job->rw != SB_RW_RANDWRITE) {
        snprintf(err, errlen, "the %s engine only writes (rw=write or randwrite; rw=%s)", ops->name,
                 sb_rw_name(job->rw));
        return -EINVAL;
    }
    return 0;
}

/* One I/O at a time: nothing in flight to overlap, no queue to drain; fio takes the
 * queue's options there and they do nothing, as here (said in one warning). */
static void warn_one_at_a_time(const sb_io_job *job, const sb_engine_ops *ops, char *warn, size_t warnlen)
{
    bool one = (ops->sync && !job->submit_offload) || job->iodepth == 1;
    if (one && job->iodepth > 1)
        snprintf(warn, warnlen, "iodepth %u has no effect with one I/O at a time (%s); using iodepth 1",
                 job->iodepth, ops->name);
    else if (one && (job->iodepth_low || job->serialize_overlap))
        snprintf(warn, warnlen, "%s has no effect with one I/O at a time (%s)",
                 job->iodepth_low ? "iodepth_low" : "serialize_overlap", ops->sync ? ops->name : "iodepth=1");
}

/* fio's log options that involve each other (io/log/). */
/* The warnings of options that do nothing for this job, as in fio: a queue's options
 * with one I/O at a time; bs_unaligned with a split, whose sizes (multiples of its
 * smallest, bssplit's check) fio's get_next_buflen leaves as they are either way;
 * verify_backlog with do_verify=0 (fio logs the writes for both only with do_verify). */
static void warn_no_effect(const sb_io_job *job, const sb_engine_ops *ops, char *warn, size_t warnlen)
{
    warn_one_at_a_time(job, ops, warn, warnlen);
    if (!warn[0] && job->bs_unaligned && job->bssplit.n)
        snprintf(warn, warnlen, "bs_unaligned has no effect here: bssplit's sizes are multiples of "
                 "its smallest (as fio's, they are used as given)");
    if (!warn[0] && job->verify && (job->verify_backlog || job->verify_backlog_batch) && !job->do_verify)
        snprintf(warn, warnlen, "verify_backlog has no effect with do_verify=0 (as fio's, which keeps "
                 "no writes to check then)");
    if (!warn[0] && job->profile_threads)
        snprintf(warn, warnlen, "threads=%d has no effect: it is the tiobench profile's thread count "
                 "(fio's too); thread=1 asks for threads", job->profile_threads);
}

static int check_logs(const sb_io_job *job, char *err, size_t errlen, char *warn, size_t warnlen)
{
    if (job->hist_log[0] && job->log_gz_store) {
        /* fio's stored histogram samples are memory addresses, not histograms */
        snprintf(err, errlen, "write_hist_log with log_store_compressed: fio stores no histogram in "
                 "a .fz file (its samples there are memory addresses); store the logs uncompressed");
        return -EINVAL;
    }
    struct timespec ts;
    if ((job->log_unix_epoch || job->log_alt_epoch) &&
        clock_gettime((clockid_t)job->log_epoch_clock_id, &ts) < 0) {
        snprintf(err, errlen, "log_alternate_epoch_clock_id %d: no such clock here (%s)",
                 job->log_epoch_clock_id, strerror(errno));
        return -EINVAL;
    }
    if (job->log_gz && job->log_gz < 1024) {
        snprintf(err, errlen, "log_compression %" PRIu64 " is less than 1024 bytes (fio's least)", job->log_gz);
        return -EINVAL;
    }
    if (job->log_gz_cpus_set && !job->log_gz_store && warn && warnlen && !warn[0])
        snprintf(warn, warnlen, "log_compression_cpus has no effect without log_store_compressed=1: "
                 "storbench writes its logs as it goes and deflates only the logs it stores");
    if (job->block_error_pct) { /* fio's: trims until a block fails, on wearing flash */
        snprintf(err, errlen, "block_error_percentiles: not supported: fio's histogram of the trims "
                 "until a block fails needs a device that wears out and reports it, and storbench "
                 "counts no such failure");
        return -EINVAL;
    }
    return 0;
}

int sb_io_job_check(const sb_io_job *job, char *err, size_t errlen, char *warn, size_t warnlen)
{
    if (warn && warnlen)
        warn[0] = '\0';
    const sb_engine_ops *ops = sb_engine_find(job->engine);
    if (!ops) {
        char list[256];
        sb_engine_list_working(list, sizeof list);
        snprintf(err, errlen, "unknown I/O engine '%s' (engines that work here: %s)", job->engine, list);
        return -EINVAL;
    }
    /* under zonemode=zbd a trim resets a zone (zbd.c): its bs is the zone size, as fio's
     * 256M zones (a zoned device's, up to 2 GiB); trim.c refuses another bs */
    bool zone_trim = job->zonemode == SB_ZONEMODE_ZBD && sb_rw_trims(job->rw) && job->bs == job->zonesize;
    /* through the page cache any size is an I/O, as fio's bs=448; O_DIRECT needs whole
     * whole logical blocks of the file's storage, which prepare.c checks when it opens it */
    if (job->bs < 1 || job->bs > (zone_trim ? 1ull << 31 : SB_IO_MAX_BS_ONE)) {
        snprintf(err, errlen, "block size %" PRIu64 " out of range (1 B .. 2 GiB - 4 KiB, the most one "
                 "read or write moves; under zonemode=zbd a trim job's: the zone size, up to 2 GiB)", job->bs);
        return -EINVAL;
    }
    if (job->iodepth < 1 || job->iodepth > SB_IO_MAX_DEPTH) {
        snprintf(err, errlen, "iodepth %u out of range (1 .. %u)", job->iodepth, SB_IO_MAX_DEPTH);
        return -EINVAL;
    }
    if (job->numjobs < 1 || job->numjobs > SB_IO_MAX_JOBS) {
        snprintf(err, errlen, "numjobs %u out of range (1 .. %u)", job->numjobs, SB_IO_MAX_JOBS);
        return -EINVAL;
    }
    if ((job->verify || job->verify_pattern) && job->numjobs > SB_IO_MAX_VERIFY_JOBS) {
        snprintf(err, errlen, "verify with numjobs %u: at most %u threads of a job are told apart "
                 "in a verified block", job->numjobs, SB_IO_MAX_VERIFY_JOBS);
        return -EINVAL;
    }
    if (job->submit_offload && job->iodepth > SB_IO_MAX_OFFLOAD_DEPTH) {
        snprintf(err, errlen, "io_submit_mode=offload runs a thread per I/O in flight: iodepth %u is "
                 "more than %u", job->iodepth, SB_IO_MAX_OFFLOAD_DEPTH);
        return -EINVAL;
    }
    if (job->batch_submit > SB_IO_MAX_DEPTH || job->batch_complete_min > SB_IO_MAX_DEPTH ||
        job->batch_complete_max > SB_IO_MAX_DEPTH) {
        snprintf(err, errlen, "iodepth_batch values must be in 1 .. %u", SB_IO_MAX_DEPTH);
        return -EINVAL;
    }
    if (job->batch_complete_max && job->batch_complete_max < job->batch_complete_min) {
        snprintf(err, errlen, "iodepth_batch_complete_max %u is less than iodepth_batch_complete_min %u",
                 job->batch_complete_max, job->batch_complete_min);
        return -EINVAL;
    }
    /* as fio refuses it: a reap that waits for more completions than can be in flight */
    if (job->batch_complete_min > job->iodepth) {
        snprintf(err, errlen, "iodepth_batch_complete_min %u is more than iodepth %u",
                 job->batch_complete_min, job->iodepth);
        return -EINVAL;
    }
    /* =1 requires registration; an engine without it could never hold it */
    if ((job->uring_fixed_files == 1 || job->uring_fixed_bufs == 1) && !(ops->caps & SB_ENGINE_REGISTERS)) {
        snprintf(err, errlen, "%s=1: only the io_uring engine registers %s (ioengine is %s)",
                 job->uring_fixed_files == 1 ? "registerfiles" : "fixedbufs",
                 job->uring_fixed_files == 1 ? "files" : "buffers", ops->name);
        return -EINVAL;
    }
    /* fio's engine options, as fio takes them only with their engines (engine_opts.c) */
    if (sb_io_engine_opts_check(job, err, errlen) < 0)
        return -EINVAL;
    if (sb_io_job_check_fio(job, err, errlen) < 0 || sb_io_job_check_fiob(job, err, errlen) < 0)
        return -EINVAL;
    if (job->rwmixread > 100) {
        snprintf(err, errlen, "rwmixread %u is not a percentage", job->rwmixread);
        return -EINVAL;
    }
    /* size below bs: fio's --parse-only takes it and its run fails ("size too small"):
     * job_copy (run/worker.c) fails the run so */
    /* offset + size must be a file offset: 16383p + 2p would wrap around 2^64. */
    if (job->offset > (uint64_t)INT64_MAX || job->size > (uint64_t)INT64_MAX - job->offset) {
        snprintf(err, errlen, "offset %" PRIu64 " + size %" PRIu64 " is beyond the largest file "
                 "offset (2^63 - 1)", job->offset, job->size);
        return -EINVAL;
    }
    /* fio 3.33 runs such a job as if time_based were not given ("time_based requires a
     * runtime/timeout setting"): job_copy (run/worker.c) drops it, this says so */
    if (job->time_based && job->runtime_s <= 0 && warn && warnlen && !warn[0])
        snprintf(warn, warnlen, "time_based without a runtime: the job runs through its size once, "
                 "as fio's does");
    if (job->log_interval_s != 0 && (job->log_interval_s < SB_TS_MIN_INTERVAL_MS / 1000.0 - 1e-9 ||
                                     job->log_interval_s > 86400)) {
        snprintf(err, errlen, "log interval %g s out of range (%u ms .. 1 day)", job->log_interval_s,
                 SB_TS_MIN_INTERVAL_MS);
        return -EINVAL;
    }
    if (sb_ss_check(&job->steady, err, errlen) < 0)
        return -EINVAL;
    if (sb_io_fileopts_check(job, err, errlen) < 0) /* fileopts.c */
        return -EINVAL;
    /* opendir names the files (fileopts.c), below a directory when one is given */
    if (!(job->filename[0] || job->opendir[0]) == !(job->directory[0] && !job->opendir[0])) {
        snprintf(err, errlen, "give exactly one of a file name or a directory");
        return -EINVAL;
    }
    /* fio opens the file O_DIRECT and maps it: the copies still go through the page cache */
    if ((ops->caps & SB_ENGINE_MAPS) && job->direct && warn && warnlen && !warn[0])
        snprintf(warn, warnlen, "direct: the %s engine's I/O goes through the page cache whatever "
                 "the flag (the file is opened O_DIRECT and mapped, as fio does)", ops->name);
    if (engine_kind_check(job, ops, err, errlen) < 0)
        return -EINVAL;
    if (sb_io_verify_check(job, ops->sync ? 1 : job->iodepth, err, errlen) < 0)
        return -EINVAL;
    if (check_logs(job, err, errlen, warn, warnlen) < 0)
        return -EINVAL;
    if (warn && warnlen)
        sb_io_zbd_check(job, err, errlen, warn, warnlen); /* its rounding; passed above */
    if (warn && !warn[0])
        warn_no_effect(job, ops, warn, warnlen);
    if (warn && !warn[0] && job->clocksource == SB_CLOCK_TSC && !sb_clock_tsc_invariant())
        snprintf(warn, warnlen, "clocksource=cpu may not be reliable: this CPU's TSC is not "
                 "invariant (CPUID 80000007h EDX bit 8), so its rate may change or differ between "
                 "cores; used all the same, as fio's");
    return 0;
}

