/*
 * devices/hdd_cache — the disk's volatile write cache as extents sorted by offset and
 * merged when they touch, so that small sequential writes become one long media
 * transfer, and the choice of what to destage next: among the oldest extents (a window
 * the size of the command queue), the one with the shortest positioning time from the
 * head's position (shortest positioning time first, as NCQ orders commands).
 *
 * The extents are also kept by age (arrival, then offset), so that a destage looks at the
 * oldest few instead of the whole cache, and both arrays keep room on both sides, so that
 * an extent added or destaged moves only those between it and the nearer end. Why: under
 * random writes the cache holds some 16,000 extents, and in the lab (docs/scenarios.md,
 * "Virtual time") the model runs on the guest's CPU, where every instruction it executes
 * is a nanosecond of the guest's time and costs the host its emulation: a scan of them all
 * at each destage cost about 0.15 ms a write, a FLUSH of a full cache about a second. The
 * choice is the same as the scan's (tests/unit/test_devices_hdd.c compares them).
 */
#include <stdlib.h>
#include <string.h>

#include "core/strutil.h"
#include "devices/internal.h"

/* Extents the destage choice compares: the oldest 32, as many as the drive's command
 * queue holds (SATA NCQ's 32 tags); the drive reorders what it holds dirty as it
 * reorders its queue, not the whole cache at once. */
#define WINDOW 32

/* ---- arrays with room on both sides (sb_dev_gap) ---- */

/* Room for one more element on either side: the n elements recentred, in a larger buffer
 * when they fill a third of it (so that recentring is rare beside the inserts it allows). */
static void gap_room(sb_dev_gap *g, size_t n, size_t sz)
{
    if (g->lo > 0 && g->lo + n < g->cap)
        return;
    size_t cap = g->cap;
    if (cap < 3 * (n + 1))
        cap = 3 * (n + 1) > 64 ? 3 * (n + 1) : 64;
    char *b = cap == g->cap ? g->base : sb_xrealloc(NULL, cap * sz);
    size_t lo = (cap - n) / 2;
    if (n)
        memmove(b + lo * sz, g->base + g->lo * sz, n * sz);
    if (b != g->base)
        free(g->base);
    g->base = b;
    g->lo = lo;
    g->cap = cap;
}

/* A free slot at index k of the n elements (the shorter side moves); *n grows by one. */
static void gap_insert(sb_dev_gap *g, size_t *n, size_t sz, size_t k)
{
    gap_room(g, *n, sz);
    char *a = g->base + g->lo * sz;
    if (k < *n - k) {
        memmove(a - sz, a, k * sz);
        g->lo--;
    } else {
        memmove(a + (k + 1) * sz, a + k * sz, (*n - k) * sz);
    }
    (*n)++;
}

/* Element k of the n removed (the shorter side moves). */
static void gap_remove(sb_dev_gap *g, size_t *n, size_t sz, size_t k)
{
    char *a = g->base + g->lo * sz;
    if (k < *n - 1 - k) {
        memmove(a + sz, a, k * sz);
        g->lo++;
    } else {
        memmove(a + k * sz, a + (k + 1) * sz, (*n - 1 - k) * sz);
    }
    (*n)--;
}

/* m->dirty and m->age point at the first element again (after an insert or a removal). */
static void refresh(sb_dev_model *m)
{
    m->dirty = m->dirty_gap.base ? (sb_dev_extent *)(void *)m->dirty_gap.base + m->dirty_gap.lo : NULL;
    m->age = m->age_gap.base ? (sb_dev_age *)(void *)m->age_gap.base + m->age_gap.lo : NULL;
}

/* ---- the extents by age: sorted by (at, off) ---- */

