/*
 * io_ranks_print — the text and JSON `storbench io` prints of a run on MPI
 * ranks (see io_ranks.h; the run is runner/io_ranks.c): per phase the
 * aggregate bandwidth over the latest end minus the earliest start, the
 * per-rank spread, the stonewall and the merged latency; and the latency object of
 * storbench's JSON, which io_output.c's job report uses too.
 */
#include "cli/io_ranks.h"

#include <stdio.h>

#include "core/units.h"

/* storbench-json's latency object (docs/io-json.md): samples, min, max, mean, stddev,
 * percentiles, in ns. */
json_t *sb_io_lat_json(const sb_histogram *h)
{
    json_t *o = json_object();
    json_t *pct = json_object();
    json_object_set_new(o, "samples", json_integer((json_int_t)h->count));
    json_object_set_new(o, "min", json_integer(h->count ? (json_int_t)h->min : 0));
    json_object_set_new(o, "max", json_integer((json_int_t)h->max));
    json_object_set_new(o, "mean", json_real(sb_hist_mean(h)));
    json_object_set_new(o, "stddev", json_real(sb_hist_stddev(h)));
    for (int i = 0; i < SB_HIST_N_PERCENTILES; i++) {
        char k[16];
        snprintf(k, sizeof k, "p%g", sb_hist_percentiles[i]);
        json_object_set_new(pct, k, json_real(sb_hist_percentile(h, sb_hist_percentiles[i])));
    }
    json_object_set_new(o, "percentiles", pct);
    return o;
}

static void print_phase(FILE *out, const sb_io_phase_report *ph, double wall, int ranks)
{
    char bw[32], bws[32], tot[32], lo[32], mean[32], hi[32];
    sb_format_iec(bw, sizeof bw, ph->bw, "B/s");
    sb_format_si(bws, sizeof bws, ph->bw, "B/s");
    sb_format_iec(tot, sizeof tot, (double)ph->bytes, "B");
    fprintf(out, "  %s: aggregate BW=%s (%s), IOPS=%.0f, %s in %.3f s (latest end - earliest start)\n",
           ph->name, bw, bws, ph->iops, tot, ph->elapsed_s);
    sb_format_iec(lo, sizeof lo, ph->bw_min, "B/s");
    sb_format_iec(mean, sizeof mean, ph->bw_mean, "B/s");
    sb_format_iec(hi, sizeof hi, ph->bw_max, "B/s");
    fprintf(out, "    per rank: min=%s, mean=%s, max=%s; first done %.3f s, last done %.3f s\n",
           lo, mean, hi, ph->first_done_s, ph->last_done_s);
    if (wall > 0) {
        sb_format_iec(lo, sizeof lo, (double)ph->bytes_min, "B");
        sb_format_iec(hi, sizeof hi, (double)ph->bytes_max, "B");
        fprintf(out, "    stonewall %.3g s: %d of %d ranks stopped by it; bytes per rank min=%s, max=%s\n",
               wall, ph->ranks_stonewalled, ranks, lo, hi);
    }
    const sb_histogram *h = &ph->lat;
    fprintf(out, "    clat (us), all I/Os of all ranks: mean=%.2f, p50=%.2f, p99=%.2f, p99.9=%.2f, max=%.2f\n",
           sb_hist_mean(h) / 1e3, sb_hist_percentile(h, 50) / 1e3, sb_hist_percentile(h, 99) / 1e3,
           sb_hist_percentile(h, 99.9) / 1e3, (double)h->max / 1e3);
}

void sb_io_ranks_print(FILE *out, const sb_io_ranks_report *rep)
{
    char seg[64] = "";
    if (rep->layout == SB_IO_LAYOUT_INTERLEAVED)
        snprintf(seg, sizeof seg, " of %llu bytes", (unsigned long long)rep->segment_bytes);
    fprintf(out, "ranks: %d on %d host%s (at most %d per host), %s, %s%s%s%s\n", rep->ranks, rep->hosts,
           rep->hosts == 1 ? "" : "s", rep->max_per_host, rep->mpi,
           !rep->shared_file ? "a file or directory per rank"
           : rep->layout == SB_IO_LAYOUT_INTERLEAVED ? "one shared file (the ranks' segments interleaved"
                                                     : "one shared file (a region per rank)",
           seg, rep->layout == SB_IO_LAYOUT_INTERLEAVED ? ")" : "",
           rep->n_phases > 1 ? (rep->cache_dropped ? ", page cache dropped between phases"
                                                   : ", page cache not dropped (not root): files evicted")
                             : "");
    for (size_t i = 0; i < rep->n_phases; i++)
        print_phase(out, &rep->phase[i], i + 1 == rep->n_phases ? rep->stonewall_s : 0, rep->ranks);
}

static json_t *min_mean_max(double lo, double mean, double hi)
{
    json_t *o = json_object();
    json_object_set_new(o, "min", json_real(lo));
    json_object_set_new(o, "mean", json_real(mean));
    json_object_set_new(o, "max", json_real(hi));
    return o;
}

json_t *sb_io_ranks_json(const sb_io_ranks_report *rep)
{
    json_t *o = json_object(), *phases = json_array();
    json_object_set_new(o, "ranks", json_integer(rep->ranks));
    json_object_set_new(o, "hosts", json_integer(rep->hosts));
    json_object_set_new(o, "max_ranks_per_host", json_integer(rep->max_per_host));
    json_object_set_new(o, "mpi", json_string(rep->mpi));
    json_object_set_new(o, "shared_file", json_boolean(rep->shared_file));
    if (rep->shared_file) {
        bool il = rep->layout == SB_IO_LAYOUT_INTERLEAVED;
        json_object_set_new(o, "layout", json_string(il ? "interleaved" : "contiguous"));
        if (il)
            json_object_set_new(o, "segment_bytes", json_integer((json_int_t)rep->segment_bytes));
    }
    json_object_set_new(o, "stonewall_s", json_real(rep->stonewall_s));
    json_object_set_new(o, "page_cache_dropped", json_boolean(rep->cache_dropped));
    for (size_t i = 0; i < rep->n_phases; i++) {
        const sb_io_phase_report *ph = &rep->phase[i];
        json_t *p = json_object();
        json_object_set_new(p, "rw", json_string(ph->name));
        json_object_set_new(p, "bytes", json_integer((json_int_t)ph->bytes));
        json_object_set_new(p, "ios", json_integer((json_int_t)ph->ios));
        json_object_set_new(p, "elapsed_s", json_real(ph->elapsed_s));
        json_object_set_new(p, "bw_bytes_per_s", json_real(ph->bw));
        json_object_set_new(p, "iops", json_real(ph->iops));
        json_object_set_new(p, "per_rank_bw_bytes_per_s", min_mean_max(ph->bw_min, ph->bw_mean, ph->bw_max));
        json_object_set_new(p, "per_rank_bytes_min", json_integer((json_int_t)ph->bytes_min));
        json_object_set_new(p, "per_rank_bytes_max", json_integer((json_int_t)ph->bytes_max));
        json_object_set_new(p, "first_done_s", json_real(ph->first_done_s));
        json_object_set_new(p, "last_done_s", json_real(ph->last_done_s));
        json_object_set_new(p, "ranks_stonewalled", json_integer(ph->ranks_stonewalled));
        json_object_set_new(p, "lat_ns", sb_io_lat_json(&ph->lat));
        json_array_append_new(phases, p);
    }
    json_object_set_new(o, "phases", phases);
    return o;
}
