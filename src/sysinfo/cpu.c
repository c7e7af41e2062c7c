/*
 * cpu — Processor and Memory: /proc/cpuinfo (model, logical CPUs, clock),
 * cpufreq's maximum, and the memory blocks in sysfs with /proc/meminfo as the
 * fallback (docs/sysinfo.md, Hardware).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sysinfo/read.h"
#include "sysinfo/cpu.h"
#include "sysinfo/sysinfo_parse.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/strutil.h"

void sb_sysinfo_tidy_cpu_model(char *s)
{
    sb_remove_all(s, "(R)");
    sb_remove_all(s, "(r)");
    sb_remove_all(s, "(TM)");
    sb_remove_all(s, "(tm)");
    /* The nominal clock in the name is replaced by the measured maximum. */
    char *at = strstr(s, " @ ");
    if (at)
        *at = '\0';
    sb_remove_word(s, "CPU");
    sb_squeeze(s);
    size_t n = strlen(s);
    const char *tail = " Processor";
    size_t tl = strlen(tail);
    /* "Intel Xeon Processor" -> "Intel Xeon"; a bare "Processor" is kept rather than emptied. */
    if (n > tl && !strcmp(s + n - tl, tail))
        s[n - tl] = '\0';
    sb_squeeze(s);
}

/* Keys naming the processor, most telling first: x86 "model name", MIPS "cpu model", old ARM
 * "Processor", ARM boards "Hardware". */
#define N_MODEL_KEYS 4
static const char *const model_keys[N_MODEL_KEYS] = {"model name", "cpu model", "Processor",
                                                     "Hardware"};

struct cpu_scan {
    char *model[N_MODEL_KEYS]; /* first value of each key */
    int count;
    double mhz;
};

static int cpu_line(const char *line, size_t len, void *arg)
{
    struct cpu_scan *c = arg;
    const char *v;
    if (sb_colon_value(line, len, "processor"))
        c->count++;
    if ((v = sb_colon_value(line, len, "cpu MHz"))) {
        double m = strtod(v, NULL);
        if (m > c->mhz)
            c->mhz = m;
    }
    for (int i = 0; i < N_MODEL_KEYS; i++)
        if (!c->model[i] && (v = sb_colon_value(line, len, model_keys[i])) && v < line + len)
            c->model[i] = sb_xstrndup(v, (size_t)(line + len - v));
    return 0;
}

/* Scans cpuinfo; returns the best model (caller frees) and fills count and mhz. */
static char *scan_cpuinfo(const char *cpuinfo, int *count, double *mhz)
{
    struct cpu_scan c = {0};
    sb_for_each_line(cpuinfo, cpu_line, &c);
    char *best = NULL;
    for (int i = 0; i < N_MODEL_KEYS; i++) {
        if (!best && c.model[i])
            best = c.model[i];
        else
            free(c.model[i]);
    }
    if (count)
        *count = c.count;
    if (mhz)
        *mhz = c.mhz;
    return best;
}

char *sb_sysinfo_cpu_model(const char *cpuinfo)
{
    char *model = scan_cpuinfo(cpuinfo, NULL, NULL);
    if (model) {
        sb_sysinfo_tidy_cpu_model(model);
        if (!*model) {
            free(model);
            model = NULL;
        }
    }
    return model;
}

int sb_sysinfo_cpu_count(const char *cpuinfo)
{
    int n;
    free(scan_cpuinfo(cpuinfo, &n, NULL));
    return n;
}

double sb_sysinfo_cpu_mhz(const char *cpuinfo)
{
    double mhz;
    free(scan_cpuinfo(cpuinfo, NULL, &mhz));
    return mhz;
}

