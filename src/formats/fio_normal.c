/*
 * fio_normal — fio's normal (human) output (fio_report.h), laid out as fio 3.33's stat.c
 * prints it: the job lines ("NAME: (g=0): rw=..."), then per report block the
 * "NAME: (groupid=G, jobs=N): err= 0: pid=P: DATE" header, per direction the IOPS and
 * bandwidth line, clat and lat lines (unit from the figures, as fio: ns until the
 * smallest is over 2 us and the largest over 100 us), the percentiles (fio's columns),
 * the bandwidth and IOPS sample lines, then the latency buckets, CPU, IO depths and
 * issued counts; after all blocks "Run status group G (all jobs):" per group and
 * "Disk stats (read/write):".
 */
#include "formats/fio_report.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

/* fio's display_lat: ns, us or ms as the figures allow. */
static double lat_unit(double min, double max, const char **name)
{
    if (min > 2000000 && max > 99999999) {
        *name = "msec";
        return 1e6;
    }
    if (min > 2000 && max > 99999) {
        *name = "usec";
        return 1e3;
    }
    *name = "nsec";
    return 1;
}

static void lat_line(FILE *out, const char *what, const sb_histogram *h)
{
    const char *u;
    double div = lat_unit((double)h->min, (double)h->max, &u);
    char mn[32], mx[32];
    sb_fio_num2str(mn, sizeof mn, floor((double)h->min / div), 6, false, "");
    sb_fio_num2str(mx, sizeof mx, floor((double)h->max / div), 6, false, "");
    fprintf(out, "    %s (%s): min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", what, u, mn, mx,
            sb_hist_mean(h) / div, sb_hist_stddev(h) / div);
}

/* fio's show_clat_percentiles: the unit from the smallest and largest percentile, values
 * rounded up in it, as many per line as fit in 80 columns. */
static void percentiles(FILE *out, const sb_fio_job *j, const sb_histogram *h, const char *what)
{
    const double *pl;
    unsigned np;
    sb_fio_percentiles(j, &pl, &np);
    double v[64], minv = 0, maxv = 0;
    if (np > 64)
        np = 64;
    for (unsigned i = 0; i < np; i++) {
        v[i] = floor(sb_hist_percentile(h, pl[i]));
        if (i == 0 || v[i] < minv) minv = v[i];
        if (v[i] > maxv) maxv = v[i];
    }
    const char *u;
    double div = lat_unit(minv, maxv, &u);
    maxv = ceil(maxv / div);
    int width = maxv >= 1 ? (int)log10(maxv) + 1 : 1;
    if (width < 5)
        width = 5;
    unsigned per_line = (unsigned)((80 - 7) / (2 + 10 + width));
    fprintf(out, "    %s percentiles (%s):\n     |", what, u);
    for (unsigned i = 0; i < np; i++) {
        if (i && i % per_line == 0)
            fputs("     |", out);
        bool last = i == np - 1;
        fprintf(out, " %5.2fth=[%*.0f]%c", pl[i], width, ceil(v[i] / div), last ? '\n' : ',');
        if (!last && i % per_line == per_line - 1)
            fputc('\n', out);
    }
}

static void samples(FILE *out, const sb_fio_dir *x, double agg)
{
    double mn, mx, mean, dev;
    if (sb_fio_sample_stats(x->bw_samples, x->n_samples, &mn, &mx, &mean, &dev)) {
        double per = agg > 0 ? 100 * mean / agg : 100;
        const char *unit = "KiB";
        double div = 1024;
        if (mean / 1024 > 1024 * 1024) {
            unit = "MiB";
            div = 1024 * 1024;
        }
        fprintf(out, "   bw (%5s/s): min=%5.0f, max=%5.0f, per=%3.2f%%, avg=%5.02f, stdev=%5.02f, "
                "samples=%zu\n", unit, floor(mn / div), floor(mx / div), per > 100 ? 100 : per,
                mean / div, dev / div, x->n_samples);
    }
    if (sb_fio_sample_stats(x->iops_samples, x->n_iops_samples, &mn, &mx, &mean, &dev))
        fprintf(out, "   iops        : min=%5.0f, max=%5.0f, avg=%5.02f, stdev=%5.02f, samples=%zu\n",
                floor(mn), floor(mx), mean, dev, x->n_iops_samples);
}

