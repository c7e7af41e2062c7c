/*
 * block — the Disk line: every whole disk in /sys/block with its size and
 * model, labelled and grouped as on the seed pages, and the I/O scheduler
 * file format (docs/sysinfo.md, Hardware: Disk).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sysinfo/read.h"
#include "sysinfo/block.h"
#include "sysinfo/sysinfo_parse.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strutil.h"

char *sb_sysinfo_scheduler(const char *text)
{
    if (!text)
        return NULL;
    const char *o = strchr(text, '[');
    const char *c = o ? strchr(o, ']') : NULL;
    if (o)
        return c && c > o + 1 ? sb_xstrndup(o + 1, (size_t)(c - o - 1)) : NULL;
    char *s = sb_xstrdup(text);
    sb_trim(s);
    if (!*s || strchr(s, ' ')) {
        free(s);
        return NULL;
    }
    return s;
}

/* Does the model already carry a size token like "256GB" or "2TB"? */
static bool model_names_size(const char *model)
{
    const char *p = model;
    while (*p) {
        while (*p && isspace((unsigned char)*p))
            p++;
        const char *s = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        const char *q = s;
        if (q == p || !isdigit((unsigned char)*q))
            continue;
        while (q < p && (isdigit((unsigned char)*q) || *q == '.'))
            q++;
        if (p - q == 2 && (!strncasecmp(q, "GB", 2) || !strncasecmp(q, "TB", 2)))
            return true;
    }
    return false;
}

void sb_sysinfo_disk_label(char *buf, size_t len, uint64_t bytes, const char *model)
{
    bool has_model = model && *model;
    if (has_model && model_names_size(model)) {
        sb_fmt(buf, len, "%s", model);
        return;
    }
    char size[32];
    if (bytes >= 500000000ULL) /* the seeds print every disk in whole decimal GB */
        sb_fmt(size, sizeof size, "%lluGB", (unsigned long long)((bytes + 500000000ULL) / 1000000000ULL));
    else
        sb_fmt(size, sizeof size, "%lluMB", (unsigned long long)((bytes + 500000ULL) / 1000000ULL));
    sb_fmt(buf, len, "%s%s%s", size, has_model ? " " : "", has_model ? model : "");
}

void sb_sysinfo_format_disks(char *buf, size_t len, const sb_sysinfo_disk *d, size_t n)
{
    if (len == 0)
        return;
    buf[0] = '\0';
    if (n == 0) {
        sb_fmt(buf, len, SI_UNKNOWN);
        return;
    }
    char (*labels)[256] = calloc(n, sizeof *labels);
    bool *used = calloc(n, sizeof *used);
    if (!labels || !used)
        sb_oom();
    for (size_t i = 0; i < n; i++)
        sb_sysinfo_disk_label(labels[i], sizeof labels[i], d[i].bytes, d[i].model);
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        if (used[i])
            continue;
        int count = 0;
        for (size_t j = i; j < n; j++)
            if (!used[j] && !strcmp(labels[i], labels[j])) {
                used[j] = true;
                count++;
            }
        int r;
        if (count > 1)
            r = snprintf(buf + w, len - w, "%s%d x %s", w ? " + " : "", count, labels[i]);
        else
            r = snprintf(buf + w, len - w, "%s%s", w ? " + " : "", labels[i]);
        if (r < 0 || (size_t)r >= len - w)
            break;
        w += (size_t)r;
    }
    free(labels);
    free(used);
}
/* Virtual devices stack on the disks that are already listed, or are not disks at all. */
static bool skipped_block_name(const char *name)
{
    static const char *const prefixes[] = {"loop", "ram", "zram", "dm-", "md", "nbd", "sr", "fd",
                                           NULL};
    for (int i = 0; prefixes[i]; i++)
        if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
            return true;
    return name[0] == '.';
}

/* The model of a whole disk's sysfs directory (root-relative path), NULL when none. */
char *si_disk_model(const char *root, const char *diskdir)
{
    char p[PATH_MAX];
    sb_fmt(p, sizeof p, "%s/device/model", diskdir);
    char *m = si_slurp_attr(root, p);
    if (!m) { /* MMC/SD cards name themselves here */
        sb_fmt(p, sizeof p, "%s/device/name", diskdir);
        m = si_slurp_attr(root, p);
    }
    if (!m) {
        /* a loop device is its backing file */
        sb_fmt(p, sizeof p, "%s/loop/backing_file", diskdir);
        char *file = si_slurp_attr(root, p);
        if (file) {
            size_t l = strlen(file) + 32;
            m = malloc(l);
            if (!m)
                sb_oom();
            sb_fmt(m, l, "Loop device (%s)", file);
            free(file);
        }
    }
    if (!m) {
        /* virtio disks have no model attribute; say what they are rather than nothing */
        char full[PATH_MAX], real[PATH_MAX];
        sb_fmt(full, sizeof full, "%s%s", root, diskdir);
        if (realpath(full, real) && strstr(real, "/virtio"))
            m = sb_xstrdup("Virtio Block Device");
    }
    if (m)
        sb_squeeze(m);
    return m;
}
void sb_sysinfo_read_disks(const char *root, char *buf, size_t len)
{
    size_t n = 0;
    char **names = si_list_dir(root, "/sys/block", &n);
    sb_sysinfo_disk *disks = calloc(n ? n : 1, sizeof *disks);
    char **models = calloc(n ? n : 1, sizeof *models);
    if (!disks || !models)
        sb_oom();
    size_t nd = 0;
    for (size_t i = 0; i < n; i++) {
        if (skipped_block_name(names[i]))
            continue;
        char p[PATH_MAX], full[PATH_MAX], real[PATH_MAX];
        sb_fmt(p, sizeof p, "/sys/block/%s", names[i]);
        sb_fmt(full, sizeof full, "%s%s", root, p);
        if (realpath(full, real) && strstr(real, "/devices/virtual/"))
            continue;
        char sp[PATH_MAX];
        sb_fmt(sp, sizeof sp, "%s/size", p);
        char *size = si_slurp_attr(root, sp);
        unsigned long long sectors = size ? strtoull(size, NULL, 10) : 0;
        free(size);
        if (sectors == 0) /* empty card readers and drives without media */
            continue;
        /* NVMe multipath paths (nvme0c0n1) are hidden: the namespace is listed already */
        sb_fmt(sp, sizeof sp, "%s/hidden", p);
        char *hidden = si_slurp_attr(root, sp);
        bool skip = hidden && hidden[0] == '1';
        free(hidden);
        if (skip)
            continue;
        models[nd] = si_disk_model(root, p);
        disks[nd].bytes = sectors * 512ULL; /* sysfs sizes are always in 512-byte sectors */
        disks[nd].model = models[nd];
        nd++;
    }
    sb_sysinfo_format_disks(buf, len, disks, nd);
    for (size_t i = 0; i < nd; i++)
        free(models[i]);
    free(models);
    free(disks);
    si_free_names(names, n);
}
