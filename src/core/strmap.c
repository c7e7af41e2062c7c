/*
 * strmap — see strmap.h. Linear probing, grown at half full.
 */
#include "core/strmap.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

int sb_strmap_get(const sb_strmap *m, const char *key, size_t *val)
{
    if (!m->cap)
        return 0;
    for (size_t i = hash(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (!m->keys[i])
            return 0;
        if (!strcmp(m->keys[i], key)) {
            if (val)
                *val = m->vals[i];
            return 1;
        }
    }
}

static int grow(sb_strmap *m)
{
    size_t cap = m->cap ? 2 * m->cap : 64;
    char **keys = calloc(cap, sizeof *keys);
    size_t *vals = calloc(cap, sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return -ENOMEM;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->keys[i])
            continue;
        size_t j = hash(m->keys[i]) & (cap - 1);
        while (keys[j])
            j = (j + 1) & (cap - 1);
        keys[j] = m->keys[i];
        vals[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    return 0;
}

int sb_strmap_put(sb_strmap *m, const char *key, size_t val)
{
    if (2 * (m->n + 1) > m->cap && grow(m) < 0)
        return -ENOMEM;
    size_t i = hash(key) & (m->cap - 1);
    for (; m->keys[i]; i = (i + 1) & (m->cap - 1))
        if (!strcmp(m->keys[i], key)) {
            m->vals[i] = val;
            return 0;
        }
    if (!(m->keys[i] = strdup(key)))
        return -ENOMEM;
    m->vals[i] = val;
    m->n++;
    return 0;
}

void sb_strmap_free(sb_strmap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->keys[i]);
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

const char *sb_strmap_key(char **buf, size_t *cap, const char *const *parts, size_t n)
{
    size_t len = 1;
    for (size_t i = 0; i < n; i++)
        len += strlen(parts[i] ? parts[i] : "") + 1;
    if (len > *cap) {
        char *b = realloc(*buf, len);
        if (!b)
            return NULL;
        *buf = b;
        *cap = len;
    }
    char *p = *buf;
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(parts[i] ? parts[i] : "");
        memcpy(p, parts[i] ? parts[i] : "", l);
        p += l;
        if (i + 1 < n)
            *p++ = '\x1f';
    }
    *p = '\0';
    return *buf;
}
