/*
 * kvline — splits and joins "Key: value, Key: value" (see kvline.h). A key is
 * recognised by its shape, not from a list, because PTS adds keys over the years
 * ("Display Server", "Vulkan") and a value may itself hold ", " ("2 x Intel
 * 82574L, ..."): only a ", " followed by something shaped like a key starts a pair.
 */
#include "formats/kvline.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strutil.h"

/* Length of the key at s (up to its ':'), 0 when s does not start with one. */
static size_t key_at(const char *s)
{
    size_t i = 0;
    for (int word = 0; word < 3; word++) {
        if (!(isupper((unsigned char)s[i]) || isdigit((unsigned char)s[i])))
            return 0;
        while (isalnum((unsigned char)s[i]) || (s[i] && strchr("-/_", s[i])))
            i++;
        if (s[i] == ':' && (s[i + 1] == ' ' || s[i + 1] == '\0'))
            return i;
        if (s[i] != ' ')
            return 0;
        i++;
    }
    return 0;
}

void sb_kvline_parse(const char *line, sb_kvlist *l)
{
    char *copy = sb_xstrdup(line);
    sb_trim(copy);
    char *p = copy;
    while (*p) {
        char *end = p + strlen(p), *next = end;
        for (char *q = p; q[0] && q[1] && q[2]; q++)
            if (q[0] == ',' && q[1] == ' ' && key_at(q + 2)) {
                end = q;
                next = q + 2;
                break;
            }
        *end = '\0';
        size_t k = key_at(p);
        if (k) {
            p[k] = '\0';
            char *value = p + k + 1;
            sb_trim(value);
            sb_kvlist_add(l, p, value);
        } else {
            sb_trim(p);
            sb_kvlist_add(l, "", p);
        }
        p = next;
    }
    free(copy);
}

char *sb_kvline_format(const sb_kvlist *l)
{
    size_t cap = 1;
    for (size_t i = 0; i < l->n; i++)
        cap += strlen(l->items[i].key) + strlen(l->items[i].value) + 4;
    char *out = sb_xrealloc(NULL, cap), *p = out;
    *p = '\0';
    for (size_t i = 0; i < l->n; i++) {
        const sb_kv *kv = &l->items[i];
        p += sprintf(p, "%s%s%s%s", i ? ", " : "", kv->key, *kv->key ? ": " : "", kv->value);
    }
    return out;
}