/* fio's bandwidth in the normal output: bytes, or bits with unit_base=1 (fio's "Mibit/s"),
 * in significant_figures digits. */
static void bw_str(char *buf, size_t len, const sb_fio_job *j, double bw, bool pow2)
{
    unsigned sf = j->sig_figs ? j->sig_figs : 4;
    sb_fio_num2str(buf, len, j->bits ? bw * 8 : bw, (int)sf, pow2, j->bits ? "bit/s" : "B/s");
}

/* The latency lines of one direction, without those disable_* leaves out. */
static void dir_lat(FILE *out, const sb_fio_job *j, const sb_fio_dir *x)
{
    const sb_histogram *lat = x->lat ? x->lat : x->clat;
    bool slat = x->slat && x->slat->count && !j->no_slat;
    if (slat)
        lat_line(out, "slat", x->slat);
    if (!j->no_clat)
        lat_line(out, "clat", x->clat);
    if (!j->no_lat)
        lat_line(out, " lat", lat);
    for (size_t i = 0; i < x->n_prios && !j->no_clat; i++) { /* cmdprio: fio's "clat prio C/L" lines */
        char what[48];
        snprintf(what, sizeof what, "clat prio %d/%d", x->prios[i].cls, x->prios[i].level);
        if (x->prios[i].clat->count)
            lat_line(out, what, x->prios[i].clat);
    }
    /* fio's order: slat, clat, lat percentiles, each when asked for */
    if (j->slat_percentiles && slat)
        percentiles(out, j, x->slat, "slat");
    if (j->clat_percentiles && !j->no_clat)
        percentiles(out, j, x->clat, "clat");
    if (j->lat_percentiles && !j->no_lat)
        percentiles(out, j, lat, "lat");
}

static void dir_block(FILE *out, const sb_fio_job *j, int d, const sb_fio_group *g)
{
    static const char *const dn[] = {"read", "write", "trim", "mixed"};
    const sb_fio_dir *x = &j->dir[d];
    char iops[32], bwi[32], bws[32], io[32], resets[48] = "";
    unsigned sf = j->sig_figs ? j->sig_figs : 4;
    double bw = sb_fio_bw(j, d);
    if (d == SB_FIO_WRITE) /* fio prints it for every write, zoned or not */
        snprintf(resets, sizeof resets, "; %" PRIu64 " zone resets", j->zone_resets);
    sb_fio_num2str(iops, sizeof iops, sb_fio_iops(j, d), (int)sf, false, "");
    bw_str(bwi, sizeof bwi, j, bw, true);
    bw_str(bws, sizeof bws, j, bw, false);
    sb_fio_num2str(io, sizeof io, (double)x->bytes, (int)sf, true, "B");
    fprintf(out, "  %s: IOPS=%s, BW=%s (%s)(%s/%.0fmsec)%s\n", dn[d], iops, bwi, bws, io,
            sb_fio_dir_runtime(j, d) * 1000, resets);
    if (x->clat && x->clat->count)
        dir_lat(out, j, x);
    samples(out, x, g->agg_bw[d]);
}

/* fio's show_lat: the buckets over 0, five to a line. */
static void lat_buckets(FILE *out, const double *v, int n, const char *unit)
{
    int line = 0;
    bool shown = false;
    for (int i = 0; i < n; i++) {
        if (v[i] <= 0)
            continue;
        if (line == 0)
            fprintf(out, "%s  lat (%s)   : ", shown ? "\n" : "", unit);
        fprintf(out, "%s%s=%3.2f%%", line ? ", " : "", sb_fio_lat_labels[i], v[i] < 0.01 ? 0.01 : v[i]);
        shown = true;
        line = line == 4 ? 0 : line + 1;
    }
    if (shown)
        fputc('\n', out);
}

