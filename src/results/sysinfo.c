/*
 * sysinfo — describes the machine and the storage stack behind a target in
 * the seed pages' words (docs/sysinfo.md lists each source). Everything is
 * read from /proc, /sys and /etc through a root prefix so that the unit tests
 * can point it at a fixture tree; anything missing becomes "Unknown" and
 * nothing here ever fails a run. The text parsers are in the first half and
 * are exposed to the tests through sysinfo_parse.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "results/sysinfo.h"
#include "results/sysinfo_parse.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#define UNKNOWN "Unknown"

/* ------------------------------------------------------------------ */
/* small string helpers                                               */
/* ------------------------------------------------------------------ */

static char *xstrdup(const char *s)
{
    char *r = strdup(s ? s : "");
    if (!r)
        abort(); /* like the kv setters: out of memory is not a condition we report */
    return r;
}

static char *xstrndup(const char *s, size_t n)
{
    char *r = strndup(s, n);
    if (!r)
        abort();
    return r;
}

/* snprintf that truncates quietly: sysfs paths and names fit, and a clipped description is
 * better than none. */
static void fmt(char *buf, size_t len, const char *f, ...) __attribute__((format(printf, 3, 4)));
static void fmt(char *buf, size_t len, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    vsnprintf(buf, len, f, ap);
    va_end(ap);
}

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    size_t i = 0;
    while (s[i] && isspace((unsigned char)s[i]))
        i++;
    if (i)
        memmove(s, s + i, n - i + 1);
}

/* Collapses runs of blanks into one space and trims. */
static void squeeze(char *s)
{
    char *w = s;
    bool space = false;
    for (char *r = s; *r; r++) {
        if (isspace((unsigned char)*r)) {
            space = true;
            continue;
        }
        if (space && w != s)
            *w++ = ' ';
        space = false;
        *w++ = *r;
    }
    *w = '\0';
}

/* Removes every occurrence of word (as a whole, blank-delimited word). */
static void remove_word(char *s, const char *word)
{
    size_t wl = strlen(word);
    char *p = s;
    while ((p = strstr(p, word))) {
        bool start = p == s || isspace((unsigned char)p[-1]);
        bool end = p[wl] == '\0' || isspace((unsigned char)p[wl]);
        if (start && end)
            memmove(p, p + wl, strlen(p + wl) + 1);
        else
            p += wl;
    }
}

static void remove_all(char *s, const char *sub)
{
    size_t l = strlen(sub);
    char *p;
    while ((p = strstr(s, sub)))
        memmove(p, p + l, strlen(p + l) + 1);
}

/* Start of the value of "KEY<blanks>: value" when line is such a line, else NULL. */
static const char *colon_value(const char *line, size_t linelen, const char *key)
{
    size_t kl = strlen(key);
    if (linelen < kl || strncmp(line, key, kl) != 0)
        return NULL;
    const char *p = line + kl;
    while (p < line + linelen && (*p == ' ' || *p == '\t'))
        p++;
    if (p >= line + linelen || *p != ':')
        return NULL;
    p++;
    while (p < line + linelen && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* Calls fn for each line of text (without its newline); stops when fn returns non-zero. */
typedef int (*line_fn)(const char *line, size_t len, void *arg);
static void for_each_line(const char *text, line_fn fn, void *arg)
{
    if (!text)
        return;
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (fn(p, len, arg))
            return;
        if (!nl)
            break;
        p = nl + 1;
    }
}

/* ------------------------------------------------------------------ */
/* /proc/cpuinfo                                                      */
/* ------------------------------------------------------------------ */

void sb_sysinfo_tidy_cpu_model(char *s)
{
    remove_all(s, "(R)");
    remove_all(s, "(r)");
    remove_all(s, "(TM)");
    remove_all(s, "(tm)");
    /* The nominal clock in the name is replaced by the measured maximum. */
    char *at = strstr(s, " @ ");
    if (at)
        *at = '\0';
    remove_word(s, "CPU");
    squeeze(s);
    size_t n = strlen(s);
    const char *tail = " Processor";
    size_t tl = strlen(tail);
    /* "Intel Xeon Processor" -> "Intel Xeon"; a bare "Processor" is kept rather than emptied. */
    if (n > tl && !strcmp(s + n - tl, tail))
        s[n - tl] = '\0';
    squeeze(s);
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
    if (colon_value(line, len, "processor"))
        c->count++;
    if ((v = colon_value(line, len, "cpu MHz"))) {
        double m = strtod(v, NULL);
        if (m > c->mhz)
            c->mhz = m;
    }
    for (int i = 0; i < N_MODEL_KEYS; i++)
        if (!c->model[i] && (v = colon_value(line, len, model_keys[i])) && v < line + len)
            c->model[i] = xstrndup(v, (size_t)(line + len - v));
    return 0;
}

/* Scans cpuinfo; returns the best model (caller frees) and fills count and mhz. */
static char *scan_cpuinfo(const char *cpuinfo, int *count, double *mhz)
{
    struct cpu_scan c = {0};
    for_each_line(cpuinfo, cpu_line, &c);
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
    int n = snprintf(buf, len, "%s", model && *model ? model : UNKNOWN);
    if (n < 0 || (size_t)n >= len)
        return;
    if (mhz > 0)
        n += snprintf(buf + n, len - n, " @ %.2fGHz", mhz / 1000.0);
    if (n < 0 || (size_t)n >= len)
        return;
    if (ncpu > 0)
        fmt(buf + n, len - n, " (%d Core%s)", ncpu, ncpu == 1 ? "" : "s");
}

/* ------------------------------------------------------------------ */
/* /proc/meminfo, /etc/os-release                                     */
/* ------------------------------------------------------------------ */

struct kv_scan {
    const char *key;
    const char *value;
    size_t len;
};

static int meminfo_line(const char *line, size_t len, void *arg)
{
    struct kv_scan *k = arg;
    const char *v = colon_value(line, len, k->key);
    if (!v)
        return 0;
    k->value = v;
    return 1;
}

long long sb_sysinfo_meminfo_kb(const char *meminfo, const char *key)
{
    struct kv_scan k = {.key = key};
    for_each_line(meminfo, meminfo_line, &k);
    if (!k.value || !isdigit((unsigned char)*k.value))
        return -1;
    return strtoll(k.value, NULL, 10);
}

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
    for_each_line(text, osrel_line, &k);
    if (!k.value)
        return NULL;
    char *out = malloc(k.len + 1);
    if (!out)
        abort();
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
    trim(out);
    return out;
}

