/*
 * worker_draw — what a job's thread draws its I/Os from, set up before it runs: the
 * block sizes (bs per direction, bsrange, bssplit: a shuffled table of sizes) and the
 * block sequence (blockalign's unit, the offset generator with rw's skip, strided zones,
 * a distribution, randread:N and percentage_random). The hot loop (io/loop) reads them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/rand.h"
#include "io/job.h"
#include "io/loop/distribution.h"
#include "io/loop/offsets.h"
#include "io/run/worker.h"

/* The largest block size of the job (bsrange, bssplit, or bs). */
uint64_t sb_io_job_max_bs(const sb_io_job *job)
{
    uint64_t m = job->bs_max > job->bs ? job->bs_max : job->bs;
    m = job->bs_w > m ? job->bs_w : m; /* bs=READ,WRITE */
    m = job->bs_max_w > m ? job->bs_max_w : m;
    for (unsigned i = 0; i < job->bssplit.n; i++)
        m = job->bssplit.bs[i] > m ? job->bssplit.bs[i] : m;
    for (unsigned i = 0; i < job->bssplit_w.n; i++)
        m = job->bssplit_w.bs[i] > m ? job->bssplit_w.bs[i] : m;
    return m;
}

/* A split's SB_IO_BS_TABLE sizes in proportion to their percentages, shuffled. */
static void split_table(worker *w, const sb_io_bssplit *sp, uint32_t *t)
{
    unsigned k = 0;
    for (unsigned i = 0; i < sp->n; i++)
        for (unsigned j = 0; j < sp->pct[i] * SB_IO_BS_TABLE / 100 && k < SB_IO_BS_TABLE; j++)
            t[k++] = (uint32_t)sp->bs[i];
    for (unsigned i = 0; k < SB_IO_BS_TABLE; k++, i++) /* rounding: the largest shares fill */
        t[k] = (uint32_t)sp->bs[i % sp->n];
    for (unsigned i = SB_IO_BS_TABLE - 1; i > 0; i--) {
        unsigned j = (unsigned)sb_rand_below(&w->rng, i + 1);
        uint32_t x = t[i];
        t[i] = t[j];
        t[j] = x;
    }
}

/* The thread's block sequence: its unit and count, the generator, rw's skip, strided
 * zones, a distribution, randread:N and percentage_random (offsets.h). */
void sb_io_worker_offsets(worker *w, const sb_io_job *job, uint64_t seed)
{
    /* blockalign: random offsets in its unit, the last block still whole */
    w->unit = job->blockalign ? job->blockalign : job->bs;
    /* ba=READ,WRITE, bs=READ,WRITE: the writes' random offsets in their own unit (fio's ba
     * defaults to each direction's smallest size) */
    w->unit_w = job->blockalign_w ? job->blockalign_w : job->blockalign ? 0 : job->bs_w;
    w->block_count = job->blockalign && job->size >= job->bs ? (job->size - job->bs) / w->unit + 1
                                                             : job->size / job->bs;
    sb_offgen_init(&w->og, w->block_count, sb_rw_is_random(job->rw), job->norandommap,
                   seed + 0x100 * (w->index + 1));
    if (job->rw_skip)
        sb_offgen_set_step(&w->og, (int64_t)(job->bs + (uint64_t)job->rw_skip) / (int64_t)job->bs);
    if (job->zonemode == SB_ZONEMODE_STRIDED) /* zonerange: the span's rest is skipped too */
        sb_offgen_set_zones(&w->og, job->zonesize / job->bs, (job->zoneskip + (job->zonerange >
                            job->zonesize ? job->zonerange - job->zonesize : 0)) / job->bs);
    if (job->dist.kind != SB_DIST_RANDOM && sb_rw_is_random(job->rw)) {
        sb_distgen_init(&w->dg, &job->dist, w->block_count, w->unit, seed + 0x100 * (w->index + 1));
        w->og.dist = &w->dg;
    }
    /* randread:N and percentage_random go through next_io's rare path */
    w->seqmix_on = sb_rw_is_random(job->rw) && (job->rw_seq_nr > 1 || sb_io_job_pct_mixed(job));
    /* a sequential mix of one block size: a position per direction (fio's); with rw's skip,
     * zones, sizes drawn or verification the one shared sequence stays */
    w->dir_seq = job->rw == SB_RW_RW && !job->rw_skip && job->zonemode == SB_ZONEMODE_NONE &&
                 !w->bs_table && !job->sprandom && !job->verify && !job->verify_pattern;
    if (w->seqmix_on) /* time_based: past the end to offset 0 (fio's; one file: files.c) */
        sb_seqmix_init(&w->seqmix, job->rw_seq_nr, job->rw_sequencer == 1, job->time_based,
                       job->pct_random, seed + 0x100 * (w->index + 1));
}