static void job_block(FILE *out, const sb_fio_report *r, const sb_fio_job *j)
{
    char when[64];
    struct tm tm;
    localtime_r(&r->when, &tm);
    strftime(when, sizeof when, "%a %b %e %H:%M:%S %Y", &tm);
    fprintf(out, "%s: (groupid=%u, jobs=%u): err=%2d: pid=%ld: %s\n", j->name, j->groupid, j->jobs,
            j->error, j->pid, when);
    if (j->desc)
        fprintf(out, "  Description  : [%s]\n", j->desc);
    sb_fio_group g;
    sb_fio_group_of(r, j->groupid, &g);
    int dirs[SB_FIO_NDIRS], nd = sb_fio_dirs(j, dirs);
    for (int k = 0; k < nd; k++)
        if (j->dir[dirs[k]].ios && j->dir[dirs[k]].runtime_s >= 0) /* fio's: none without a runtime */
            dir_block(out, j, dirs[k], &g);
    double ns[10], us[10], ms[12];
    sb_fio_lat_buckets(j->lat_all, ns, us, ms);
    lat_buckets(out, ns, 10, "nsec");
    lat_buckets(out, us, 10, "usec");
    lat_buckets(out, ms, 12, "msec");
    if (j->sync_lat && j->sync_lat->count) { /* fsync=N's syncs, after the buckets, as fio */
        fputs("  fsync/fdatasync/sync_file_range:\n", out);
        lat_line(out, "sync", j->sync_lat);
        if (j->clat_percentiles)
            percentiles(out, j, j->sync_lat, "sync");
    }
    fprintf(out, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%" PRIu64 ", majf=%" PRIu64
            ", minf=%" PRIu64 "\n", j->usr_pct, j->sys_pct, j->ctx, j->majf, j->minf);
    if (j->depth_known) {
        double l[7], s[7], c[7];
        sb_fio_shares(j->depth_level, l);
        sb_fio_shares(j->depth_submit, s);
        sb_fio_shares(j->depth_complete, c);
        fprintf(out, "  IO depths    : 1=%3.1f%%, 2=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, 16=%3.1f%%, 32=%3.1f%%, "
                ">=64=%3.1f%%\n", l[0], l[1], l[2], l[3], l[4], l[5], l[6]);
        fprintf(out, "     submit    : 0=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, 16=%3.1f%%, 32=%3.1f%%, 64=%3.1f%%, "
                ">=64=%3.1f%%\n", s[0], s[1], s[2], s[3], s[4], s[5], s[6]);
        fprintf(out, "     complete  : 0=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, 16=%3.1f%%, 32=%3.1f%%, 64=%3.1f%%, "
                ">=64=%3.1f%%\n", c[0], c[1], c[2], c[3], c[4], c[5], c[6]);
    }
    bool mixed = j->unified == SB_FIO_UNIFIED_MIXED; /* fio counts them all as the first */
    /* the fourth are the fsyncs; fio counts fdatasyncs as the reads' "short" */
    uint64_t datasyncs = j->sync_lat ? j->sync_lat->count - j->sync_ios : 0;
    fprintf(out, "     issued rwts: total=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 " short=%" PRIu64
            ",0,0,0 dropped=0,0,0,0\n", mixed ? j->dir[SB_FIO_MIXED].ios : j->dir[0].ios,
            mixed ? 0 : j->dir[1].ios, mixed ? 0 : j->dir[2].ios, j->sync_ios, datasyncs);
    if (j->continue_on_error)
        fprintf(out, "     errors    : total=%" PRIu64 ", first_error=%d/<%s>\n", j->total_err,
                j->first_error, strerror(j->first_error));
    fprintf(out, "     latency   : target=%" PRIu64 ", window=%" PRIu64 ", percentile=%.2f%%, depth=%u\n",
            j->latency_target_ns, j->latency_window_us, j->latency_percentile, j->latency_depth);
}

/* The job lines fio prints as it starts them: one per job, "..." for its clones. */
static void job_lines(FILE *out, const sb_fio_report *r)
{
    unsigned threads = 0;
    for (size_t i = 0; i < r->n_jobs; i++) {
        const sb_fio_job *j = &r->jobs[i];
        threads += j->jobs;
        if (i && !strcmp(r->jobs[i - 1].name, j->name) && r->jobs[i - 1].groupid == j->groupid) {
            if (i < 2 || strcmp(r->jobs[i - 2].name, j->name))
                fputs("...\n", out);
            continue;
        }
        char lo[32], hi[32], bs[80];
        sb_fio_num2str(lo, sizeof lo, (double)j->bs_min, 4, true, "B");
        sb_fio_num2str(hi, sizeof hi, (double)j->bs_max, 4, true, "B");
        snprintf(bs, sizeof bs, "%s-%s", lo, hi);
        fprintf(out, "%s: (g=%u): rw=%s, bs=(R) %s, (W) %s, (T) %s, ioengine=%s, iodepth=%u\n",
                j->name, j->groupid, j->rw, bs, bs, bs, j->engine, j->iodepth);
        if (j->jobs > 1)
            fputs("...\n", out);
    }
    fprintf(out, "storbench-%s (output as %s)\nStarting %u thread%s\n", r->version, SB_FIO_SCHEMA,
            threads, threads == 1 ? "" : "s");
}

