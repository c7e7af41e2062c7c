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
 * Pages program into the SLC buffer (slc-gb, TurboWrite) while it has room and straight
 * to TLC at the sustained tlc-mbps when it is full; it empties to TLC only in idle time
 * (after slc-idle-ms without work, at tlc-mbps), and slc-fill sets how full it starts. When
 * the buffer holds more than cache-mb not yet programmed, a write waits for room.
 * FLUSH programs the page being filled (padded) and waits for every program the buffer
 * holds, then, when anything was written since the last FLUSH, commits the FTL's own
 * state (flush-us: a drive without power-loss protection writes its mapping table out
 * before it may answer): that is its cost, and what nobarrier saves. With the write
 * cache off (wce=0) every write is on the flash before its answer and then commits
 * (wt-commit-us: what the 850 EVO's write-through writes were measured to cost,
 * docs/devices.md). DISCARD is not queued (SATA TRIM): it waits for everything
 * outstanding, then takes discard-us.
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
    /* A preconditioned drive (slc-fill=1) starts as one whose buffer a long write filled. */
    m->slc_used = m->p.slc_fill * m->p.slc_gb * 1e9;
    m->busy_until = 0;
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

/* The SLC buffer (TurboWrite): pages program into it at prog-us while it has room; when
 * it is full they go straight to TLC at the sustained tlc-mbps (all units together). It
 * empties only in idle time (drain()). Without slc-gb or tlc-mbps there is no TLC limit. */
static int slc_modeled(const sb_dev_model *m)
{
    return m->p.slc_gb > 0 && m->p.tlc_mbps > 0;
}

static int slc_full(const sb_dev_model *m)
{
    return slc_modeled(m) && m->slc_used + (double)page_bytes(m) > m->p.slc_gb * 1e9;
}

static uint64_t tlc_prog_ns(const sb_dev_model *m)
{
    return (uint64_t)((double)page_bytes(m) * nunits(m) / (m->p.tlc_mbps * 1e6) * 1e9);
}

/* Time of the next page program: the SLC buffer's, or TLC's when the buffer is full. */
static uint64_t prog_ns(const sb_dev_model *m)
{
    return slc_full(m) ? tlc_prog_ns(m) : us(m->p.prog_us);
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
    if (slc_full(m)) {
        m->unit_free[u] = s + tlc_prog_ns(m);
        m->st.tlc_bytes += page_bytes(m);
    } else {
        m->unit_free[u] = s + us(m->p.prog_us);
        if (slc_modeled(m))
            m->slc_used += (double)page_bytes(m);
        m->st.slc_bytes += page_bytes(m);
    }
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

/* The FTL commits its state from t on, holding the controller and the flash: nothing
 * else starts meanwhile; what was written is then durable, so a FLUSH has nothing to
 * commit until the next write. */
static uint64_t commit(sb_dev_model *m, uint64_t t, double commit_us)
{
    m->st.commits++;
    m->unflushed = 0;
    t += us(commit_us);
    m->ctrl_free = t;
    for (unsigned u = 0; u < nunits(m); u++)
        m->unit_free[u] = t;
    return t;
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
        done = done > x ? done : x;
        if (m->p.wt_commit_us > 0)
            done = commit(m, done, m->p.wt_commit_us);
        return done + us(m->p.cmd_us);
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
    if (m->unflushed && m->p.flush_us > 0)
        t = commit(m, t, m->p.flush_us);
    m->unflushed = 0;
    return t + us(m->p.cmd_us);
}

/* The later of t and the moment the controller, the link and every unit are free. */
static uint64_t all_free(const sb_dev_model *m, uint64_t t)
{
    if (m->ctrl_free > t)
        t = m->ctrl_free;
    if (m->iface_free > t)
        t = m->iface_free;
    for (unsigned u = 0; u < nunits(m); u++)
        if (m->unit_free[u] > t)
            t = m->unit_free[u];
    return t;
}

static uint64_t ssd_discard(sb_dev_model *m, uint64_t now)
{
    uint64_t t = all_free(m, now) + us(m->p.discard_us);
    m->ctrl_free = t;
    return t + us(m->p.cmd_us);
}

/* Idle time moves the SLC buffer to TLC: after slc-idle-ms with nothing to do, at the
 * TLC program rate (the copy is TLC programs), until the buffer is empty or a command
 * arrives (which finds the copy suspended: its cost is not modeled). The time before the
 * first command is not idle time: the device starts in the state slc-fill gives it. */
static void drain(sb_dev_model *m, uint64_t now)
{
    uint64_t idle = us(m->p.slc_idle_ms * 1e3);
    if (!slc_modeled(m) || m->slc_used <= 0 || !m->busy_until || now <= m->busy_until + idle)
        return;
    double moved = (double)(now - m->busy_until - idle) / 1e9 * m->p.tlc_mbps * 1e6;
    if (moved > m->slc_used)
        moved = m->slc_used;
    m->slc_used -= moved;
    m->st.drained_bytes += (uint64_t)moved;
}

/* When the device's last work (controller, link, every unit) ends. */
static uint64_t busy_end(const sb_dev_model *m, uint64_t c)
{
    return all_free(m, c > m->busy_until ? c : m->busy_until);
}

uint64_t sb_dev_ssd_service(sb_dev_model *m, sb_dev_op op, uint64_t off, uint64_t len, uint64_t now)
{
    uint64_t c = now;
    drain(m, now);
    switch (op) {
    case SB_DEV_READ:
        c = ssd_read(m, off, len, now);
        break;
    case SB_DEV_WRITE:
        c = ssd_write(m, off, len, now);
        break;
    case SB_DEV_FLUSH:
        c = ssd_flush(m, now);
        break;
    case SB_DEV_DISCARD:
        c = ssd_discard(m, now);
        break;
    }
    m->busy_until = busy_end(m, c);
    return c;
}
