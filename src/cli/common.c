/*
 * common — helpers every subcommand uses: the usage-error line, the refusal of a bad
 * option, a result file's path (a saved name or a file), a UTF-8 argument, and the terminal width for the text
 * report (common.h). What `run`, `scenario run` and `list` share about selecting tests
 * is select.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <getopt.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/common.h"
#include "core/log.h"
#include "core/safepath.h"
#include "core/units.h"
#include "results/result.h"

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

int sb_bad_option(const char *cmd, char **argv, int c)
{
    /* argv[optind - 1] is the word getopt stopped at: "--width" (or "--width=x"), or a
     * cluster of short options such as "-qz", of which optopt is the bad one. */
    const char *word = optind > 0 ? argv[optind - 1] : "";
    char name[128];
    if (word && !strncmp(word, "--", 2))
        snprintf(name, sizeof name, "%.*s", (int)strcspn(word, "="), word);
    else if (optopt > 0 && optopt < 128 && optopt != '?' && optopt != ':')
        snprintf(name, sizeof name, "-%c", optopt);
    else
        snprintf(name, sizeof name, "%s", word ? word : "");
    if (c == ':')
        return sb_usage_error(cmd, "option '%s' needs a value", name);
    return sb_usage_error(cmd, "unknown option '%s' (see 'storbench %s --help')", name, cmd);
}

int sb_terminal_width(void)
{
    struct winsize ws;
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
        return ws.ws_col;
    /* $COLUMNS as --width takes it: 20 to 10000 (more is capped, not a reason to build
     * lines of 100000 columns). */
    const char *c = getenv("COLUMNS");
    char *end;
    long n = c ? strtol(c, &end, 10) : 0;
    if (c && end != c && *end == '\0' && n >= 20)
        return n > 10000 ? 10000 : (int)n;
    return 80;
}

/* An attacker's symlink in a sticky world-writable directory is refused now, before anything
 * is read or measured, not only when the figures are saved (core/safepath.h). Other
 * resolution errors (a missing directory) are left to the read or the save. */
static int refuse_unsafe(const char *cmd, const char *path)
{
    sb_path_at at;
    char err[PATH_MAX + 256];
    if (sb_path_resolve(path, 0, &at, err, sizeof err) == 0)
        sb_path_at_close(&at);
    else if (at.refused) {
        sb_error("%s: %s", cmd, err);
        return SB_EXIT_RUNTIME;
    }
    return 0;
}

int sb_cli_result_path(const char *cmd, const char *name, const char *results_dir, char *out,
                       unsigned long len)
{
    int rc = sb_result_path(name, results_dir, out, len);
    if (rc == 0)
        return refuse_unsafe(cmd, out);
    if (rc == -EINVAL)
        return sb_usage_error(cmd, "'%s' is not a result name (empty, '.', '..' or a control "
                              "character)", name);
    if (rc == -ENOENT)
        sb_error("%s: no results directory: set HOME or XDG_DATA_HOME, or use --results-dir",
                 cmd);
    else
        sb_error("%s: %s: %s", cmd, name, strerror(-rc));
    return SB_EXIT_RUNTIME;
}

static bool regular_file(const char *path, struct stat *st)
{
    return stat(path, st) == 0 && S_ISREG(st->st_mode);
}

int sb_cli_input_path(const char *cmd, const char *name, const char *results_dir, char *out,
                      unsigned long len)
{
    struct stat here;
    if (!name || !*name || strchr(name, '/') || !regular_file(name, &here))
        return sb_cli_result_path(cmd, name, results_dir, out, len);
    /* The file in front of the user wins over nothing; when a saved result answers to the
     * name too (and is not this very file), say which was taken. */
    char saved[PATH_MAX];
    struct stat st;
    if (sb_result_path(name, results_dir, saved, sizeof saved) == 0 && regular_file(saved, &st) &&
        (st.st_dev != here.st_dev || st.st_ino != here.st_ino))
        sb_warn("%s: '%s' is a file here and a saved result (%s): reading the file ./%s", cmd,
                name, saved, name);
    int n = snprintf(out, len, "%s", name);
    if (n < 0 || (unsigned long)n >= len) {
        sb_error("%s: %s: %s", cmd, name, strerror(ENAMETOOLONG));
        return SB_EXIT_RUNTIME;
    }
    return refuse_unsafe(cmd, out);
}

int sb_check_utf8_arg(const char *cmd, const char *what, const char *value)
{
    if (value && !sb_utf8_valid(value))
        return sb_usage_error(cmd, "%s is not valid UTF-8 (a result file holds UTF-8 only)", what);
    return 0;
}
