/*
 * strutil — small string helpers: allocation that never returns NULL (out of
 * memory prints one line and aborts), snprintf that truncates quietly, and
 * in-place tidying of text read from /proc and /sys.
 */
#ifndef SB_STRUTIL_H
#define SB_STRUTIL_H

#include <stddef.h>

/* Prints "storbench: out of memory" and aborts. */
void sb_oom(void) __attribute__((noreturn));
/* realloc that never fails (n == 0 allocates 1 byte). */
void *sb_xrealloc(void *p, size_t n);
/* calloc that never fails (n or size 0 allocates 1 byte): zeroed, as a static was. */
void *sb_xcalloc(size_t n, size_t size);
/* strdup/strndup that never fail; sb_xstrdup(NULL) gives "". */
char *sb_xstrdup(const char *s);
char *sb_xstrndup(const char *s, size_t n);

/* snprintf that truncates quietly: sysfs paths and names fit, and a clipped description is
 * better than none. */
void sb_fmt(char *buf, size_t len, const char *f, ...) __attribute__((format(printf, 3, 4)));
/* Removes leading and trailing blanks in place. */
void sb_trim(char *s);
/* Collapses runs of blanks into one space and trims. */
void sb_squeeze(char *s);
/* Removes every occurrence of word (as a whole, blank-delimited word). */
void sb_remove_word(char *s, const char *word);
/* Removes every occurrence of sub. */
void sb_remove_all(char *s, const char *sub);
/* Start of the value of "KEY<blanks>: value" when line (linelen bytes) is such a line, else
 * NULL. */
const char *sb_colon_value(const char *line, size_t linelen, const char *key);
/* Calls fn for each line of text (without its newline); stops when fn returns non-zero.
 * text NULL is no lines. */
typedef int (*sb_line_fn)(const char *line, size_t len, void *arg);
void sb_for_each_line(const char *text, sb_line_fn fn, void *arg);

#endif