void sb_sysinfo_format_processor(char *buf, size_t len, const char *model, double mhz, int ncpu)
{
    int n = snprintf(buf, len, "%s", model && *model ? model : SI_UNKNOWN);
    if (n < 0 || (size_t)n >= len)
        return;
    if (mhz > 0)
        n += snprintf(buf + n, len - n, " @ %.2fGHz", mhz / 1000.0);
    if (n < 0 || (size_t)n >= len)
        return;
    if (ncpu > 0)
        sb_fmt(buf + n, len - n, " (%d Core%s)", ncpu, ncpu == 1 ? "" : "s");
}
void si_processor(const char *root, char *buf, size_t len)
{
    char *cpuinfo = si_slurp(root, "/proc/cpuinfo");
    char *model = sb_sysinfo_cpu_model(cpuinfo);
    int ncpu = sb_sysinfo_cpu_count(cpuinfo);
    double mhz = 0;
    char *maxf = si_slurp_attr(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq");
    if (!maxf)
        maxf = si_slurp_attr(root, "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
    if (maxf)
        mhz = strtod(maxf, NULL) / 1000.0; /* kHz */
    else
        mhz = sb_sysinfo_cpu_mhz(cpuinfo);
    free(maxf);
    if (ncpu <= 0 && !root[0]) {
        long c = sysconf(_SC_NPROCESSORS_CONF);
        ncpu = c > 0 ? (int)c : 0;
    }
    sb_sysinfo_format_processor(buf, len, model, mhz, ncpu);
    free(model);
    free(cpuinfo);
}

/* Installed memory as the kernel's memory blocks see it: every online block of
 * block_size_bytes. This is the physical RAM (24 GiB here), where MemTotal is what is left
 * after the kernel's own reservations (24105 MiB). 0 when the directory is not there. */
static unsigned long long memory_blocks_bytes(const char *root)
{
    char *bs = si_slurp_attr(root, "/sys/devices/system/memory/block_size_bytes");
    unsigned long long block = bs ? strtoull(bs, NULL, 16) : 0;
    free(bs);
    if (!block)
        return 0;
    size_t n = 0;
    char **names = si_list_dir(root, "/sys/devices/system/memory", &n);
    unsigned long long total = 0;
    for (size_t i = 0; i < n; i++) {
        if (strncmp(names[i], "memory", 6) || !isdigit((unsigned char)names[i][6]))
            continue;
        char p[PATH_MAX];
        sb_fmt(p, sizeof p, "/sys/devices/system/memory/%s/online", names[i]);
        char *on = si_slurp_attr(root, p);
        if (!on || on[0] == '1') /* boot memory without an online switch is online */
            total += block;
        free(on);
    }
    si_free_names(names, n);
    return total;
}

/* One "KEY: value" line of /proc/meminfo sought: the key, and its value once found. */
struct meminfo_scan {
    const char *key;
    const char *value;
};

static int meminfo_line(const char *line, size_t len, void *arg)
{
    struct meminfo_scan *k = arg;
    const char *v = sb_colon_value(line, len, k->key);
    if (!v)
        return 0;
    k->value = v;
    return 1;
}

long long sb_sysinfo_meminfo_kb(const char *meminfo, const char *key)
{
    struct meminfo_scan k = {.key = key};
    sb_for_each_line(meminfo, meminfo_line, &k);
    if (!k.value || !isdigit((unsigned char)*k.value))
        return -1;
    return strtoll(k.value, NULL, 10);
}

void si_memory(const char *root, char *buf, size_t len)
{
    /* The seeds' "16384MB" is 16 GiB: the figure is MiB, spelled MB as on the pages. */
    unsigned long long bytes = memory_blocks_bytes(root);
    if (bytes) {
        sb_fmt(buf, len, "%lluMB", bytes >> 20);
        return;
    }
    char *meminfo = si_slurp(root, "/proc/meminfo");
    long long kb = sb_sysinfo_meminfo_kb(meminfo, "MemTotal");
    free(meminfo);
    if (kb > 0)
        sb_fmt(buf, len, "%lldMB", kb / 1024);
    else
        sb_fmt(buf, len, SI_UNKNOWN);
}
