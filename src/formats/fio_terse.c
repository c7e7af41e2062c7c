/*
 * fio_terse — fio's terse output, versions 2 to 5 (fio_report.h): one semicolon-separated line
 * per job in the field order fio's HOWTO documents ("terse_version_3"): version, fio
 * version, jobname, groupid, error; per direction read then write (version 3 has no
 * trim) the I/O in KiB, bandwidth in KiB/s, IOPS, runtime in ms, submission, completion
 * (with 20 percentile fields, padded with "0%=0" as fio's) and total latency in us, and
 * the bandwidth statistics; CPU, IO depths, the latency buckets in us and ms; then each
 * disk's utilization. A field storbench does not measure is left empty, never filled
 * with a guess. fio's other versions (--terse-version): 2 starts "2;jobname;groupid;error"
 * (no fio version) and has no disks; 2, 4 and 5 have trim after write; 5 adds to each
 * direction the bandwidth samples and IOPS min;max;mean;dev;samples.
 */
#include "formats/fio_report.h"

#include <inttypes.h>
#include <math.h>

/* min;max;mean;dev in us of a latency histogram (NULL: none, zeros) */
static void lat(FILE *out, const sb_histogram *h)
{
    uint64_t n = h ? h->count : 0;
    fprintf(out, ";%" PRIu64 ";%" PRIu64 ";%f;%f", n ? h->min / 1000 : 0, n ? h->max / 1000 : 0,
            n ? sb_hist_mean(h) / 1000 : 0, n ? sb_hist_stddev(h) / 1000 : 0);
}

static void dir(FILE *out, const sb_fio_job *j, int d, const sb_fio_group *g, int ver)
{
    const sb_fio_dir *x = &j->dir[d];
    double bw = x->ios ? sb_fio_bw(j, d) : 0;
    fprintf(out, ";%" PRIu64 ";%.0f;%.0f;%.0f", x->bytes / 1024, floor(bw / 1024),
            x->ios ? sb_fio_iops(j, d) : 0, x->ios ? sb_fio_dir_runtime(j, d) * 1000 : 0);
    /* total latency (fio_report.h); disable_* leave theirs as zeros */
    const sb_histogram *tl = j->no_lat ? NULL : x->lat ? x->lat : x->clat;
    const sb_histogram *cl = j->no_clat ? NULL : x->clat;
    lat(out, j->no_slat ? NULL : x->slat); /* an asynchronous engine's; zeros for a synchronous one, as fio */
    lat(out, cl);
    const double *pl;
    unsigned np, i = 0;
    sb_fio_percentiles(j, &pl, &np);
    /* fio: lat_percentiles lists the total latency's, else clat_percentiles the clat's */
    const sb_histogram *ph = j->lat_percentiles ? tl : cl;
    bool any = ph && ph->count; /* fio prints the list, 0 when there is no I/O */
    for (; (j->clat_percentiles || j->lat_percentiles) && i < np && i < 20; i++)
        fprintf(out, ";%f%%=%.0f", pl[i], any ? floor(sb_hist_percentile(ph, pl[i]) / 1000) : 0);
    for (; i < 20; i++)
        fputs(";0%=0", out);
    lat(out, tl);
    double mn, mx, mean, dev;
    size_t n = x->ios ? x->n_samples : 0;
    sb_fio_sample_stats(x->bw_samples, n, &mn, &mx, &mean, &dev);
    fprintf(out, ";%.0f;%.0f;%f%%;%f;%f", mn / 1024, mx / 1024,
            n && g->agg_bw[d] > 0 ? 100 * mean / g->agg_bw[d] : 0, mean / 1024, dev / 1024);
    if (ver == 5) {
        sb_fio_sample_stats(x->iops_samples, n, &mn, &mx, &mean, &dev);
        fprintf(out, ";%zu;%.0f;%.0f;%f;%f;%zu", n, mn, mx, mean, dev, n);
    }
}

static void job_line(FILE *out, const sb_fio_report *r, const sb_fio_job *j)
{
    sb_fio_group g;
    sb_fio_group_of(r, j->groupid, &g);
    int ver = r->terse_version ? r->terse_version : 3;
    if (ver == 2)
        fprintf(out, "2;%s;%u;%d", j->name, j->groupid, j->error);
    else
        fprintf(out, "%d;%s;%s;%u;%d", ver, SB_FIO_SCHEMA, j->name, j->groupid, j->error);
    if (j->unified == SB_FIO_UNIFIED_MIXED) { /* fio: the mixed figures in the read fields, alone */
        dir(out, j, SB_FIO_MIXED, &g, ver);
    } else {
        dir(out, j, SB_FIO_READ, &g, ver);
        dir(out, j, SB_FIO_WRITE, &g, ver);
        if (ver != 3)
            dir(out, j, SB_FIO_TRIM, &g, ver);
        if (j->unified == SB_FIO_UNIFIED_BOTH)
            dir(out, j, SB_FIO_MIXED, &g, ver);
    }
    fprintf(out, ";%f%%;%f%%;%" PRIu64 ";%" PRIu64 ";%" PRIu64, j->usr_pct, j->sys_pct, j->ctx,
            j->majf, j->minf);
    double p[7];
    sb_fio_shares(j->depth_level, p);
    for (int i = 0; i < 7; i++) {
        if (j->depth_known)
            fprintf(out, ";%3.1f%%", p[i]);
        else
            fputc(';', out);
    }
    double ns[10], us[10], ms[12];
    sb_fio_lat_buckets(j->lat_all, ns, us, ms);
    for (int i = 0; i < 10; i++)
        fprintf(out, ";%3.2f%%", us[i]);
    for (int i = 0; i < 12; i++)
        fprintf(out, ";%3.2f%%", ms[i]);
    for (size_t i = 0; ver >= 3 && i < r->n_disks; i++) {
        const sb_fio_disk *k = &r->disks[i];
        fprintf(out, ";%s;%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64
                ";%" PRIu64 ";%3.2f%%", k->name, k->ios[0], k->ios[1], k->merges[0], k->merges[1],
                k->ticks[0], k->ticks[1], k->in_queue, k->util_pct);
    }
    if (j->continue_on_error) /* fio's two fields after the disks' */
        fprintf(out, ";%" PRIu64 ";%d", j->total_err, j->first_error);
    if (j->desc) /* fio's last field; version 2 puts it on a line of its own */
        fprintf(out, "%s;%s", ver == 2 ? "\n" : "", j->desc);
    fputc('\n', out);
}

void sb_fio_print_terse(FILE *out, const sb_fio_report *r)
{
    for (size_t i = 0; i < r->n_jobs; i++)
        job_line(out, r, &r->jobs[i]);
}
