/*
 * cpuset — see cpuset.h. The list syntax is the kernel's (cpulist, as in
 * /sys/devices/system/cpu/online): comma-separated CPUs and ranges.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "core/cpuset.h"

void sb_cpuset_format(const cpu_set_t *set, char *buf, size_t len)
{
    size_t off = 0;
    if (len)
        buf[0] = '\0';
    for (int c = 0; c < CPU_SETSIZE && off < len; c++) {
        if (!CPU_ISSET(c, set))
            continue;
        int e = c;
        while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
            e++;
        int n = e > c ? snprintf(buf + off, len - off, "%s%d-%d", off ? "," : "", c, e)
                      : snprintf(buf + off, len - off, "%s%d", off ? "," : "", c);
        if (n < 0)
            break;
        off += (size_t)n;
        c = e;
    }
}

/* One decimal CPU number at *p; advances p. */
static bool parse_cpu(const char **p, int *out)
{
    char *end;
    if (**p < '0' || **p > '9')
        return false;
    long v = strtol(*p, &end, 10);
    if (v >= CPU_SETSIZE)
        return false;
    *out = (int)v;
    *p = end;
    return true;
}

int sb_cpuset_parse(const char *list, cpu_set_t *out, char *err, size_t errlen)
{
    return sb_cpuset_parse_lax(list, out, NULL, err, errlen);
}

int sb_cpuset_parse_lax(const char *list, cpu_set_t *out, int *missing, char *err, size_t errlen)
{
    cpu_set_t allowed;
    if (missing)
        *missing = -1;
    CPU_ZERO(out);
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof allowed, &allowed) < 0)
        for (int c = 0; c < CPU_SETSIZE; c++)
            CPU_SET(c, &allowed);
    const char *p = list;
    for (;;) {
        int lo, hi;
        if (!parse_cpu(&p, &lo))
            goto bad;
        hi = lo;
        if (*p == '-') {
            p++;
            if (!parse_cpu(&p, &hi) || hi < lo)
                goto bad;
        }
        for (int c = lo; c <= hi; c++) {
            if (!CPU_ISSET(c, &allowed) && missing) {
                if (*missing < 0)
                    *missing = c;
            } else if (!CPU_ISSET(c, &allowed)) {
                char may[256];
                sb_cpuset_format(&allowed, may, sizeof may);
                snprintf(err, errlen, "CPU %d is not available: this process may use %s", c, may);
                return -EINVAL;
            }
            CPU_SET(c, out);
        }
        if (*p == '\0')
            return 0;
        if (*p++ != ',')
            goto bad;
    }
bad:
    snprintf(err, errlen, "'%s' is not a CPU list (like 0-3,6)", list);
    return -EINVAL;
}

int sb_cpuset_nth(const cpu_set_t *set, unsigned n)
{
    int count = CPU_COUNT(set);
    if (count <= 0)
        return -1;
    n %= (unsigned)count;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, set) && n-- == 0)
            return c;
    return -1;
}

void sb_cpu_times_now(sb_cpu_times *t)
{
    struct rusage ru;
    memset(t, 0, sizeof *t);
    if (getrusage(RUSAGE_SELF, &ru) < 0)
        return;
    t->user_ns = (uint64_t)ru.ru_utime.tv_sec * 1000000000ull + (uint64_t)ru.ru_utime.tv_usec * 1000ull;
    t->sys_ns = (uint64_t)ru.ru_stime.tv_sec * 1000000000ull + (uint64_t)ru.ru_stime.tv_usec * 1000ull;
}

int sb_thread_sched_now(uint64_t *on_cpu_ns, uint64_t *runq_ns)
{
    *on_cpu_ns = *runq_ns = 0;
    FILE *f = fopen("/proc/thread-self/schedstat", "r");
    if (!f)
        return -errno;
    unsigned long long c, w;
    int n = fscanf(f, "%llu %llu", &c, &w);
    fclose(f);
    if (n != 2)
        return -EIO;
    *on_cpu_ns = c;
    *runq_ns = w;
    return 0;
}
