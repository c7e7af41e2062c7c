/*
 * collect — the whole system description of a result's identifier: the
 * hardware, software and storage groups in the seed pages' order, each value
 * from its topic's file (cpu, board, block, stack) or read here (OS from
 * os-release, Kernel, Compiler), and the stamp of when and by which
 * version it was recorded. Nothing here fails: missing facts are "Unknown"
 * (docs/sysinfo.md).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sysinfo/sysinfo.h"
#include "sysinfo/read.h"
#include "sysinfo/cpu.h"
#include "sysinfo/board.h"
#include "sysinfo/stack.h"
#include "sysinfo/sysinfo_parse.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <time.h>

#include "core/strutil.h"

struct kv_scan {
    const char *key;
    const char *value;
    size_t len;
};

static int osrel_line(const char *line, size_t len, void *arg)
{
    struct kv_scan *k = arg;
    size_t kl = strlen(k->key);
    if (len > kl && !strncmp(line, k->key, kl) && line[kl] == '=') {
        k->value = line + kl + 1;
        k->len = len - kl - 1;
        return 1;
    }
    return 0;
}

char *sb_sysinfo_os_release_value(const char *text, const char *key)
{
    struct kv_scan k = {.key = key};
    sb_for_each_line(text, osrel_line, &k);
    if (!k.value)
        return NULL;
    char *out = malloc(k.len + 1);
    if (!out)
        sb_oom();
    /* os-release values use shell quoting: "..." with \" \\ \$ \` escapes, or '...'. */
    size_t w = 0;
    char quote = 0;
    for (size_t i = 0; i < k.len; i++) {
        char c = k.value[i];
        if (!quote && (c == '"' || c == '\'')) {
            quote = c;
            continue;
        }
        if (quote && c == quote) {
            quote = 0;
            continue;
        }
        if (quote == '"' && c == '\\' && i + 1 < k.len) {
            out[w++] = k.value[++i];
            continue;
        }
        out[w++] = c;
    }
    out[w] = '\0';
    sb_trim(out);
    return out;
}
static void os_name(const char *root, char *buf, size_t len)
{
    char *text = si_slurp(root, "/etc/os-release");
    if (!text)
        text = si_slurp(root, "/usr/lib/os-release");
    char *v = sb_sysinfo_os_release_value(text, "PRETTY_NAME");
    if (!v || !*v) {
        free(v);
        v = sb_sysinfo_os_release_value(text, "NAME");
    }
    sb_fmt(buf, len, "%s", v && *v ? v : SI_UNKNOWN);
    free(v);
    free(text);
}

static void compiler(char *buf, size_t len)
{
#if defined(__clang__)
    sb_fmt(buf, len, "Clang %d.%d.%d", __clang_major__, __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
    sb_fmt(buf, len, "GCC %s", __VERSION__);
#elif defined(__VERSION__)
    sb_fmt(buf, len, "%s", __VERSION__);
#else
    sb_fmt(buf, len, SI_UNKNOWN);
#endif
}
static void add_or_unknown(sb_kvlist *l, const char *key, const char *value)
{
    sb_kvlist_add(l, key, value && *value ? value : SI_UNKNOWN);
}

int sb_sysinfo_collect_at(sb_system *sys, const char *target, const char *root)
{
    char buf[1024];
    root = root ? root : "";

    si_processor(root, buf, sizeof buf);
    sb_kvlist_add(&sys->hardware, "Processor", buf);
    si_motherboard(root, buf, sizeof buf);
    sb_kvlist_add(&sys->hardware, "Motherboard", buf);
    si_chipset(root, buf, sizeof buf);
    sb_kvlist_add(&sys->hardware, "Chipset", buf);
    si_memory(root, buf, sizeof buf);
    sb_kvlist_add(&sys->hardware, "Memory", buf);
    sb_sysinfo_read_disks(root, buf, sizeof buf);
    sb_kvlist_add(&sys->hardware, "Disk", buf);

    os_name(root, buf, sizeof buf);
    sb_kvlist_add(&sys->software, "OS", buf);
    struct utsname u;
    if (uname(&u) == 0)
        sb_fmt(buf, sizeof buf, "%s (%s)", u.release, u.machine);
    else
        sb_fmt(buf, sizeof buf, SI_UNKNOWN);
    sb_kvlist_add(&sys->software, "Kernel", buf);
    compiler(buf, sizeof buf);
    sb_kvlist_add(&sys->software, "Compiler", buf);

    char resolved[PATH_MAX];
    const char *where = target ? target : "/";
    if (!realpath(where, resolved))
        sb_fmt(resolved, sizeof resolved, "%s", where);
    struct si_target *t = calloc(1, sizeof *t);
    if (!t)
        sb_oom();
    si_describe_target(root, resolved, t, 0);
    if (!t->fstype[0]) { /* no mountinfo: the kernel still knows the filesystem type */
        struct statfs sf;
        const char *name = NULL;
        if (statfs(resolved, &sf) == 0)
            name = sb_sysinfo_fs_magic_name((unsigned long)sf.f_type);
        if (name)
            sb_fmt(t->fstype, sizeof t->fstype, "%s", name);
    }
    add_or_unknown(&sys->software, "File-System", t->fstype);

    if (target) {
        sb_kvlist_add(&sys->storage, "Target", resolved);
        add_or_unknown(&sys->storage, "Block Device", t->device);
        bool none = !strcmp(t->device, "None");
        add_or_unknown(&sys->storage, "Device Model", none ? "None" : t->model);
        add_or_unknown(&sys->storage, "Scheduler", none ? "None" : t->scheduler);
        add_or_unknown(&sys->storage, "Rotational", none ? "None" : t->rotational);
        add_or_unknown(&sys->storage, "Mount Point", t->mount_point);
        add_or_unknown(&sys->storage, "Mount Source", t->source);
        add_or_unknown(&sys->storage, "Mount Options", t->options);
        char *gov = si_slurp_attr(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
        add_or_unknown(&sys->storage, "CPU Governor", gov);
        free(gov);
    }
    free(t);
    return 0;
}

int sb_sysinfo_collect(sb_system *sys, const char *target)
{
    return sb_sysinfo_collect_at(sys, target, "");
}

void sb_system_stamp(sb_system *sys)
{
    char ts[32];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
    free(sys->timestamp);
    sys->timestamp = sb_xstrdup(ts);
    free(sys->tool_version);
    sys->tool_version = sb_xstrdup(STORBENCH_VERSION);
}
