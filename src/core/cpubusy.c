/*
 * cpubusy — see cpubusy.h. /proc/stat is read line by line up to the first line that is
 * not a cpu line (the interrupt line after them can be thousands of numbers long: never
 * read). Its idle and iowait columns are the kernel's idle accounting in USER_HZ ticks;
 * iowait counts as idle, since a CPU waiting for a disk with nothing else to run halts
 * just as an idle one does (under the lab's icount its virtual time jumps the same way).
 */
#include "core/cpubusy.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"

static bool enabled; /* process-wide: the lab's guest turns it on once */

void sb_cpubusy_enable(bool on) { enabled = on; }
bool sb_cpubusy_enabled(void) { return enabled; }

/* "cpu  user nice system idle iowait ...": idle + iowait, or -EINVAL. */
static int idle_of(const char *line, uint64_t *idle)
{
    unsigned long long v[5];
    if (sscanf(line, "cpu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4]) != 5)
        return -EINVAL;
    *idle = v[3] + v[4];
    return 0;
}

int sb_cpubusy_parse(const char *text, uint64_t *idle_ticks, unsigned *ncpu)
{
    if (strncmp(text, "cpu ", 4) || idle_of(text, idle_ticks) < 0)
        return -EINVAL;
    *ncpu = 0;
    for (const char *l = strchr(text, '\n'); l && !strncmp(l + 1, "cpu", 3); l = strchr(l + 1, '\n'))
        *ncpu += l[4] >= '0' && l[4] <= '9';
    return 0;
}

void sb_cpubusy_now(sb_cpubusy *s)
{
    memset(s, 0, sizeof *s);
    if (!enabled)
        return;
    s->at_ns = sb_now_ns(); /* taken, even when unreadable: a window reads each edge once */
    FILE *f = fopen("/proc/stat", "re");
    if (!f)
        return;
    char line[512];
    uint64_t ticks = 0;
    bool first = true;
    while (fgets(line, sizeof line, f) && !strncmp(line, "cpu", 3)) {
        if (first && idle_of(line, &ticks) < 0)
            break;
        s->ncpu += !first;
        s->ok = true;
        first = false;
    }
    fclose(f);
    long hz = sysconf(_SC_CLK_TCK);
    s->idle_ns = ticks * (uint64_t)(1000000000L / (hz > 0 ? hz : 100));
    s->ok = s->ok && s->ncpu > 0;
}

void sb_cpubusy_between(const sb_cpubusy *a, const sb_cpubusy *b, uint64_t *busy_ns, uint64_t *window_ns)
{
    *busy_ns = *window_ns = 0;
    if (!a->ok || !b->ok || b->at_ns <= a->at_ns || a->ncpu != b->ncpu || b->idle_ns < a->idle_ns)
        return;
    uint64_t w = (b->at_ns - a->at_ns) * a->ncpu, idle = b->idle_ns - a->idle_ns;
    *window_ns = w;
    *busy_ns = idle < w ? w - idle : 0; /* the idle ticks' 10 ms rounding can pass the window */
}

sb_cpubusy_window sb_cpubusy_window_at(uint64_t start_ns, double from_s, double length_s)
{
    sb_cpubusy_window w;
    memset(&w, 0, sizeof w);
    w.from_ns = start_ns + (uint64_t)(from_s * 1e9);
    w.to_ns = length_s > 0 ? w.from_ns + (uint64_t)(length_s * 1e9) : UINT64_MAX;
    return w;
}

long sb_cpubusy_window_nap(sb_cpubusy_window *w, uint64_t now_ns, long nap_ns)
{
    int64_t edge = sb_cpubusy_window_poll(w, now_ns);
    return edge < nap_ns ? (long)(edge > 0 ? edge : 0) : nap_ns;
}

int64_t sb_cpubusy_window_poll(sb_cpubusy_window *w, uint64_t now_ns)
{
    if (!enabled)
        return INT64_MAX;
    if (!w->a.at_ns && now_ns >= w->from_ns)
        sb_cpubusy_now(&w->a);
    if (w->a.at_ns && !w->b.at_ns && now_ns >= w->to_ns)
        sb_cpubusy_now(&w->b);
    if (!w->a.at_ns)
        return (int64_t)(w->from_ns - now_ns);
    if (!w->b.at_ns && w->to_ns != UINT64_MAX)
        return (int64_t)(w->to_ns - now_ns);
    return INT64_MAX;
}

void sb_cpubusy_window_end(sb_cpubusy_window *w, uint64_t *busy_ns, uint64_t *window_ns)
{
    if (enabled && w->a.at_ns && !w->b.at_ns)
        sb_cpubusy_now(&w->b);
    sb_cpubusy_between(&w->a, &w->b, busy_ns, window_ns);
}
