/*
 * text_import_index — the flattened-page reader's lookups that must not cost a pass
 * over every title or identifier (issue 24 item 12: a page of one long line took
 * seconds per 100 KiB). A span index holds strings (result titles, row identifiers)
 * under the FNV-1a hash of each of their word-boundary prefixes, read forwards
 * (titles: "which title starts here?") or backwards (identifiers: "which identifier
 * ends here?"). A scan extends one byte at a time from its anchor and stops as soon as
 * the text read is no word-prefix of any indexed string, so each lookup costs at most
 * the length of the longest string it could match, and only a full hit is compared
 * byte for byte.
 */
#include "formats/text_import_page.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

static uint64_t step(uint64_t h, char c)
{
    return (h ^ (unsigned char)c) * FNV_PRIME;
}

void ti_index_free(ti_index *ix)
{
    free(ix->slot);
    *ix = (ti_index){0};
}

static int grow(ti_index *ix)
{
    size_t cap = ix->cap ? 2 * ix->cap : 64;
    ti_index_slot *s = calloc(cap, sizeof *s);
    if (!s)
        return -ENOMEM;
    for (size_t i = 0; i < ix->cap; i++) {
        if (!ix->slot[i].used)
            continue;
        size_t j = ix->slot[i].hash & (cap - 1);
        while (s[j].used)
            j = (j + 1) & (cap - 1);
        s[j] = ix->slot[i];
    }
    free(ix->slot);
    ix->slot = s;
    ix->cap = cap;
    return 0;
}

/* One entry: a prefix (full.p NULL) or a whole string. A prefix already there is not
 * repeated; whole strings with one hash all stay (compared on lookup). */
static int put(ti_index *ix, uint64_t h, span full)
{
    if ((ix->n + 1) * 2 > ix->cap && grow(ix))
        return -ENOMEM;
    size_t j = h & (ix->cap - 1);
    for (; ix->slot[j].used; j = (j + 1) & (ix->cap - 1))
        if (ix->slot[j].hash == h && !full.p && !ix->slot[j].full.p)
            return 0;
    ix->slot[j] = (ti_index_slot){h, full, true};
    ix->n++;
    return 0;
}

int ti_index_add(ti_index *ix, span s)
{
    if (!s.n || (ix->max_len && s.n > ix->max_len))
        return 0;
    uint64_t h = FNV_OFFSET;
    for (size_t k = 0; k < s.n; k++) {
        char c = ix->backwards ? s.p[s.n - 1 - k] : s.p[k];
        if (k && c == ' ' && put(ix, h, (span){0}))
            return -ENOMEM;
        h = step(h, c);
    }
    if (put(ix, h, s))
        return -ENOMEM;
    if (s.n > ix->longest)
        ix->longest = s.n;
    return 0;
}

/* What the index holds under h: bit 1 a prefix or whole string, bit 2 a whole string of
 * n bytes (equal to the n bytes at p when p is given; else not compared). */
static int look(const ti_index *ix, uint64_t h, const char *p, size_t n)
{
    int what = 0;
    if (!ix->cap)
        return 0;
    for (size_t j = h & (ix->cap - 1); ix->slot[j].used; j = (j + 1) & (ix->cap - 1)) {
        const ti_index_slot *sl = &ix->slot[j];
        if (sl->hash != h)
            continue;
        what |= 1;
        if (sl->full.p && sl->full.n == n && (!p || !memcmp(sl->full.p, p, n)))
            what |= 2;
    }
    return what;
}

size_t ti_index_scan(const ti_index *ix, span text, size_t at, size_t *found, size_t max)
{
    size_t nf = 0, limit = ix->backwards ? at : text.n - at;
    if (limit > ix->longest)
        limit = ix->longest;
    uint64_t h = FNV_OFFSET;
    for (size_t k = 0; k < limit; k++) {
        const char *p = ix->backwards ? text.p + at - 1 - k : text.p + at + k;
        h = step(h, *p);
        /* Strings are indexed at word boundaries only: look when the next byte (in the
         * scan's direction) is a space or the text's end, and stop at the first boundary
         * that no indexed string has. */
        bool edge = ix->backwards ? (p == text.p || p[-1] == ' ')
                                  : (p + 1 == text.p + text.n || p[1] == ' ');
        if (!edge)
            continue;
        int what = look(ix, h, NULL, k + 1);
        if (!what)
            break;
        if ((what & 2) && nf < max)
            found[nf++] = k + 1;
    }
    return nf;
}

bool ti_index_has(const ti_index *ix, const char *p, size_t n)
{
    uint64_t h = FNV_OFFSET;
    for (size_t k = 0; k < n; k++)
        h = step(h, ix->backwards ? p[n - 1 - k] : p[k]);
    return (look(ix, h, p, n) & 2) != 0;
}
