/*
 * strmap — a string -> index hash map (open addressing, FNV-1a), so that
 * looking up an identifier or a result among thousands is O(1): importing a
 * page, loading and merging result files stay linear in their size.
 */
#ifndef SB_STRMAP_H
#define SB_STRMAP_H

#include <stddef.h>

typedef struct sb_strmap {
    char **keys;   /* owned copies; NULL = empty slot */
    size_t *vals;
    size_t cap, n; /* cap is a power of two */
} sb_strmap;

/* Key from parts joined by '\x1f' (a separator no text of ours contains), in buf. */
const char *sb_strmap_key(char **buf, size_t *cap, const char *const *parts, size_t n);
/* 1 and *val when key is present, else 0. */
int sb_strmap_get(const sb_strmap *m, const char *key, size_t *val);
/* Sets key -> val (copying key). 0, or -ENOMEM. */
int sb_strmap_put(sb_strmap *m, const char *key, size_t val);
void sb_strmap_free(sb_strmap *m);

#endif