/* One direction's line of a group, as its first job's options say (fio's group run stats). */
static void group_line(FILE *out, const sb_fio_job *j, const sb_fio_group *g, int d)
{
    static const char *const dn[] = {"   READ", "  WRITE", "   TRIM", "  MIXED"};
    int sf = j->sig_figs ? (int)j->sig_figs : 4;
    char a[32], as[32], lo[32], los[32], hi[32], his[32], io[32], ios[32];
    bw_str(a, sizeof a, j, g->agg_bw[d], true);
    bw_str(as, sizeof as, j, g->agg_bw[d], false);
    bw_str(lo, sizeof lo, j, g->min_bw[d], true);
    bw_str(los, sizeof los, j, g->min_bw[d], false);
    bw_str(hi, sizeof hi, j, g->max_bw[d], true);
    bw_str(his, sizeof his, j, g->max_bw[d], false);
    sb_fio_num2str(io, sizeof io, (double)g->bytes[d], sf, true, "B");
    sb_fio_num2str(ios, sizeof ios, (double)g->bytes[d], sf, false, "B");
    fprintf(out, "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%.0f-%.0fmsec\n", dn[d], a,
            as, lo, hi, los, his, io, ios, g->min_run_s[d] * 1000, g->max_run_s[d] * 1000);
}

void sb_fio_print_normal_header(FILE *out, const sb_fio_report *r)
{
    job_lines(out, r);
}

static void run_status(FILE *out, const sb_fio_report *r)
{
    for (size_t i = 0; i < r->n_jobs; i++) {
        unsigned id = r->jobs[i].groupid;
        bool seen = false;
        for (size_t k = 0; k < i; k++)
            seen |= r->jobs[k].groupid == id;
        if (seen)
            continue;
        sb_fio_group g;
        sb_fio_group_of(r, id, &g);
        fprintf(out, "\nRun status group %u (all jobs):\n", id);
        int dirs[SB_FIO_NDIRS], nd = sb_fio_dirs(&r->jobs[i], dirs);
        for (int k = 0; k < nd; k++)
            if (g.bytes[dirs[k]] && g.max_run_s[dirs[k]] > 0) /* fio's: none of 0 ms */
                group_line(out, &r->jobs[i], &g, dirs[k]);
    }
}

void sb_fio_print_normal(FILE *out, const sb_fio_report *r,
                         void (*extra)(FILE *out, size_t i, void *arg), void *arg)
{
    if (!r->header_done)
        job_lines(out, r);
    fputc('\n', out);
    for (size_t i = 0; i < r->n_jobs; i++) {
        const sb_fio_job *j = &r->jobs[i];
        if (j->error && !j->dir[0].ios && !j->dir[1].ios && !j->dir[2].ios)
            continue; /* a job that failed before any I/O: fio's normal output has no block */
        job_block(out, r, j);
        if (extra)
            extra(out, i, arg);
    }
    run_status(out, r);
    if (r->n_disks)
        fputs("\nDisk stats (read/write):\n", out);
    for (size_t i = 0; i < r->n_disks; i++) {
        const sb_fio_disk *d = &r->disks[i];
        fprintf(out, "  %s: ios=%" PRIu64 "/%" PRIu64 ", merge=%" PRIu64 "/%" PRIu64 ", ticks=%" PRIu64
                "/%" PRIu64 ", in_queue=%" PRIu64 ", util=%3.2f%%\n", d->name, d->ios[0], d->ios[1],
                d->merges[0], d->merges[1], d->ticks[0], d->ticks[1], d->in_queue, d->util_pct);
    }
}
