/*
 * cli_common — helpers every subcommand uses: the usage-error line and the
 * terminal width for the text report.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/log.h"

int sb_usage_error(const char *cmd, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sb_error("%s: %s", cmd, msg);
    return SB_EXIT_USAGE;
}

int sb_terminal_width(void)
{
    struct winsize ws;
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
        return ws.ws_col;
    const char *c = getenv("COLUMNS");
    if (c && atoi(c) >= 20)
        return atoi(c);
    return 80;
}
