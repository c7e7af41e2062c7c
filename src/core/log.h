/*
 * log — the one place that prints diagnostics. Every message is a single line
 * prefixed "storbench: " on stderr, so that scripts can grep it and people
 * can read it. Only the CLI layer decides to exit; these never do.
 */
#ifndef SB_LOG_H
#define SB_LOG_H

#include <stdbool.h>

void sb_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void sb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Exit codes used by the CLI layer. */
enum { SB_EXIT_OK = 0, SB_EXIT_RUNTIME = 1, SB_EXIT_USAGE = 2, SB_EXIT_INTERRUPTED = 130 };

#endif
