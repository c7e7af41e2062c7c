/*
 * devices/ssd — the physics of a flash SSD on a virtual clock.
 *
 * Every command takes the controller's serial time (ctrl-us: what bounds IOPS at
 * queue depth 32) and a fixed firmware path (cmd-us), and its data crosses the host
 * link (iface-mbps). A read takes, on the flash unit (die) that holds each page it
 * spans, a page read; pages are spread over the units by their address, so parallel
 * reads overlap when they fall on different units. A write is acknowledged once in the
 * controller's volatile buffer; the buffer fills flash pages, each programmed on the
 * unit that is free first (a log-structured FTL writes where it can, whatever the
 * address), so sequential and random writes cost the same and parallel units add up.
 * Beyond the SLC cache (slc-gb written), programs slow to the sustained TLC rate. When
 * the buffer holds more than cache-mb not yet programmed, a write waits for room.
 * FLUSH programs the page being filled (padded) and waits for every program the buffer
 * holds, then, when anything was written since the last FLUSH, commits the FTL's own
 * state (flush-us: a drive without power-loss protection writes its mapping table
 * out before it may answer): that is its cost, and what nobarrier saves. DISCARD is not
 * queued (SATA TRIM): it waits for everything outstanding, then takes discard-us.
 */
#include <errno.h>
#include <math.h>

#include "core/strutil.h"
#include "devices/internal.h"

static uint64_t us(double v)
{
    return (uint64_t)(v * 1e3);
}

static uint64_t link_ns(const sb_dev_model *m, uint64_t len)
{
    return (uint64_t)((double)len / (m->p.iface_mbps * 1e6) * 1e9);
}

int sb_dev_ssd_init(sb_dev_model *m, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    for (int i = 0; i < SB_DEV_MAX_UNITS; i++)
        m->unit_free[i] = 0;
    return 0;
}

static unsigned nunits(const sb_dev_model *m)
{
    return (unsigned)m->p.units;
}

static uint64_t page_bytes(const sb_dev_model *m)
{
    return (uint64_t)(m->p.page_kb * 1024);
}

/* The unit that holds page number pg: a multiplicative hash, so that strided patterns
 * do not all land on one die. */
static unsigned unit_of(const sb_dev_model *m, uint64_t pg)
{
    return (unsigned)((pg * 0x9E3779B97F4A7C15ull) >> 32) % nunits(m);
}

/* Time of one page program now: the SLC cache's, or the TLC rate's once it is used. */
static uint64_t prog_ns(const sb_dev_model *m)
{
    if (m->p.slc_gb > 0 && m->p.tlc_mbps > 0 && (double)m->written > m->p.slc_gb * 1e9) {
        double agg = m->p.tlc_mbps * 1e6; /* all units together */
        return (uint64_t)((double)page_bytes(m) * nunits(m) / agg * 1e9);
    }
    return us(m->p.prog_us);
}

static unsigned free_unit(const sb_dev_model *m)
{
    unsigned best = 0;
    for (unsigned u = 1; u < nunits(m); u++)
        if (m->unit_free[u] < m->unit_free[best])
            best = u;
    return best;
}

/* Programs one page with data available at t; returns when it is on the flash. */
static uint64_t program(sb_dev_model *m, uint64_t t)
{
    unsigned u = free_unit(m);
    uint64_t s = m->unit_free[u] > t ? m->unit_free[u] : t;
    m->unit_free[u] = s + prog_ns(m);
    m->written += page_bytes(m);
    return m->unit_free[u];
}

/* Bytes the buffer still holds at time t: the programs not finished by then. */
static double backlog(const sb_dev_model *m, uint64_t t)
{
    double pages = 0, pn = (double)prog_ns(m);
    for (unsigned u = 0; u < nunits(m); u++)
        if (m->unit_free[u] > t)
            pages += (double)(m->unit_free[u] - t) / pn;
    return pages * (double)page_bytes(m) + (double)m->buf_pending;
}

