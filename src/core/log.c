/*
 * log — single-line diagnostics on stderr, prefixed "storbench: ".
 * A progress line may be on screen; "\r\033[K" clears it first on a TTY so
 * messages never mix with the progress display.
 */
#include "core/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

static void emit(const char *kind, const char *fmt, va_list ap)
{
    if (isatty(STDERR_FILENO))
        fputs("\r\033[K", stderr);
    fputs("storbench: ", stderr);
    if (kind)
        fputs(kind, stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void sb_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(NULL, fmt, ap);
    va_end(ap);
}

void sb_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit("warning: ", fmt, ap);
    va_end(ap);
}
