/*
 * devices/hdd_cache — the disk's volatile write cache as extents sorted by offset and
 * merged when they touch, so that small sequential writes become one long media
 * transfer, and the choice of what to destage next: among the oldest extents (a window
 * the size of the command queue), the one with the shortest positioning time from the
 * head's position (shortest positioning time first, as NCQ orders commands).
 */
#include <string.h>

#include "core/strutil.h"
#include "devices/internal.h"

/* Extents the destage choice compares: the oldest 32, as many as the drive's command
 * queue holds (SATA NCQ's 32 tags); the drive reorders what it holds dirty as it
 * reorders its queue, not the whole cache at once. */
#define WINDOW 32

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

/* The arrival time of the window-th oldest extent: those that arrived no later are
 * the ones a destage may choose from. */
static uint64_t window_edge(const sb_dev_model *m)
{
    uint64_t heap[WINDOW]; /* max-heap of the WINDOW smallest arrival times */
    size_t n = 0;
    for (size_t i = 0; i < m->ndirty; i++) {
        uint64_t v = m->dirty[i].at;
        if (n < WINDOW) {
            size_t c = n++;
            heap[c] = v;
            while (c && heap[(c - 1) / 2] < heap[c]) {
                uint64_t t = heap[c];
                heap[c] = heap[(c - 1) / 2];
                heap[(c - 1) / 2] = t;
                c = (c - 1) / 2;
            }
        } else if (v < heap[0]) {
            heap[0] = v;
            for (size_t c = 0;;) {
                size_t l = 2 * c + 1, r = l + 1, big = c;
                if (l < n && heap[l] > heap[big])
                    big = l;
                if (r < n && heap[r] > heap[big])
                    big = r;
                if (big == c)
                    break;
                uint64_t t = heap[c];
                heap[c] = heap[big];
                heap[big] = t;
                c = big;
            }
        }
    }
    return heap[0];
}

int sb_dev_cache_take(sb_dev_model *m, uint64_t now, sb_dev_extent *e)
{
    if (!m->ndirty)
        return 0;
    uint64_t edge = window_edge(m), best_t = UINT64_MAX;
    size_t best = 0;
    for (size_t i = 0; i < m->ndirty; i++) {
        if (m->dirty[i].at > edge)
            continue;
        uint64_t t = sb_dev_hdd_reach(m, 1, m->dirty[i].off, now > m->dirty[i].at ? now : m->dirty[i].at);
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
