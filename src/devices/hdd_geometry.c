/*
 * devices/hdd_geometry — where a byte of a hard disk lies and how long the arm and the
 * platter take to reach it: the zones, the rotation, the seek curve and the placement of
 * the image on the disk. hdd.c times the commands with it, hdd_cache.c orders destages.
 *
 * Geometry: constant linear density, so a track's capacity and the media rate grow
 * with the radius r, from rate-inner at the innermost track to rate-outer at the
 * outermost (LBA 0). Bytes outside radius r grow as r_out^2 - r^2, which gives the
 * radius of every offset; tracks are evenly spaced in radius, so the continuous track
 * number of an offset is its revolution count from LBA 0 and its fractional part is
 * its angle on the platter (a sequential transfer of len bytes turns the platter by
 * exactly len / track bytes: streaming needs no rotational wait).
 *
 * Seek: 0 inside a cylinder, then track-to-track + a*sqrt(d) up to a knee k and a
 * straight line (same slope) to the full stroke at d = 1, d the radial distance as a
 * fraction of the stroke. a and k are solved so that the curve passes through the
 * datasheet's three points: track-to-track, full stroke, and the average, which
 * datasheets define as the mean over all pairs of cylinders (density 2(1-d)).
 *
 * Placement: the image is the disk's first bytes (a small partition at its start), or,
 * with span-gb, its 128 MiB pieces (ext4's block group with 4 KiB blocks) spread evenly
 * over the first span-gb of the disk, as the block groups of a filesystem over the
 * whole disk are: what the filesystem keeps apart (its journal in the middle, the
 * groups of different directories) is a long seek apart, as on the seed's whole-disk
 * ext4, while each piece keeps its own tracks (streaming within it is unchanged).
 */
#include <errno.h>
#include <math.h>

#include "core/strutil.h"
#include "devices/internal.h"

/* span-gb's pieces: an ext4 block group (32768 blocks of 4 KiB). */
#define PIECE (128ull << 20)

static double frac(double x)
{
    return x - floor(x);
}

/* Where the image's byte off lies on the disk (span-gb: its piece's place, else off). */
static uint64_t disk_off(const sb_dev_model *m, uint64_t off)
{
    return m->stride ? off / PIECE * m->stride + off % PIECE : off;
}

uint64_t sb_dev_hdd_disk_offset(const sb_dev_model *m, uint64_t off)
{
    return m->p.kind == SB_DEV_KIND_HDD ? disk_off(m, off) : off;
}

/* Radial position of disk offset off: 0 at the outermost track, 1 at the innermost. */
static double radial_at(const sb_dev_model *m, uint64_t off)
{
    double f = (double)off / (double)m->capacity;
    if (f > 1)
        f = 1;
    double y = f * (1 - m->rho * m->rho);
    /* 1 - sqrt(1 - y), without cancellation near the outer edge */
    double one_minus_r = y / (1 + sqrt(1 - y));
    return one_minus_r / (1 - m->rho);
}

/* Radial position of the image's offset off. */
static double radial(const sb_dev_model *m, uint64_t off)
{
    return radial_at(m, disk_off(m, off));
}

static double track_of(const sb_dev_model *m, uint64_t off)
{
    return radial(m, off) * m->tracks;
}

double sb_dev_hdd_media_rate(const sb_dev_model *m, uint64_t off)
{
    if (m->p.kind != SB_DEV_KIND_HDD)
        return 0;
    double r = 1 - radial(m, off) * (1 - m->rho);
    return m->p.rate_outer_mbps * 1e6 * r;
}

double sb_dev_hdd_angle_of(const sb_dev_model *m, uint64_t off)
{
    return m->p.kind == SB_DEV_KIND_HDD ? frac(track_of(m, off)) : 0;
}

double sb_dev_hdd_angle_at(const sb_dev_model *m, uint64_t t_ns)
{
    if (m->p.kind != SB_DEV_KIND_HDD)
        return 0;
    /* Split the division so that large t keeps its sub-revolution precision. */
    uint64_t rev = (uint64_t)m->rev_ns;
    double whole = (double)(t_ns / rev) * ((double)rev / m->rev_ns);
    return frac(frac(whole) + (double)(t_ns % rev) / m->rev_ns);
}

/* The curve's time (ms) at radial distance d > one cylinder. */
static double curve_ms(double t2t, double a, double k, double d)
{
    if (d <= k)
        return t2t + a * sqrt(d);
    return t2t + a * sqrt(k) + a / (2 * sqrt(k)) * (d - k);
}

static double curve_a(const sb_dev_params *p, double k)
{
    return (p->seek_full_ms - p->seek_t2t_ms) / (sqrt(k) + (1 - k) / (2 * sqrt(k)));
}

