/*
 * devices/hdd — a hard disk's commands on a virtual clock: where the arm and the
 * platter are comes from hdd_geometry.c (zones, rotation, the seek curve, placement).
 *
 * A read that the media must serve waits for the arm (seek, settle, rotation, media
 * transfer); a read that follows the previous one is served by read-ahead at the
 * media rate. A write goes into the volatile cache (interface time only) when it has
 * room; the cache is destaged whenever the arm is idle, its extents merged, the
 * shortest positioning first among the oldest (hdd_cache.c), so sequential small writes
 * reach the media as one long transfer and random ones cost a positioning each. FLUSH waits for everything the cache holds.
 */
#include <errno.h>
#include <math.h>

#include "core/strutil.h"
#include "devices/internal.h"

/* How far read-ahead may run ahead of the host (bytes): one cache segment. */
#define RA_MAX (2u << 20)

static uint64_t xfer_ns(double bytes, double rate)
{
    return (uint64_t)(bytes / rate * 1e9);
}

/* One media transfer starting no earlier than t; returns when it ends. */
static uint64_t media_op(sb_dev_model *m, int write, uint64_t off, uint64_t len, uint64_t t)
{
    if (t < m->media_free)
        t = m->media_free;
    t += sb_dev_hdd_reach(m, write, off, t);
    t += sb_dev_hdd_media_ns(m, off, off + len);
    m->head_off = off + len;
    m->media_free = t;
    m->ra_valid = 0;
    return t;
}

/* Destages one extent (the elevator's next) starting no earlier than t. 0: cache empty. */
static int destage_one(sb_dev_model *m, uint64_t t)
{
    sb_dev_extent e;
    if (!sb_dev_cache_take(m, t > m->media_free ? t : m->media_free, &e))
        return 0;
    media_op(m, 1, e.off, e.len, t > e.at ? t : e.at);
    return 1;
}

/* Background destage: whatever the arm had idle time for before now. */
static void destage_until(sb_dev_model *m, uint64_t now)
{
    while (m->ndirty && m->media_free < now)
        if (!destage_one(m, m->media_free))
            break;
}

/* Host-side cost of a command: overhead plus the link transfer, on the serial link. */
static uint64_t link(sb_dev_model *m, uint64_t t, uint64_t len)
{
    if (t < m->iface_free)
        t = m->iface_free;
    t += (uint64_t)(m->p.cmd_us * 1e3) + xfer_ns((double)len, m->p.iface_mbps * 1e6);
    m->iface_free = t;
    return t;
}

/* Read-ahead: the time byte b has been read by the media stream, or 0 when b is not in
 * the stream the drive is reading ahead. */
static uint64_t ra_ready(const sb_dev_model *m, uint64_t off, uint64_t end)
{
    if (!m->ra_valid || off < m->ra_off || off > m->ra_off + RA_MAX)
        return 0;
    return m->ra_time + sb_dev_hdd_media_ns(m, m->ra_off, end);
}

static uint64_t hdd_read(sb_dev_model *m, uint64_t off, uint64_t len, uint64_t now)
{
    if (sb_dev_cache_covers(m, off, len))
        return link(m, now, len);
    uint64_t ready = ra_ready(m, off, off + len);
    if (ready) {
        uint64_t c = link(m, now, len);
        if (c < ready)
            c = ready;
        double rate = sb_dev_hdd_media_rate(m, off);
        uint64_t lead = xfer_ns(RA_MAX, rate);
        m->ra_off = off + len;
        m->ra_time = c > lead && c - lead > ready ? c - lead : ready;
        m->head_off = off + len;
        m->media_free = m->ra_time;
        return c;
    }
    uint64_t start = now + (uint64_t)(m->p.cmd_us * 1e3);
    uint64_t end = media_op(m, 0, off, len, start);
    uint64_t c = link(m, now, len);
    if (c < end)
        c = end;
    m->iface_free = c;
    m->ra_valid = 1;
    m->ra_off = off + len;
    m->ra_time = end;
    return c;
}

static uint64_t hdd_write(sb_dev_model *m, uint64_t off, uint64_t len, uint64_t now)
{
    uint64_t cache = (uint64_t)(m->p.cache_mb * 1048576.0);
    if (!m->p.wce || len > cache) {
        uint64_t c = link(m, now, len);
        uint64_t end = media_op(m, 1, off, len, c);
        return end;
    }
    uint64_t room = now;
    while (m->dirty_bytes + len > cache && destage_one(m, now))
        room = m->media_free;
    uint64_t c = link(m, now, len);
    if (c < room)
        c = room;
    if (m->ra_valid && off + len > m->ra_off && off < m->ra_off + RA_MAX)
        m->ra_valid = 0; /* the stream read ahead holds what this write replaces */
    sb_dev_cache_add(m, off, len, c);
    return c;
}

uint64_t sb_dev_hdd_service(sb_dev_model *m, sb_dev_op op, uint64_t off, uint64_t len, uint64_t now)
{
    destage_until(m, now);
    switch (op) {
    case SB_DEV_READ:
        return hdd_read(m, off, len, now);
    case SB_DEV_WRITE:
        return hdd_write(m, off, len, now);
    case SB_DEV_FLUSH: {
        uint64_t t = now > m->media_free ? now : m->media_free;
        while (destage_one(m, t))
            t = m->media_free;
        return link(m, t, 0);
    }
    case SB_DEV_DISCARD:
        /* No TRIM on a disk: what the cache held for the range is dropped, nothing more. */
        sb_dev_cache_drop(m, off, len);
        return link(m, now, 0);
    }
    return now;
}

uint64_t sb_dev_hdd_position(const sb_dev_model *m, sb_dev_op op, uint64_t off, uint64_t now)
{
    uint64_t cache = (uint64_t)(m->p.cache_mb * 1048576.0);
    if (op == SB_DEV_FLUSH || op == SB_DEV_DISCARD)
        return 0;
    if (op == SB_DEV_WRITE && m->p.wce && m->dirty_bytes < cache)
        return 0;
    if (op == SB_DEV_READ && ra_ready(m, off, off + 1))
        return 0;
    uint64_t start = now > m->media_free ? now : m->media_free;
    return (start - now) + sb_dev_hdd_reach(m, op == SB_DEV_WRITE, off, start);
}