/* Earliest time from t on when the buffer has room for len more bytes. */
static uint64_t room_at(const sb_dev_model *m, uint64_t t, uint64_t len)
{
    double cap = m->p.cache_mb * 1048576.0;
    if (backlog(m, t) + (double)len <= cap)
        return t;
    uint64_t lo = t, hi = t;
    for (unsigned u = 0; u < nunits(m); u++)
        if (m->unit_free[u] > hi)
            hi = m->unit_free[u];
    for (int i = 0; i < 50 && hi - lo > 1; i++) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (backlog(m, mid) + (double)len <= cap)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

/* The controller's turn: starts no earlier than t, takes ctrl-us. */
static uint64_t controller(sb_dev_model *m, uint64_t t)
{
    uint64_t s = m->ctrl_free > t ? m->ctrl_free : t;
    m->ctrl_free = s + us(m->p.ctrl_us);
    return m->ctrl_free;
}

static uint64_t ssd_read(sb_dev_model *m, uint64_t off, uint64_t len, uint64_t now)
{
    uint64_t t = controller(m, now), ready = t, pb = page_bytes(m);
    for (uint64_t pg = off / pb; len && pg <= (off + len - 1) / pb; pg++) {
        unsigned u = unit_of(m, pg);
        uint64_t s = m->unit_free[u] > t ? m->unit_free[u] : t;
        m->unit_free[u] = s + us(m->p.read_us);
        if (m->unit_free[u] > ready)
            ready = m->unit_free[u];
    }
    /* The link carries the data as the pages arrive; the last one bounds the end. */
    uint64_t x = m->iface_free > t ? m->iface_free : t;
    uint64_t end = x + link_ns(m, len);
    uint64_t last = ready + link_ns(m, len < pb ? len : pb);
    if (end < last)
        end = last;
    m->iface_free = end;
    return end + us(m->p.cmd_us);
}

static uint64_t ssd_write(sb_dev_model *m, uint64_t off, uint64_t len, uint64_t now)
{
    uint64_t t = controller(m, now);
    uint64_t x = m->iface_free > t ? m->iface_free : t;
    uint64_t done = x, pb = page_bytes(m);
    /* Page by page, so a write larger than the buffer streams into it as it drains. */
    for (uint64_t left = len; left;) {
        uint64_t n = left < pb ? left : pb;
        x = room_at(m, x, n) + link_ns(m, n);
        m->buf_pending += n;
        left -= n;
        while (m->buf_pending >= pb) {
            done = program(m, x);
            m->buf_pending -= pb;
        }
    }
    m->iface_free = x;
    m->unflushed = 1;
    if (!m->p.wce || m->p.cache_mb <= 0) { /* write-through: on the flash before the answer */
        if (m->buf_pending) {
            done = program(m, x);
            m->buf_pending = 0;
        }
        return (done > x ? done : x) + us(m->p.cmd_us);
    }
    return x + us(m->p.cmd_us);
}

static uint64_t ssd_flush(sb_dev_model *m, uint64_t now)
{
    uint64_t t = controller(m, now);
    if (m->buf_pending) {
        program(m, t);
        m->buf_pending = 0;
    }
    for (unsigned u = 0; u < nunits(m); u++)
        if (m->unit_free[u] > t)
            t = m->unit_free[u];
    if (m->unflushed && m->p.flush_us > 0) {
        /* The commit is the controller's and the flash's: nothing else starts meanwhile. */
        t += us(m->p.flush_us);
        m->ctrl_free = t;
        for (unsigned u = 0; u < nunits(m); u++)
            m->unit_free[u] = t;
    }
    m->unflushed = 0;
    return t + us(m->p.cmd_us);
}

static uint64_t ssd_discard(sb_dev_model *m, uint64_t now)
{
    uint64_t t = now;
    if (m->ctrl_free > t)
        t = m->ctrl_free;
    if (m->iface_free > t)
        t = m->iface_free;
    for (unsigned u = 0; u < nunits(m); u++)
        if (m->unit_free[u] > t)
            t = m->unit_free[u];
    t += us(m->p.discard_us);
    m->ctrl_free = t;
    return t + us(m->p.cmd_us);
}

uint64_t sb_dev_ssd_service(sb_dev_model *m, sb_dev_op op, uint64_t off, uint64_t len, uint64_t now)
{
    switch (op) {
    case SB_DEV_READ:
        return ssd_read(m, off, len, now);
    case SB_DEV_WRITE:
        return ssd_write(m, off, len, now);
    case SB_DEV_FLUSH:
        return ssd_flush(m, now);
    case SB_DEV_DISCARD:
        return ssd_discard(m, now);
    }
    return now;
}