/* Index (from the oldest) of the first entry not before (at, off). */
static size_t age_lower(const sb_dev_model *m, uint64_t at, uint64_t off)
{
    size_t lo = 0, hi = m->nage;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (m->age[mid].at < at || (m->age[mid].at == at && m->age[mid].off < off))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void age_insert(sb_dev_model *m, uint64_t at, uint64_t off)
{
    size_t k = age_lower(m, at, off);
    gap_insert(&m->age_gap, &m->nage, sizeof *m->age, k);
    refresh(m);
    m->age[k] = (sb_dev_age){at, off};
}

static void age_remove(sb_dev_model *m, uint64_t at, uint64_t off)
{
    size_t k = age_lower(m, at, off);
    if (k == m->nage || m->age[k].at != at || m->age[k].off != off)
        return; /* not indexed: every extent is, so this does not happen */
    gap_remove(&m->age_gap, &m->nage, sizeof *m->age, k);
    refresh(m);
}

/* ---- the extents by offset ---- */

/* Index of the first extent that ends after off. */
static size_t first_after(const sb_dev_model *m, uint64_t off)
{
    size_t lo = 0, hi = m->ndirty;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (m->dirty[mid].off + m->dirty[mid].len <= off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Extent i removed from both arrays. */
static void extent_remove(sb_dev_model *m, size_t i)
{
    age_remove(m, m->dirty[i].at, m->dirty[i].off);
    gap_remove(&m->dirty_gap, &m->ndirty, sizeof *m->dirty, i);
    refresh(m);
}

void sb_dev_cache_add(sb_dev_model *m, uint64_t off, uint64_t len, uint64_t at)
{
    if (!len)
        return;
    uint64_t end = off + len;
    /* Every extent that overlaps or touches [off, end) is merged into it. */
    size_t i = first_after(m, off > 0 ? off - 1 : 0);
    if (i < m->ndirty && m->dirty[i].off + m->dirty[i].len < off)
        i++;
    uint64_t old = 0;
    while (i < m->ndirty && m->dirty[i].off <= end) {
        old += m->dirty[i].len;
        if (m->dirty[i].at > at)
            at = m->dirty[i].at;
        if (m->dirty[i].off < off)
            off = m->dirty[i].off;
        if (m->dirty[i].off + m->dirty[i].len > end)
            end = m->dirty[i].off + m->dirty[i].len;
        extent_remove(m, i); /* the next one slides to i */
    }
    gap_insert(&m->dirty_gap, &m->ndirty, sizeof *m->dirty, i);
    refresh(m);
    m->dirty[i] = (sb_dev_extent){.off = off, .len = end - off, .at = at};
    m->dirty_bytes += end - off - old;
    age_insert(m, at, off);
}

void sb_dev_cache_drop(sb_dev_model *m, uint64_t off, uint64_t len)
{
    uint64_t end = off + len;
    size_t i = first_after(m, off);
    while (i < m->ndirty && m->dirty[i].off < end) {
        sb_dev_extent *e = &m->dirty[i];
        uint64_t eend = e->off + e->len;
        if (e->off < off && eend > end) { /* a hole in the middle: split */
            m->dirty_bytes -= eend - off;
            e->len = off - e->off;
            sb_dev_cache_add(m, end, eend - end, e->at);
            return;
        }
        if (e->off < off) {
            m->dirty_bytes -= eend - off;
            e->len = off - e->off;
            i++;
        } else if (eend > end) {
            m->dirty_bytes -= end - e->off;
            age_remove(m, e->at, e->off); /* its offset, which names it there, changes */
            e->len = eend - end;
            e->off = end;
            age_insert(m, e->at, end);
            return;
        } else {
            m->dirty_bytes -= e->len;
            extent_remove(m, i);
        }
    }
}

int sb_dev_cache_covers(const sb_dev_model *m, uint64_t off, uint64_t len)
{
    size_t i = first_after(m, off);
    return i < m->ndirty && m->dirty[i].off <= off && m->dirty[i].off + m->dirty[i].len >= off + len;
}

uint64_t sb_dev_model_dirty_bytes(const sb_dev_model *m)
{
    return m->dirty_bytes;
}

/* The window: every extent that arrived no later than the WINDOW-th oldest (all of them
 * when fewer), a prefix of the age index. Among them the shortest positioning from the
 * head wins, the lowest offset among equals (what a scan by offset keeping the first of
 * the shortest chose). */
int sb_dev_cache_take(sb_dev_model *m, uint64_t now, sb_dev_extent *e)
{
    if (!m->ndirty || !m->nage)
        return 0;
    const sb_dev_age *a = m->age;
    size_t n = m->nage;
    uint64_t edge = a[(n < WINDOW ? n : WINDOW) - 1].at, best_t = UINT64_MAX, best_off = 0;
    for (size_t k = 0; k < n && a[k].at <= edge; k++) {
        uint64_t t = sb_dev_hdd_reach(m, 1, a[k].off, now > a[k].at ? now : a[k].at);
        if (t < best_t || (t == best_t && a[k].off < best_off)) {
            best_t = t;
            best_off = a[k].off;
        }
    }
    size_t best = first_after(m, best_off);
    *e = m->dirty[best];
    m->dirty_bytes -= e->len;
    extent_remove(m, best);
    return 1;
}
