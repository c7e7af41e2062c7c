/*
 * mounts — /proc/self/mountinfo: which mount holds a path (walking the mount
 * tree as path lookup does) and its options as findmnt shows them.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sysinfo/sysinfo_parse.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "core/strutil.h"

/* mountinfo escapes blanks, newlines and backslashes in paths as \ooo octal. */
static char *unescape_field(const char *s, size_t n)
{
    char *out = malloc(n + 1);
    if (!out)
        sb_oom();
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
    m->super_opts = sep + 3 < nf ? unescape_field(f[sep + 3], fl[sep + 3]) : sb_xstrdup("");
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
            sb_oom();
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
    sb_for_each_line(mountinfo, mount_line, &t);
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
        sb_oom();
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
