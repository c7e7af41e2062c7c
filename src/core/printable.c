/*
 * printable — see printable.h. One pass, in place: a C1 control takes two
 * bytes in UTF-8 and one '?', so the text can only shrink.
 */
#include "core/printable.h"

char *sb_make_printable(char *s)
{
    if (!s)
        return s;
    unsigned char *r = (unsigned char *)s, *w = r;
    while (*r) {
        if (*r < 0x20 || *r == 0x7f) {
            *w++ = '?';
            r++;
        } else if (r[0] == 0xc2 && r[1] >= 0x80 && r[1] <= 0x9f) {
            *w++ = '?';
            r += 2;
        } else {
            *w++ = *r++;
        }
    }
    *w = '\0';
    return s;
}
