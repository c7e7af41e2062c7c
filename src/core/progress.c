/*
 * progress — see progress.h. Drawn on stderr only when it is a terminal, so
 * that logs and CI output stay clean.
 */
#include "core/progress.h"

#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "core/clock.h"

void sb_progress_init(sb_progress *p)
{
    *p = (sb_progress){0};
    p->enabled = isatty(STDERR_FILENO);
}

/* Columns of the terminal on stderr: a progress line must never wrap, or "\r" can no
 * longer take it back. */
static int stderr_columns(void)
{
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
        return ws.ws_col;
    return 80;
}

void sb_progress_begin(sb_progress *p, const char *label, unsigned run, unsigned runs)
{
    snprintf(p->label, sizeof p->label, "%s", label);
    p->run = run;
    p->runs = runs;
    p->start_ns = sb_now_ns();
    p->last_draw_ns = 0;
    p->fraction = -1;
    sb_progress_update(p, -1);
}

static void mmss(char *buf, size_t len, double s)
{
    if (s < 0) s = 0;
    unsigned t = (unsigned)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, len, "%u:%02u:%02u", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, len, "%02u:%02u", t / 60, t % 60);
}

void sb_progress_update(sb_progress *p, double fraction)
{
    if (!p || !p->enabled)
        return;
    uint64_t now = sb_now_ns();
    if (fraction >= 0)
        p->fraction = fraction > 1 ? 1 : fraction;
    if (p->last_draw_ns && now - p->last_draw_ns < 250000000ull)
        return;
    p->last_draw_ns = now;
    double elapsed = (double)(now - p->start_ns) / 1e9;
    char el[16], eta[32] = "";
    mmss(el, sizeof el, elapsed);
    double left = -1;
    if (p->fraction > 0.01)
        left = elapsed / p->fraction - elapsed;
    else if (p->previous_run_s > 0)
        left = p->previous_run_s - elapsed;
    if (left >= 0) {
        char t[16];
        mmss(t, sizeof t, left);
        snprintf(eta, sizeof eta, "  ETA %s", t);
    }
    char tail[96];
    snprintf(tail, sizeof tail, "  run %u of %u  %s elapsed%s", p->run, p->runs, el, eta);
    int room = stderr_columns() - 1 - (int)strlen(tail);
    int label_len = (int)strlen(p->label);
    if (room < 4)
        room = 4;
    if (label_len > room) /* cut the label, never the run count and ETA */
        fprintf(stderr, "\r\033[K%.*s...%s", room - 3, p->label, tail);
    else
        fprintf(stderr, "\r\033[K%s%s", p->label, tail);
    fflush(stderr);
}

void sb_progress_end(sb_progress *p)
{
    if (!p)
        return;
    p->previous_run_s = (double)(sb_now_ns() - p->start_ns) / 1e9;
    if (p->enabled) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
}