/* ------------------------------------------------------------------ */
/* /proc/self/mountinfo                                               */
/* ------------------------------------------------------------------ */

/* mountinfo escapes blanks, newlines and backslashes in paths as \ooo octal. */
static char *unescape_field(const char *s, size_t n)
{
    char *out = malloc(n + 1);
    if (!out)
        abort();
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\' && i + 3 < n && s[i + 1] >= '0' && s[i + 1] <= '3' &&
            s[i + 2] >= '0' && s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
            out[w++] = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
            i += 3;
        } else {
            out[w++] = s[i];
        }
    }
    out[w] = '\0';
    return out;
}

void sb_sysinfo_mount_free(sb_sysinfo_mount *m)
{
    free(m->root);
    free(m->mount_point);
    free(m->mount_opts);
    free(m->fstype);
    free(m->source);
    free(m->super_opts);
    memset(m, 0, sizeof *m);
}

/* Splits one mountinfo line; 0 or -EINVAL. */
static int parse_mount_line(const char *line, size_t len, sb_sysinfo_mount *m)
{
    enum { MAXF = 64 };
    const char *f[MAXF];
    size_t fl[MAXF];
    int nf = 0;
    size_t i = 0;
    while (i < len && nf < MAXF) {
        while (i < len && (line[i] == ' ' || line[i] == '\t'))
            i++;
        if (i >= len)
            break;
        size_t s = i;
        while (i < len && line[i] != ' ' && line[i] != '\t')
            i++;
        f[nf] = line + s;
        fl[nf] = i - s;
        nf++;
    }
    /* id parent maj:min root mountpoint opts [optional...] - fstype source superopts */
    int sep = -1;
    for (int k = 6; k < nf; k++)
        if (fl[k] == 1 && f[k][0] == '-') {
            sep = k;
            break;
        }
    if (sep < 0 || sep + 2 >= nf)
        return -EINVAL;
    char devbuf[32];
    int ids[2];
    for (int k = 0; k < 2; k++) {
        if (fl[k] >= sizeof devbuf)
            return -EINVAL;
        memcpy(devbuf, f[k], fl[k]);
        devbuf[fl[k]] = '\0';
        if (sscanf(devbuf, "%d", &ids[k]) != 1)
            return -EINVAL;
    }
    if (fl[2] >= sizeof devbuf)
        return -EINVAL;
    memcpy(devbuf, f[2], fl[2]);
    devbuf[fl[2]] = '\0';
    unsigned maj, min;
    if (sscanf(devbuf, "%u:%u", &maj, &min) != 2)
        return -EINVAL;
    memset(m, 0, sizeof *m);
    m->id = ids[0];
    m->parent = ids[1];
    m->major = maj;
    m->minor = min;
    m->root = unescape_field(f[3], fl[3]);
    m->mount_point = unescape_field(f[4], fl[4]);
    m->mount_opts = unescape_field(f[5], fl[5]);
    m->fstype = unescape_field(f[sep + 1], fl[sep + 1]);
    m->source = unescape_field(f[sep + 2], fl[sep + 2]);
    m->super_opts = sep + 3 < nf ? unescape_field(f[sep + 3], fl[sep + 3]) : xstrdup("");
    return 0;
}

/* Is mount point mp the path itself or one of its parents? */
static bool mount_contains(const char *mp, const char *path)
{
    size_t l = strlen(mp);
    if (l == 1 && mp[0] == '/')
        return path[0] == '/';
    while (l > 1 && mp[l - 1] == '/')
        l--;
    return !strncmp(mp, path, l) && (path[l] == '\0' || path[l] == '/');
}

static size_t mp_len(const char *mp)
{
    size_t l = strlen(mp);
    while (l > 1 && mp[l - 1] == '/')
        l--;
    return l;
}

struct mount_table {
    sb_sysinfo_mount *m;
    size_t n, cap;
};

static int mount_line(const char *line, size_t len, void *arg)
{
    struct mount_table *t = arg;
    sb_sysinfo_mount m;
    if (parse_mount_line(line, len, &m) < 0)
        return 0;
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 32;
        t->m = realloc(t->m, t->cap * sizeof *t->m);
        if (!t->m)
            abort();
    }
    t->m[t->n++] = m;
    return 0;
}