/* A range's sizes (one size: hi 0): uniform in multiples of lo, as fio's, or with
 * bs_unaligned any byte count from lo: fio's get_next_buflen draws lo plus a byte count
 * below hi and caps it at hi, so lo/hi of them are hi (an eighth with 512-4k). */
static void range_table(worker *w, uint64_t lo, uint64_t hi, bool unaligned, uint32_t *t)
{
    uint64_t steps = hi > lo ? (unaligned ? hi : hi / lo) : 1;
    for (unsigned i = 0; i < SB_IO_BS_TABLE; i++) {
        uint64_t k = sb_rand_below(&w->rng, steps);
        t[i] = (uint32_t)(unaligned && hi > lo ? (lo + k < hi ? lo + k : hi) : lo * (1 + k));
    }
}

/* bsrange / bssplit / bs=READ,WRITE / blockalign: SB_IO_BS_TABLE sizes drawn now, so that
 * an I/O only takes the next (loop.c): a split's sizes in proportion to their
 * percentages, a range's uniform in multiples of its low end, as fio's; the writes' own
 * when they differ. Shuffled with the thread's generator. A random job with blockalign
 * takes this path for its offsets (fio's: drawn independently in the alignment's unit). */
static uint32_t table_min(const uint32_t *t)
{
    uint32_t m = t[0];
    for (unsigned i = 1; i < SB_IO_BS_TABLE; i++)
        m = t[i] < m ? t[i] : m;
    return m;
}

int sb_io_worker_bs_table(worker *w, const sb_io_job *job)
{
    bool blocks = job->zonemode == SB_ZONEMODE_ZBD || job->sprandom || job->random_generator == SB_RNG_LFSR;
    if (!job->bssplit.n && job->bs_max <= job->bs && !job->bs_w &&
        !(job->blockalign && sb_rw_is_random(job->rw) && !blocks))
        return 0;
    uint32_t *t = malloc(SB_IO_BS_TABLE * sizeof *t);
    if (!t)
        return -ENOMEM;
    if (job->bssplit_w.n || job->bs_w) { /* bssplit=READS,WRITES, bs=READ,WRITE: the writes' */
        if (!(w->bs_table_w = malloc(SB_IO_BS_TABLE * sizeof *w->bs_table_w))) {
            free(t);
            return -ENOMEM;
        }
        if (job->bssplit_w.n)
            split_table(w, &job->bssplit_w, w->bs_table_w);
        else
            range_table(w, job->bs_w, job->bs_max_w, job->bs_unaligned, w->bs_table_w);
    }
    if (job->bssplit.n)
        split_table(w, &job->bssplit, t);
    else
        range_table(w, job->bs, job->bs_max, job->bs_unaligned, t);
    w->bs_table = t;
    /* a range's smallest is its low end (fio's min_bs), drawn or not; a split's, its smallest */
    w->bs_min = job->bssplit.n ? table_min(t) : (uint32_t)job->bs;
    w->bs_min_w = !w->bs_table_w ? w->bs_min : job->bssplit_w.n ? table_min(w->bs_table_w) : (uint32_t)job->bs_w;
    /* fio's random map for sizes drawn (loop/varmap.h): a random job's, off where fio turns
     * its map off (norandommap, blockalign, a distribution other than uniform, the lfsr) and
     * where storbench draws otherwise: each direction's own sizes (two tables), verify (its
     * block table places the writes), zbd or sprandom (blocks of one size). Its blocks are of
     * the smallest size, as many as random offsets fit (files.c: each file's the same way). */
    if (!sb_rw_is_random(job->rw) || job->norandommap || job->blockalign || job->dist.kind != SB_DIST_RANDOM ||
        job->random_generator == SB_RNG_LFSR || w->bs_table_w || job->verify || job->verify_pattern ||
        job->zonemode == SB_ZONEMODE_ZBD || job->sprandom || job->size < w->bs_min || !job->bs)
        return 0;
    return sb_varmap_init(&w->vmap, (job->size - w->bs_min) / job->bs + 1);
}

