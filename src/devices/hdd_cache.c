/*
 * devices/hdd_cache — the disk's volatile write cache as extents sorted by offset and
 * merged when they touch, so that small sequential writes become one long media
 * transfer, and the choice of what to destage next: the elevator's next extents from
 * the head's position, the one of them with the shortest positioning time first (what
 * a drive's cache reordering does within a window; the whole cache would cost a scan
 * per destage).
 */
#include <string.h>

#include "core/strutil.h"
#include "devices/internal.h"

/* Extents the destage choice compares (the elevator's next ones). */
#define WINDOW 8

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

void sb_dev_cache_add(sb_dev_model *m, uint64_t off, uint64_t len, uint64_t at)
{
    if (!len)
        return;
    uint64_t end = off + len;
    /* Every extent that overlaps or touches [off, end) is merged into it. */
    size_t i = first_after(m, off > 0 ? off - 1 : 0);
    if (i < m->ndirty && m->dirty[i].off + m->dirty[i].len < off)
        i++;
    size_t j = i;
    uint64_t old = 0;
    while (j < m->ndirty && m->dirty[j].off <= end) {
        old += m->dirty[j].len;
        if (m->dirty[j].at > at)
            at = m->dirty[j].at;
        if (m->dirty[j].off < off)
            off = m->dirty[j].off;
        if (m->dirty[j].off + m->dirty[j].len > end)
            end = m->dirty[j].off + m->dirty[j].len;
        j++;
    }
    if (j == i) {
        if (m->ndirty == m->cap_dirty) {
            m->cap_dirty = m->cap_dirty ? 2 * m->cap_dirty : 64;
            m->dirty = sb_xrealloc(m->dirty, m->cap_dirty * sizeof *m->dirty);
        }
        memmove(m->dirty + i + 1, m->dirty + i, (m->ndirty - i) * sizeof *m->dirty);
        m->ndirty++;
    } else if (j > i + 1) {
        memmove(m->dirty + i + 1, m->dirty + j, (m->ndirty - j) * sizeof *m->dirty);
        m->ndirty -= j - i - 1;
    }
    m->dirty[i].off = off;
    m->dirty[i].len = end - off;
    m->dirty[i].at = at;
    m->dirty_bytes += end - off - old;
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
            e->len = eend - end;
            e->off = end;
            return;
        } else {
            m->dirty_bytes -= e->len;
            memmove(m->dirty + i, m->dirty + i + 1, (m->ndirty - i - 1) * sizeof *m->dirty);
            m->ndirty--;
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

int sb_dev_cache_take(sb_dev_model *m, uint64_t now, sb_dev_extent *e)
{
    if (!m->ndirty)
        return 0;
    size_t start = first_after(m, m->head_off), best = start % m->ndirty;
    uint64_t best_t = UINT64_MAX;
    for (size_t k = 0; k < WINDOW && k < m->ndirty; k++) {
        size_t i = (start + k) % m->ndirty;
        uint64_t t = sb_dev_hdd_reach(m, 1, m->dirty[i].off, now);
        if (t < best_t) {
            best_t = t;
            best = i;
        }
    }
    *e = m->dirty[best];
    m->dirty_bytes -= e->len;
    memmove(m->dirty + best, m->dirty + best + 1, (m->ndirty - best - 1) * sizeof *m->dirty);
    m->ndirty--;
    return 1;
}