static bool has_mount_id(const struct mount_table *t, int id)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->m[i].id == id)
            return true;
    return false;
}

/* Walks the mount tree the way path lookup crosses mount points: from the root mount, into
 * the child whose mount point is the first one met along the path (the shortest that is a
 * prefix; a deeper sibling was covered by it), repeatedly. A mount stacked on the same point
 * is a child of the one it covers, so the walk ends on the top one. Lines are not in mount
 * order (the root mount may come after its children), so order is used only to break ties
 * between siblings on one point. */
static ssize_t walk_mounts(const struct mount_table *t, const char *path)
{
    ssize_t cur = -1;
    for (size_t i = 0; i < t->n; i++)
        if (!strcmp(t->m[i].mount_point, "/") && !has_mount_id(t, t->m[i].parent))
            cur = (ssize_t)i;
    if (cur < 0) {
        /* no tree to follow: the longest mount point containing the path, the last of equals */
        for (size_t i = 0; i < t->n; i++)
            if (mount_contains(t->m[i].mount_point, path) &&
                (cur < 0 || mp_len(t->m[i].mount_point) >= mp_len(t->m[cur].mount_point)))
                cur = (ssize_t)i;
        return cur;
    }
    for (size_t steps = 0; steps < t->n; steps++) {
        ssize_t best = -1;
        for (size_t i = 0; i < t->n; i++) {
            if ((ssize_t)i == cur || t->m[i].parent != t->m[cur].id ||
                !mount_contains(t->m[i].mount_point, path))
                continue;
            if (best < 0 || mp_len(t->m[i].mount_point) <= mp_len(t->m[best].mount_point))
                best = (ssize_t)i;
        }
        if (best < 0)
            break;
        cur = best;
    }
    return cur;
}

int sb_sysinfo_mountinfo_find(const char *mountinfo, const char *path, sb_sysinfo_mount *out)
{
    memset(out, 0, sizeof *out);
    if (!path || path[0] != '/')
        return -ENOENT;
    struct mount_table t = {0};
    for_each_line(mountinfo, mount_line, &t);
    ssize_t pick = walk_mounts(&t, path);
    for (size_t i = 0; i < t.n; i++) {
        if ((ssize_t)i == pick)
            *out = t.m[i];
        else
            sb_sysinfo_mount_free(&t.m[i]);
    }
    free(t.m);
    return pick < 0 ? -ENOENT : 0;
}

static bool option_listed(const char *list, const char *opt, size_t ol)
{
    const char *p = list;
    while (*p) {
        const char *c = strchr(p, ',');
        size_t l = c ? (size_t)(c - p) : strlen(p);
        if (l == ol && !strncmp(p, opt, ol))
            return true;
        if (!c)
            break;
        p = c + 1;
    }
    return false;
}

char *sb_sysinfo_merge_options(const char *mount_opts, const char *super_opts)
{
    mount_opts = mount_opts ? mount_opts : "";
    super_opts = super_opts ? super_opts : "";
    size_t cap = strlen(mount_opts) + strlen(super_opts) + 2;
    char *out = malloc(cap);
    if (!out)
        abort();
    strcpy(out, mount_opts);
    const char *p = super_opts;
    while (*p) {
        const char *c = strchr(p, ',');
        size_t l = c ? (size_t)(c - p) : strlen(p);
        /* rw/ro is per mount; the superblock's copy only repeats (or contradicts) it. */
        bool rwro = (l == 2 && (!strncmp(p, "rw", 2) || !strncmp(p, "ro", 2)));
        if (l && !rwro && !option_listed(out, p, l)) {
            if (*out)
                strcat(out, ",");
            strncat(out, p, l);
        }
        if (!c)
            break;
        p = c + 1;
    }
    return out;
}

/* ------------------------------------------------------------------ */
/* block devices                                                      */
/* ------------------------------------------------------------------ */

char *sb_sysinfo_scheduler(const char *text)
{
    if (!text)
        return NULL;
    const char *o = strchr(text, '[');
    const char *c = o ? strchr(o, ']') : NULL;
    if (o)
        return c && c > o + 1 ? xstrndup(o + 1, (size_t)(c - o - 1)) : NULL;
    char *s = xstrdup(text);
    trim(s);
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
        fmt(buf, len, "%s", model);
        return;
    }
    char size[32];
    if (bytes >= 500000000ULL) /* the seeds print every disk in whole decimal GB */
        fmt(size, sizeof size, "%lluGB", (unsigned long long)((bytes + 500000000ULL) / 1000000000ULL));
    else
        fmt(size, sizeof size, "%lluMB", (unsigned long long)((bytes + 500000ULL) / 1000000ULL));
    fmt(buf, len, "%s%s%s", size, has_model ? " " : "", has_model ? model : "");
}