/* Mean of the curve over all pairs of cylinders: density 2(1-d) on [0, 1]. */
static double curve_mean(const sb_dev_params *p, double k)
{
    double a = curve_a(p, k), sum = 0;
    const int n = 4000;
    for (int i = 0; i < n; i++) {
        double d = (i + 0.5) / n;
        sum += 2 * (1 - d) * curve_ms(p->seek_t2t_ms, a, k, d) / n;
    }
    return sum;
}

static int solve_seek(sb_dev_model *m, char *err, size_t errlen)
{
    const sb_dev_params *p = &m->p;
    double lo = 1e-6, hi = 1;
    double mlo = curve_mean(p, lo), mhi = curve_mean(p, hi);
    if (p->seek_avg_ms < mlo || p->seek_avg_ms > mhi) {
        sb_fmt(err, errlen,
               "device model '%s': seek-avg-ms=%g cannot be reached with seek-t2t-ms=%g and seek-full-ms=%g "
               "(between %.2f and %.2f)",
               m->preset, p->seek_avg_ms, p->seek_t2t_ms, p->seek_full_ms, mlo, mhi);
        return -EINVAL;
    }
    for (int i = 0; i < 60; i++) {
        double mid = (lo + hi) / 2;
        if (curve_mean(p, mid) < p->seek_avg_ms)
            lo = mid;
        else
            hi = mid;
    }
    m->seek_k = (lo + hi) / 2;
    m->seek_a = curve_a(p, m->seek_k);
    return 0;
}

int sb_dev_hdd_init(sb_dev_model *m, char *err, size_t errlen)
{
    const sb_dev_params *p = &m->p;
    m->rev_ns = 60e9 / p->rpm;
    m->rho = p->rate_inner_mbps / p->rate_outer_mbps;
    if (m->rho > 0.999)
        m->rho = 0.999; /* one zone: keep the radius formula finite */
    double bt_out = p->rate_outer_mbps * 1e6 * m->rev_ns / 1e9;
    m->tracks = 2 * (double)m->capacity / (bt_out * (1 + m->rho));
    uint64_t span = (uint64_t)(p->span_gb * 1e9);
    if (span > m->capacity) {
        sb_fmt(err, errlen, "device model '%s': span-gb=%g is more than the disk's capacity-gb=%g", m->preset,
               p->span_gb, p->capacity_gb);
        return -EINVAL;
    }
    m->stride = 0;
    uint64_t pieces = (m->size + PIECE - 1) / PIECE;
    if (span && pieces > 1 && span / pieces > PIECE) /* the pieces fit the span with room between */
        m->stride = (span - PIECE) / (pieces - 1);
    return solve_seek(m, err, errlen);
}

uint64_t sb_dev_hdd_seek_ns(const sb_dev_model *m, uint64_t a, uint64_t b)
{
    if (m->p.kind != SB_DEV_KIND_HDD)
        return 0;
    double ca = track_of(m, a) / m->p.heads, cb = track_of(m, b) / m->p.heads;
    if (fabs(floor(ca) - floor(cb)) < 1)
        return 0; /* same cylinder: a head switch, hidden by the track skew */
    double d = fabs(radial(m, a) - radial(m, b));
    return (uint64_t)(curve_ms(m->p.seek_t2t_ms, m->seek_a, m->seek_k, d) * 1e6);
}

/* Seek, settle and rotational wait from the head's position at time t to offset off. */
uint64_t sb_dev_hdd_reach(const sb_dev_model *m, int write, uint64_t off, uint64_t t)
{
    uint64_t seek = sb_dev_hdd_seek_ns(m, m->head_off, off);
    if (write)
        seek += (uint64_t)(m->p.write_settle_ms * 1e6);
    double wait = frac(sb_dev_hdd_angle_of(m, off) - sb_dev_hdd_angle_at(m, t + seek));
    if (wait > 1 - 1e-6)
        wait = 0; /* already there: nanosecond rounding, not a whole revolution */
    return seek + (uint64_t)(wait * m->rev_ns);
}

/* Media time of [off, end): the revolutions it spans (exactly the geometry's, so the
 * platter's angle at the end is the angle of end). */
uint64_t sb_dev_hdd_media_ns(const sb_dev_model *m, uint64_t off, uint64_t end)
{
    /* From off's place on: a transfer crossing into the next piece streams on (the
     * piece boundary is a filesystem's, not a jump of the arm mid-transfer). */
    uint64_t d = disk_off(m, off);
    return (uint64_t)((radial_at(m, d + (end - off)) - radial_at(m, d)) * m->tracks * m->rev_ns);
}