void sb_sysinfo_format_disks(char *buf, size_t len, const sb_sysinfo_disk *d, size_t n)
{
    if (len == 0)
        return;
    buf[0] = '\0';
    if (n == 0) {
        fmt(buf, len, UNKNOWN);
        return;
    }
    char (*labels)[256] = calloc(n, sizeof *labels);
    bool *used = calloc(n, sizeof *used);
    if (!labels || !used)
        abort();
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

/* Reads a whole (small) file below root; NULL when unreadable. Caller frees. */
static char *slurp(const char *root, const char *path)
{
    char full[PATH_MAX];
    if (snprintf(full, sizeof full, "%s%s", root, path) >= (int)sizeof full)
        return NULL;
    FILE *f = fopen(full, "re");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    if (!buf)
        abort();
    for (;;) {
        size_t r = fread(buf + n, 1, cap - n - 1, f);
        n += r;
        if (r == 0)
            break;
        if (n + 1 == cap) {
            if (cap >= (4u << 20)) /* nothing we read is this large; stop rather than grow */
                break;
            cap *= 2;
            buf = realloc(buf, cap);
            if (!buf)
                abort();
        }
    }
    fclose(f);
    buf[n] = '\0';
    return buf;
}

/* One trimmed line of a sysfs attribute; NULL when unreadable or empty. */
static char *slurp_attr(const char *root, const char *path)
{
    char *s = slurp(root, path);
    if (!s)
        return NULL;
    trim(s);
    if (!*s) {
        free(s);
        return NULL;
    }
    return s;
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
static char *disk_model(const char *root, const char *diskdir)
{
    char p[PATH_MAX];
    fmt(p, sizeof p, "%s/device/model", diskdir);
    char *m = slurp_attr(root, p);
    if (!m) { /* MMC/SD cards name themselves here */
        fmt(p, sizeof p, "%s/device/name", diskdir);
        m = slurp_attr(root, p);
    }
    if (!m) {
        /* a loop device is its backing file */
        fmt(p, sizeof p, "%s/loop/backing_file", diskdir);
        char *file = slurp_attr(root, p);
        if (file) {
            size_t l = strlen(file) + 32;
            m = malloc(l);
            if (!m)
                abort();
            fmt(m, l, "Loop device (%s)", file);
            free(file);
        }
    }
    if (!m) {
        /* virtio disks have no model attribute; say what they are rather than nothing */
        char full[PATH_MAX], real[PATH_MAX];
        fmt(full, sizeof full, "%s%s", root, diskdir);
        if (realpath(full, real) && strstr(real, "/virtio"))
            m = xstrdup("Virtio Block Device");
    }
    if (m)
        squeeze(m);
    return m;
}

static int version_cmp(const void *a, const void *b)
{
    return strverscmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted entry names of a directory below root (no dot entries); count in *n. */
static char **list_dir(const char *root, const char *path, size_t *n)
{
    char full[PATH_MAX];
    *n = 0;
    fmt(full, sizeof full, "%s%s", root, path);
    DIR *d = opendir(full);
    if (!d)
        return NULL;
    char **names = NULL;
    size_t cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (*n == cap) {
            cap = cap ? cap * 2 : 16;
            names = realloc(names, cap * sizeof *names);
            if (!names)
                abort();
        }
        names[(*n)++] = xstrdup(e->d_name);
    }
    closedir(d);
    if (*n)
        qsort(names, *n, sizeof *names, version_cmp);
    return names;
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

void sb_sysinfo_read_disks(const char *root, char *buf, size_t len)
{
    size_t n = 0;
    char **names = list_dir(root, "/sys/block", &n);
    sb_sysinfo_disk *disks = calloc(n ? n : 1, sizeof *disks);
    char **models = calloc(n ? n : 1, sizeof *models);
    if (!disks || !models)
        abort();
    size_t nd = 0;
    for (size_t i = 0; i < n; i++) {
        if (skipped_block_name(names[i]))
            continue;
        char p[PATH_MAX], full[PATH_MAX], real[PATH_MAX];
        fmt(p, sizeof p, "/sys/block/%s", names[i]);
        fmt(full, sizeof full, "%s%s", root, p);
        if (realpath(full, real) && strstr(real, "/devices/virtual/"))
            continue;
        char sp[PATH_MAX];
        fmt(sp, sizeof sp, "%s/size", p);
        char *size = slurp_attr(root, sp);
        unsigned long long sectors = size ? strtoull(size, NULL, 10) : 0;
        free(size);
        if (sectors == 0) /* empty card readers and drives without media */
            continue;
        /* NVMe multipath paths (nvme0c0n1) are hidden: the namespace is listed already */
        fmt(sp, sizeof sp, "%s/hidden", p);
        char *hidden = slurp_attr(root, sp);
        bool skip = hidden && hidden[0] == '1';
        free(hidden);
        if (skip)
            continue;
        models[nd] = disk_model(root, p);
        disks[nd].bytes = sectors * 512ULL; /* sysfs sizes are always in 512-byte sectors */
        disks[nd].model = models[nd];
        nd++;
    }
    sb_sysinfo_format_disks(buf, len, disks, nd);
    for (size_t i = 0; i < nd; i++)
        free(models[i]);
    free(models);
    free(disks);
    free_names(names, n);
}

/* ------------------------------------------------------------------ */
/* filesystem magic numbers                                           */
/* ------------------------------------------------------------------ */

const char *sb_sysinfo_fs_magic_name(unsigned long magic)
{
    static const struct {
        unsigned long magic;
        const char *name;
    } t[] = {
        {0xEF53, "ext4"}, /* ext2/3/4 share one magic; ext4 is what a modern kernel mounts */
        {0x58465342, "xfs"},
        {0x9123683E, "btrfs"},
        {0x01021994, "tmpfs"},
        {0x794C7630, "overlayfs"},
        {0x6969, "nfs"},
        {0x2FC12FC1, "zfs"},
        {0xF2F52010, "f2fs"},
        {0x4D44, "vfat"},
        {0x5346544E, "ntfs"},
        {0x65735546, "fuse"},
        {0xCA451A4E, "bcachefs"},
        {0x858458F6, "ramfs"},
        {0x3153464A, "jfs"},
        {0x52654973, "reiserfs"},
        {0xFF534D42, "cifs"},
        {0x9FA0, "proc"},
        {0x62656572, "sysfs"},
        {0x2011BAB0, "exfat"},
        {0x73717368, "squashfs"},
        {0x01161970, "gfs2"},
        {0x7461636F, "ocfs2"},
        {0x00C36400, "ceph"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (t[i].magic == (magic & 0xFFFFFFFFUL))
            return t[i].name;
    return NULL;
}

/* ------------------------------------------------------------------ */
/* collecting                                                         */
/* ------------------------------------------------------------------ */

static bool placeholder(const char *s)
{
    static const char *const junk[] = {"To be filled by O.E.M.", "To Be Filled By O.E.M.",
                                       "Default string", "Not Applicable", "Not Specified",
                                       "None", "System Product Name", "System Version",
                                       "Type2 - Board Version", "x.x", "N/A", "0", "Not Defined",
                                       "Unknown", NULL};
    if (!s || !*s)
        return true;
    for (int i = 0; junk[i]; i++)
        if (!strcasecmp(s, junk[i]))
            return true;
    return false;
}

/* "Micro-Star International Co., Ltd." -> "MSI", "Intel Corporation" -> "Intel". */
static void tidy_vendor(char *v)
{
    static const struct {
        const char *prefix, *shortname;
    } t[] = {
        {"Micro-Star", "MSI"},   {"ASUSTeK", "ASUS"},       {"Gigabyte", "Gigabyte"},
        {"GIGABYTE", "Gigabyte"}, {"ASRock", "ASRock"},      {"Hewlett", "HP"},
        {"Dell", "Dell"},         {"Advanced Micro Devices", "AMD"},
        {"Intel", "Intel"},       {"Supermicro", "Supermicro"},
        {"Super Micro", "Supermicro"}, {"NVIDIA", "NVIDIA"}, {"Red Hat", "Red Hat"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (!strncmp(v, t[i].prefix, strlen(t[i].prefix))) {
            strcpy(v, t[i].shortname); /* every short name is no longer than its prefix */
            return;
        }
    static const char *const suffixes[] = {" Co., Ltd.", " Co.,Ltd.", " Co., Ltd", ", Inc.",
                                           " Inc.", " Corporation", " Corp.", " Ltd.", " GmbH",
                                           " Technology", NULL};
    for (int again = 1; again;) {
        again = 0;
        size_t n = strlen(v);
        for (int i = 0; suffixes[i]; i++) {
            size_t l = strlen(suffixes[i]);
            if (n > l && !strcmp(v + n - l, suffixes[i])) {
                v[n - l] = '\0';
                again = 1;
                break;
            }
        }
    }
    trim(v);
}

static void motherboard(const char *root, char *buf, size_t len)
{
    char *vendor = slurp_attr(root, "/sys/class/dmi/id/board_vendor");
    char *name = slurp_attr(root, "/sys/class/dmi/id/board_name");
    char *ver = slurp_attr(root, "/sys/class/dmi/id/board_version");
    size_t w = 0;
    buf[0] = '\0';
    if (!placeholder(vendor)) {
        tidy_vendor(vendor);
        w += snprintf(buf + w, len - w, "%s", vendor);
    }
    if (!placeholder(name) && w < len)
        w += snprintf(buf + w, len - w, "%s%s", w ? " " : "", name);
    if (w && !placeholder(ver) && w < len)
        fmt(buf + w, len - w, " %s%s", isdigit((unsigned char)ver[0]) ? "v" : "", ver);
    if (!buf[0])
        fmt(buf, len, UNKNOWN);
    free(vendor);
    free(name);
    free(ver);
}

/* Names from the PCI ID database when installed; vendor/device are lowercase hex. */
static void pci_names(const char *root, const char *vendor, const char *device, char *vname,
                      size_t vlen, char *dname, size_t dlen)
{
    static const char *const dbs[] = {"/usr/share/misc/pci.ids", "/usr/share/hwdata/pci.ids",
                                      "/usr/share/pci.ids", NULL};
    char *db = NULL;
    for (int i = 0; dbs[i] && !db; i++)
        db = slurp(root, dbs[i]);
    if (!db)
        return;
    bool in_vendor = false;
    for (char *line = db, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (line[0] == '#' || !line[0])
            continue;
        if (line[0] != '\t') {
            if (in_vendor) /* the vendor's device list ended without our device */
                break;
            if (!strncasecmp(line, vendor, 4) && line[4] == ' ') {
                in_vendor = true;
                fmt(vname, vlen, "%s", line + 4);
                trim(vname);
            }
        } else if (in_vendor && line[1] != '\t' && !strncasecmp(line + 1, device, 4) &&
                   line[5] == ' ') {
            fmt(dname, dlen, "%s", line + 5);
            trim(dname);
            break;
        }
    }
    free(db);
}

/* The host bridge (PCI class 0x0600) at the root of the PCI tree. */
static void chipset(const char *root, char *buf, size_t len)
{
    fmt(buf, len, UNKNOWN);
    size_t n = 0;
    char **names = list_dir(root, "/sys/bus/pci/devices", &n);
    for (size_t i = 0; i < n; i++) {
        char p[PATH_MAX];
        fmt(p, sizeof p, "/sys/bus/pci/devices/%s/class", names[i]);
        char *cls = slurp_attr(root, p);
        bool host = cls && strtoul(cls, NULL, 16) >> 8 == 0x0600;
        free(cls);
        if (!host)
            continue;
        fmt(p, sizeof p, "/sys/bus/pci/devices/%s/vendor", names[i]);
        char *ven = slurp_attr(root, p);
        fmt(p, sizeof p, "/sys/bus/pci/devices/%s/device", names[i]);
        char *dev = slurp_attr(root, p);
        if (ven && dev) {
            char vhex[8], dhex[8];
            fmt(vhex, sizeof vhex, "%04lx", strtoul(ven, NULL, 16) & 0xFFFF);
            fmt(dhex, sizeof dhex, "%04lx", strtoul(dev, NULL, 16) & 0xFFFF);
            char vname[128] = "", dname[192] = "";
            pci_names(root, vhex, dhex, vname, sizeof vname, dname, sizeof dname);
            if (!vname[0]) {
                static const struct {
                    const char *id, *name;
                } known[] = {{"8086", "Intel"}, {"1022", "AMD"},     {"10de", "NVIDIA"},
                             {"1106", "VIA"},   {"1039", "SiS"},     {"1b36", "Red Hat"},
                             {"1af4", "Red Hat"}, {"15ad", "VMware"}, {"1414", "Microsoft"}};
                for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
                    if (!strcmp(known[k].id, vhex))
                        fmt(vname, sizeof vname, "%s", known[k].name);
            }
            tidy_vendor(vname);
            if (!vname[0])
                fmt(vname, sizeof vname, "Vendor %s", vhex);
            if (dname[0])
                fmt(buf, len, "%s %s", vname, dname);
            else
                fmt(buf, len, "%s Device %s", vname, dhex);
        }
        free(ven);
        free(dev);
        break;
    }
    free_names(names, n);
}

static void processor(const char *root, char *buf, size_t len)
{
    char *cpuinfo = slurp(root, "/proc/cpuinfo");
    char *model = sb_sysinfo_cpu_model(cpuinfo);
    int ncpu = sb_sysinfo_cpu_count(cpuinfo);
    double mhz = 0;
    char *maxf = slurp_attr(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq");
    if (!maxf)
        maxf = slurp_attr(root, "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
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
    char *bs = slurp_attr(root, "/sys/devices/system/memory/block_size_bytes");
    unsigned long long block = bs ? strtoull(bs, NULL, 16) : 0;
    free(bs);
    if (!block)
        return 0;
    size_t n = 0;
    char **names = list_dir(root, "/sys/devices/system/memory", &n);
    unsigned long long total = 0;
    for (size_t i = 0; i < n; i++) {
        if (strncmp(names[i], "memory", 6) || !isdigit((unsigned char)names[i][6]))
            continue;
        char p[PATH_MAX];
        fmt(p, sizeof p, "/sys/devices/system/memory/%s/online", names[i]);
        char *on = slurp_attr(root, p);
        if (!on || on[0] == '1') /* boot memory without an online switch is online */
            total += block;
        free(on);
    }
    free_names(names, n);
    return total;
}

static void memory(const char *root, char *buf, size_t len)
{
    /* The seeds' "16384MB" is 16 GiB: the figure is MiB, spelled MB as on the pages. */
    unsigned long long bytes = memory_blocks_bytes(root);
    if (bytes) {
        fmt(buf, len, "%lluMB", bytes >> 20);
        return;
    }
    char *meminfo = slurp(root, "/proc/meminfo");
    long long kb = sb_sysinfo_meminfo_kb(meminfo, "MemTotal");
    free(meminfo);
    if (kb > 0)
        fmt(buf, len, "%lldMB", kb / 1024);
    else
        fmt(buf, len, UNKNOWN);
}

static void os_name(const char *root, char *buf, size_t len)
{
    char *text = slurp(root, "/etc/os-release");
    if (!text)
        text = slurp(root, "/usr/lib/os-release");
    char *v = sb_sysinfo_os_release_value(text, "PRETTY_NAME");
    if (!v || !*v) {
        free(v);
        v = sb_sysinfo_os_release_value(text, "NAME");
    }
    fmt(buf, len, "%s", v && *v ? v : UNKNOWN);
    free(v);
    free(text);
}

static void compiler(char *buf, size_t len)
{
#if defined(__clang__)
    fmt(buf, len, "Clang %d.%d.%d", __clang_major__, __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
    fmt(buf, len, "GCC %s", __VERSION__);
#elif defined(__VERSION__)
    fmt(buf, len, "%s", __VERSION__);
#else
    fmt(buf, len, UNKNOWN);
#endif
}

/* What we learn about the target's storage stack. */
struct target_info {
    char fstype[64];
    char mount_point[PATH_MAX];
    char source[PATH_MAX];
    char options[1024];
    char device[256];
    char model[256];
    char scheduler[64];
    char rotational[16];
};

/* realpath of root + rel, given back relative to root; false when it does not resolve or
 * leads out of root. */
static bool resolve_below(const char *root, const char *rel, char *out, size_t len)
{
    char full[PATH_MAX], real[PATH_MAX], rootreal[PATH_MAX];
    fmt(full, sizeof full, "%s%s", root, rel);
    if (!realpath(full, real))
        return false;
    size_t rl = 0;
    if (root[0]) {
        if (!realpath(root, rootreal))
            return false;
        rl = strlen(rootreal);
        if (strncmp(real, rootreal, rl) != 0 || (real[rl] != '/' && real[rl] != '\0'))
            return false;
    }
    fmt(out, len, "%s", real + rl);
    return true;
}

/* Root-relative sysfs directory of a block device number, resolved; false when absent. */
static bool sysfs_dev_dir(const char *root, unsigned maj, unsigned min, char *out, size_t len)
{
    char rel[64];
    fmt(rel, sizeof rel, "/sys/dev/block/%u:%u", maj, min);
    return resolve_below(root, rel, out, len);
}

static bool sysfs_exists(const char *root, const char *dir, const char *attr)
{
    char full[PATH_MAX];
    fmt(full, sizeof full, "%s%s/%s", root, dir, attr);
    return access(full, F_OK) == 0;
}

/* A partition's disk is its parent directory in sysfs. */
static void whole_disk(const char *root, char *dir)
{
    if (sysfs_exists(root, dir, "partition")) {
        char *slash = strrchr(dir, '/');
        if (slash && slash != dir)
            *slash = '\0';
    }
}

/* Follows dm/md "slaves" down to the physical disks: leaf names go into names (" + "
 * joined), the first leaf's directory into first. */
static void leaf_disks(const char *root, const char *dir, int depth, char *names, size_t nlen,
                       char *first, size_t flen)
{
    char sl[PATH_MAX];
    fmt(sl, sizeof sl, "%s/slaves", dir);
    size_t n = 0;
    char **sub = depth < 4 ? list_dir(root, sl, &n) : NULL;
    if (n == 0) {
        char d[PATH_MAX];
        fmt(d, sizeof d, "%s", dir);
        whole_disk(root, d);
        const char *base = strrchr(d, '/');
        base = base ? base + 1 : d;
        char with[PATH_MAX];
        fmt(with, sizeof with, " %s ", base);
        char padded[1024];
        fmt(padded, sizeof padded, " %s ", names);
        /* two partitions of one disk under an md array name the disk once */
        if (!strstr(padded, with)) {
            size_t l = strlen(names);
            fmt(names + l, nlen - l, "%s%s", l ? " + " : "", base);
        }
        if (!first[0])
            fmt(first, flen, "%s", d);
    }
    for (size_t i = 0; i < n; i++) {
        char rel[PATH_MAX], sub_dir[PATH_MAX];
        fmt(rel, sizeof rel, "%s/%s", sl, sub[i]);
        if (resolve_below(root, rel, sub_dir, sizeof sub_dir))
            leaf_disks(root, sub_dir, depth + 1, names, nlen, first, flen);
    }
    free_names(sub, n);
}

/* A multi-device btrfs lists its members in /sys/fs/btrfs/<uuid>/devices; the mount source
 * names only one of them. True (members " + " joined into label, the first one's sysfs
 * directory into first) when name belongs to a filesystem of more than one device. */
static bool btrfs_members(const char *root, const char *name, char *label, size_t llen,
                          char *first, size_t flen)
{
    size_t n = 0;
    char **fs = list_dir(root, "/sys/fs/btrfs", &n);
    bool found = false;
    for (size_t i = 0; i < n && !found; i++) {
        char d[PATH_MAX];
        fmt(d, sizeof d, "/sys/fs/btrfs/%s/devices", fs[i]);
        size_t m = 0;
        char **devs = list_dir(root, d, &m);
        for (size_t j = 0; j < m; j++)
            if (!strcmp(devs[j], name))
                found = m > 1;
        if (found) {
            char rel[PATH_MAX];
            label[0] = '\0';
            for (size_t j = 0; j < m; j++) {
                size_t l = strlen(label);
                fmt(label + l, llen - l, "%s%s", j ? " + " : "", devs[j]);
            }
            fmt(rel, sizeof rel, "%s/%s", d, devs[0]);
            if (resolve_below(root, rel, first, flen))
                whole_disk(root, first);
            else
                found = false;
        }
        free_names(devs, m);
    }
    free_names(fs, n);
    return found;
}

static void describe_device(const char *root, unsigned maj, unsigned min, bool btrfs,
                            struct target_info *t)
{
    char dir[PATH_MAX];
    if (!sysfs_dev_dir(root, maj, min, dir, sizeof dir)) {
        fmt(t->device, sizeof t->device, "%u:%u", maj, min);
        return;
    }
    const char *top = strrchr(dir, '/');
    top = top ? top + 1 : dir;
    char leaves[512] = "", first[PATH_MAX] = "";
    if (btrfs && btrfs_members(root, top, leaves, sizeof leaves, first, sizeof first)) {
        fmt(t->device, sizeof t->device, "%s", leaves);
    } else {
        leaf_disks(root, dir, 0, leaves, sizeof leaves, first, sizeof first);
        if (!strcmp(leaves, top))
            fmt(t->device, sizeof t->device, "%s", top);
        else
            fmt(t->device, sizeof t->device, "%s on %s", top, leaves);
    }
    char p[PATH_MAX];
    char *m = disk_model(root, first);
    if (m)
        fmt(t->model, sizeof t->model, "%s", m);
    free(m);
    fmt(p, sizeof p, "%s/queue/scheduler", first);
    char *text = slurp(root, p);
    char *s = sb_sysinfo_scheduler(text);
    if (s)
        fmt(t->scheduler, sizeof t->scheduler, "%s", s);
    free(s);
    free(text);
    fmt(p, sizeof p, "%s/queue/rotational", first);
    char *r = slurp_attr(root, p);
    if (r && (r[0] == '0' || r[0] == '1'))
        fmt(t->rotational, sizeof t->rotational, "%s", r[0] == '1' ? "Yes" : "No");
    free(r);
}

/* Value of name=... in a comma-separated option list, or NULL. Caller frees. */
static char *option_value(const char *opts, const char *name)
{
    size_t nl = strlen(name);
    for (const char *p = opts; p && *p;) {
        const char *c = strchr(p, ',');
        size_t l = c ? (size_t)(c - p) : strlen(p);
        if (l > nl && !strncmp(p, name, nl) && p[nl] == '=')
            return xstrndup(p + nl + 1, l - nl - 1);
        p = c ? c + 1 : NULL;
    }
    return NULL;
}

static void describe_target(const char *root, const char *path, struct target_info *t, int depth)
{
    char *mi = slurp(root, "/proc/self/mountinfo");
    sb_sysinfo_mount m;
    int rc = sb_sysinfo_mountinfo_find(mi, path, &m);
    free(mi);
    if (rc < 0)
        return;
    if (depth == 0) {
        fmt(t->fstype, sizeof t->fstype, "%s", m.fstype);
        fmt(t->mount_point, sizeof t->mount_point, "%s", m.mount_point);
        fmt(t->source, sizeof t->source, "%s", m.source);
        char *o = sb_sysinfo_merge_options(m.mount_opts, m.super_opts);
        fmt(t->options, sizeof t->options, "%s", o);
        free(o);
    }
    unsigned maj = m.major, min = m.minor;
    /* btrfs (and others) report an anonymous 0:N device; the source names the real one. */
    if (maj == 0 && !strncmp(m.source, "/dev/", 5)) {
        char full[PATH_MAX];
        struct stat st;
        fmt(full, sizeof full, "%s%s", root, m.source);
        if (stat(full, &st) == 0 && S_ISBLK(st.st_mode)) {
            maj = major(st.st_rdev);
            min = minor(st.st_rdev);
        } else {
            /* no device node to stat (a fixture root): sysfs knows the number by name */
            char p[PATH_MAX];
            fmt(p, sizeof p, "/sys/class/block/%s/dev", strrchr(m.source, '/') + 1);
            char *dev = slurp_attr(root, p);
            if (!dev || sscanf(dev, "%u:%u", &maj, &min) != 2)
                maj = min = 0;
            free(dev);
        }
    }
    if (maj != 0) {
        describe_device(root, maj, min, !strcmp(m.fstype, "btrfs"), t);
    } else if (!strcmp(m.fstype, "overlay") && depth == 0) {
        /* An overlay writes into its upper directory: describe the storage behind that. */
        char *upper = option_value(m.super_opts, "upperdir");
        if (upper && upper[0] == '/')
            describe_target(root, upper, t, depth + 1);
        free(upper);
        if (!t->device[0])
            fmt(t->device, sizeof t->device, "None");
    } else if (depth == 0) {
        fmt(t->device, sizeof t->device, "None");
    }
    sb_sysinfo_mount_free(&m);
}

static void add_or_unknown(sb_kvlist *l, const char *key, const char *value)
{
    sb_kvlist_add(l, key, value && *value ? value : UNKNOWN);
}

int sb_sysinfo_collect_at(sb_system *sys, const char *target, const char *root)
{
    char buf[1024];
    root = root ? root : "";

    processor(root, buf, sizeof buf);
    sb_kvlist_add(&sys->hardware, "Processor", buf);
    motherboard(root, buf, sizeof buf);
    sb_kvlist_add(&sys->hardware, "Motherboard", buf);
    chipset(root, buf, sizeof buf);
    sb_kvlist_add(&sys->hardware, "Chipset", buf);
    memory(root, buf, sizeof buf);
    sb_kvlist_add(&sys->hardware, "Memory", buf);
    sb_sysinfo_read_disks(root, buf, sizeof buf);
    sb_kvlist_add(&sys->hardware, "Disk", buf);

    os_name(root, buf, sizeof buf);
    sb_kvlist_add(&sys->software, "OS", buf);
    struct utsname u;
    if (uname(&u) == 0)
        fmt(buf, sizeof buf, "%s (%s)", u.release, u.machine);
    else
        fmt(buf, sizeof buf, UNKNOWN);
    sb_kvlist_add(&sys->software, "Kernel", buf);
    compiler(buf, sizeof buf);
    sb_kvlist_add(&sys->software, "Compiler", buf);

    char resolved[PATH_MAX];
    const char *where = target ? target : "/";
    if (!realpath(where, resolved))
        fmt(resolved, sizeof resolved, "%s", where);
    struct target_info *t = calloc(1, sizeof *t);
    if (!t)
        abort();
    describe_target(root, resolved, t, 0);
    if (!t->fstype[0]) { /* no mountinfo: the kernel still knows the filesystem type */
        struct statfs sf;
        const char *name = NULL;
        if (statfs(resolved, &sf) == 0)
            name = sb_sysinfo_fs_magic_name((unsigned long)sf.f_type);
        if (name)
            fmt(t->fstype, sizeof t->fstype, "%s", name);
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
        char *gov = slurp_attr(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
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
