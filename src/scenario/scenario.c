/*
 * scenario — the scenario file parser (see scenario.h and docs/scenarios.md).
 * Line by line: blank lines and lines starting with '#' or ';' are ignored,
 * "[name]" opens a section, "key = value" sets a key of the open section.
 * A configuration is checked as a whole when its section ends.
 */
#include "scenario/scenario.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/units.h"
#include "devices/model.h"
#include "results/result.h" /* sb_utf8_check */

static const struct {
    const char *name;
    unsigned min_devices;
} profiles[] = {
    {"single", 1}, {"dup", 1}, {"raid0", 2}, {"raid1", 2}, {"raid1c3", 3},
    {"raid1c4", 4}, {"raid10", 2}, {"raid5", 2}, {"raid6", 3},
};

unsigned sb_btrfs_profile_min_devices(const char *profile)
{
    if (!profile || !*profile)
        return 1;
    for (size_t i = 0; i < sizeof profiles / sizeof profiles[0]; i++)
        if (!strcmp(profiles[i].name, profile))
            return profiles[i].min_devices;
    return 0;
}

static const struct {
    const char *name;
    unsigned min_devices;
} md_levels[] = {{"raid0", 2}, {"raid1", 2}, {"raid10", 2}, {"raid5", 3}, {"raid6", 4}};

static unsigned md_min_devices(const char *level)
{
    for (size_t i = 0; i < sizeof md_levels / sizeof md_levels[0]; i++)
        if (!strcmp(md_levels[i].name, level))
            return md_levels[i].min_devices;
    return 0;
}

const char *sb_dev_class_name(sb_dev_class c)
{
    return c == SB_DEV_HDD ? "hdd" : c == SB_DEV_RAM ? "ram" : "ssd";
}

uint64_t sb_scn_device_iops(const sb_scn_device *d)
{
    if (d->iops != SB_DEV_CLASS_DEFAULT)
        return d->iops;
    return d->cls == SB_DEV_HDD ? SB_HDD_IOPS : 0;
}

uint64_t sb_scn_device_bps(const sb_scn_device *d)
{
    if (d->bps != SB_DEV_CLASS_DEFAULT)
        return d->bps;
    return d->cls == SB_DEV_HDD ? SB_HDD_BPS : 0;
}

const char *sb_cache_mode_name(sb_cache_mode m)
{
    switch (m) {
    case SB_CACHE_WRITETHROUGH: return "writethrough";
    case SB_CACHE_WRITEBACK: return "writeback";
    case SB_CACHE_WRITEAROUND: return "writearound";
    default: return "none";
    }
}

/* Every key a section may hold; the parser remembers where each was set in the current
 * section, so that a key given twice is refused instead of the last one winning silently. */
static const char *const known_keys[] = {"title", "description", "filesystem", "devices", "raid",
                                         "data-profile", "metadata-profile", "mount-options",
                                         "mkfs-options", "cache", "cache-discard", "md", "device-class",
                                         "device-iops", "device-bandwidth", "device-model"};
/* The per-device keys, in the order of sb_scn_config.dev_lists. */
#define N_DEV_KEYS 4
static const char *const dev_keys[N_DEV_KEYS] = {"device-class", "device-iops", "device-bandwidth",
                                                  "device-model"};
#define DEV_MODEL 3
#define N_KNOWN_KEYS (sizeof known_keys / sizeof known_keys[0])

typedef struct parser {
    const char *name;
    int line;
    char *err;
    size_t errlen;
    int seen[N_KNOWN_KEYS]; /* line where the current section set each key, 0 = not yet */
} parser;

static int fail(parser *p, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(parser *p, int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(p->err, p->errlen, "%s:%d: %s", p->name, line, msg);
    return -EINVAL;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
    return s;
}

static int copy_value(parser *p, char *dst, size_t len, const char *key, const char *value)
{
    if (strlen(value) >= len)
        return fail(p, p->line, "%s: value too long (at most %zu characters)", key, len - 1);
    snprintf(dst, len, "%s", value);
    return 0;
}

static bool has_option(const char *list, const char *prefix)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    size_t pl = strlen(prefix);
    for (char *save = NULL, *o = strtok_r(buf, ",", &save); o; o = strtok_r(NULL, ",", &save))
        if (!strncmp(o, prefix, pl))
            return true;
    return false;
}

/* Whole-configuration checks, once its section is complete. */
static int check_config(parser *p, sb_scn_config *c)
{
    if (!c->filesystem[0])
        return fail(p, c->line, "[%s]: no filesystem (ext4, xfs or btrfs)", c->identifier);
    bool btrfs = !strcmp(c->filesystem, "btrfs");
    if (c->devices == 0)
        c->devices = c->cache != SB_CACHE_NONE ? 2 : 1;
    if (c->cache != SB_CACHE_NONE) {
        if (c->devices != 2)
            return fail(p, c->line, "[%s]: bcache uses exactly 2 devices (cache, then backing), not %u",
                        c->identifier, c->devices);
        if (c->data_profile[0] || c->metadata_profile[0])
            return fail(p, c->line, "[%s]: a RAID profile and bcache do not go together (the filesystem "
                        "sits on the one bcache device)", c->identifier);
    } else if (c->cache_discard) {
        return fail(p, c->line, "[%s]: cache-discard needs a cache mode", c->identifier);
    }
    if (c->md[0]) {
        if (c->cache != SB_CACHE_NONE || c->data_profile[0] || c->metadata_profile[0])
            return fail(p, c->line, "[%s]: md goes with neither bcache nor a btrfs RAID profile", c->identifier);
        if (c->devices < md_min_devices(c->md))
            return fail(p, c->line, "[%s]: md %s needs at least %u devices (devices = %u)", c->identifier, c->md,
                        md_min_devices(c->md), c->devices);
    }
    if (!btrfs) {
        if (c->data_profile[0] || c->metadata_profile[0])
            return fail(p, c->line, "[%s]: RAID profiles are btrfs's (%s has none)", c->identifier,
                        c->filesystem);
        if (c->devices > 1 && c->cache == SB_CACHE_NONE && !c->md[0])
            return fail(p, c->line, "[%s]: %s lives on one device (several devices: btrfs, or md = LEVEL)",
                        c->identifier, c->filesystem);
        if (has_option(c->mount_options, "compress") || has_option(c->mount_options, "autodefrag"))
            return fail(p, c->line, "[%s]: compression and autodefrag are btrfs mount options, not %s's",
                        c->identifier, c->filesystem);
    } else {
        const char *which[2] = {c->data_profile, c->metadata_profile};
        for (int i = 0; i < 2; i++) {
            unsigned need = sb_btrfs_profile_min_devices(which[i]);
            if (need > c->devices)
                return fail(p, c->line, "[%s]: btrfs %s needs at least %u devices (devices = %u)",
                            c->identifier, which[i], need, c->devices);
        }
    }
    return 0;
}

static int key_index(const char *key)
{
    for (size_t i = 0; i < N_KNOWN_KEYS; i++)
        if (!strcmp(known_keys[i], key))
            return (int)i;
    return -1;
}

/* A key set twice in one section, or raid together with the profile it sets. */
static int check_repeat(parser *p, const sb_scn_config *c, const char *key)
{
    int k = key_index(key);
    if (k < 0)
        return 0; /* set_key names the unknown key */
    const char *sec = c ? c->identifier : "scenario";
    if (p->seen[k])
        return fail(p, p->line, "[%s]: '%s' is set twice (first on line %d)", sec, key, p->seen[k]);
    /* raid = X sets both profiles: with data-profile or metadata-profile one of them
     * would silently win. */
    int raid = key_index("raid"), data = key_index("data-profile"), meta = key_index("metadata-profile");
    if (k == raid && (p->seen[data] || p->seen[meta]))
        return fail(p, p->line, "[%s]: raid sets both profiles, but line %d set %s already "
                    "(use data-profile and metadata-profile, or raid alone)", sec,
                    p->seen[data] ? p->seen[data] : p->seen[meta],
                    p->seen[data] ? "data-profile" : "metadata-profile");
    if ((k == data || k == meta) && p->seen[raid])
        return fail(p, p->line, "[%s]: %s conflicts with raid on line %d, which sets both profiles "
                    "(use data-profile and metadata-profile, or raid alone)", sec, key, p->seen[raid]);
    p->seen[k] = p->line;
    return 0;
}

static int set_key(parser *p, sb_scenario *s, sb_scn_config *c, const char *key, const char *value)
{
    for (int i = 0; i < N_DEV_KEYS; i++)
        if (!strcmp(key, dev_keys[i])) {
            char(*lists)[512] = c ? c->dev_lists : s->dev_lists;
            (c ? c->dev_lines : s->dev_lines)[i] = p->line;
            if (c && i != DEV_MODEL)
                c->dev_keys = true;
            return copy_value(p, lists[i], sizeof lists[i], key, value);
        }
    if (!c) {
        if (!strcmp(key, "title"))
            return copy_value(p, s->title, sizeof s->title, key, value);
        if (!strcmp(key, "description"))
            return copy_value(p, s->description, sizeof s->description, key, value);
        if (!strcmp(key, "host-bound-check")) {
            /* twin: each modeled configuration again on ram models (docs/devices.md, "Host-bound
             * figures"); busy: the device lab's vCPU busy share instead (docs/scenarios.md);
             * yes: busy where the guest ran in the lab, the twin elsewhere */
            static const char *const names[] = {"no", "yes", "twin", "busy"};
            for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
                if (!strcmp(value, names[k])) {
                    s->host_bound_check = (sb_scn_host_bound)k;
                    return 0;
                }
            return fail(p, p->line, "host-bound-check '%s': yes, twin, busy or no", value);
        }
        return fail(p, p->line, "unknown key '%s' in [scenario] (title, description, device-class, device-iops, "
                    "device-bandwidth, device-model, host-bound-check)", key);
    }
    if (!strcmp(key, "filesystem")) {
        if (strcmp(value, "ext4") && strcmp(value, "xfs") && strcmp(value, "btrfs"))
            return fail(p, p->line, "filesystem '%s': ext4, xfs or btrfs", value);
        return copy_value(p, c->filesystem, sizeof c->filesystem, key, value);
    }
    if (!strcmp(key, "devices")) {
        uint64_t v;
        if (sb_parse_uint(value, 1, SB_SCN_MAX_DEVICES, &v) < 0)
            return fail(p, p->line, "devices '%s': a whole number from 1 to %d", value, SB_SCN_MAX_DEVICES);
        c->devices = (unsigned)v;
        return 0;
    }
    if (!strcmp(key, "raid") || !strcmp(key, "data-profile") || !strcmp(key, "metadata-profile")) {
        if (!sb_btrfs_profile_min_devices(value))
            return fail(p, p->line, "%s '%s': single, dup, raid0, raid1, raid1c3, raid1c4, raid10, raid5 or raid6",
                        key, value);
        if (strcmp(key, "metadata-profile"))
            snprintf(c->data_profile, sizeof c->data_profile, "%s", value);
        if (strcmp(key, "data-profile"))
            snprintf(c->metadata_profile, sizeof c->metadata_profile, "%s", value);
        return 0;
    }
    if (!strcmp(key, "mount-options")) {
        for (const char *q = value; *q; q++)
            if (isspace((unsigned char)*q))
                return fail(p, p->line, "mount-options: a comma-separated list without blanks");
        if (strstr(value, ",,") || value[0] == ',' || (value[0] && value[strlen(value) - 1] == ','))
            return fail(p, p->line, "mount-options: an empty option in '%s'", value);
        if (has_option(value, "device="))
            return fail(p, p->line, "mount-options: device= is storbench's to set");
        return copy_value(p, c->mount_options, sizeof c->mount_options, key, value);
    }
    if (!strcmp(key, "md")) {
        if (!md_min_devices(value))
            return fail(p, p->line, "md '%s': raid0, raid1, raid10, raid5 or raid6", value);
        return copy_value(p, c->md, sizeof c->md, key, value);
    }
    if (!strcmp(key, "mkfs-options"))
        return copy_value(p, c->mkfs_options, sizeof c->mkfs_options, key, value);
    if (!strcmp(key, "cache")) {
        static const sb_cache_mode modes[] = {SB_CACHE_NONE, SB_CACHE_WRITETHROUGH, SB_CACHE_WRITEBACK,
                                              SB_CACHE_WRITEAROUND};
        for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
            if (!strcmp(value, sb_cache_mode_name(modes[i]))) {
                c->cache = modes[i];
                return 0;
            }
        return fail(p, p->line, "cache '%s': none, writethrough, writeback or writearound", value);
    }
    if (!strcmp(key, "cache-discard")) {
        int b;
        if (sb_parse_bool(value, &b) < 0)
            return fail(p, p->line, "cache-discard '%s': yes or no", value);
        c->cache_discard = b;
        return 0;
    }
    return fail(p, p->line, "unknown key '%s' (filesystem, devices, raid, data-profile, metadata-profile, "
                "mount-options, mkfs-options, cache, cache-discard, md, device-class, device-iops, device-bandwidth, "
                "device-model)",
                key);
}

/* One item of a device list: a class name, or a number of IOPS / a size per second
 * ("0" or "unlimited": unthrottled). */
static int device_item(parser *p, int line, int which, const char *item, sb_scn_device *d)
{
    if (which == DEV_MODEL) {
        char why[256];
        if (sb_dev_spec_check(item, why, sizeof why) < 0)
            return fail(p, line, "device-model: %s", why + (strncmp(why, "device model ", 13) ? 0 : 13));
        if (strlen(item) >= sizeof d->model)
            return fail(p, line, "device-model '%s': too long", item);
        snprintf(d->model, sizeof d->model, "%s", item);
        return 0;
    }
    if (which == 0) {
        static const sb_dev_class classes[] = {SB_DEV_SSD, SB_DEV_HDD, SB_DEV_RAM};
        for (size_t i = 0; i < 3; i++)
            if (!strcmp(item, sb_dev_class_name(classes[i]))) {
                d->cls = classes[i];
                return 0;
            }
        return fail(p, line, "device-class '%s': ssd, hdd or ram", item);
    }
    uint64_t v = 0;
    if (strcmp(item, "unlimited") &&
        (which == 1 ? sb_parse_uint(item, 0, 10000000, &v) : sb_parse_size(item, &v)) < 0)
        return fail(p, line, "%s '%s': %s, 0 or unlimited", dev_keys[which], item,
                    which == 1 ? "a number of operations per second" : "a size per second (150M)");
    if (which == 1)
        d->iops = v;
    else
        d->bps = v;
    return 0;
}

/* Expands each configuration's device lists (its own, else [scenario]'s): one item applies
 * to every device; a configuration's own list otherwise names each device; [scenario]'s
 * list gives devices 1, 2 ... and a configuration with fewer devices takes the first. */
static int resolve_devices(parser *p, sb_scenario *s)
{
    for (size_t i = 0; i < s->n; i++) {
        sb_scn_config *c = &s->configs[i];
        for (unsigned d = 0; d < SB_SCN_MAX_DEVICES; d++)
            c->dev[d] = (sb_scn_device){.cls = SB_DEV_SSD, .iops = SB_DEV_CLASS_DEFAULT, .bps = SB_DEV_CLASS_DEFAULT};
        for (int w = 0; w < N_DEV_KEYS; w++) {
            bool own = c->dev_lists[w][0] != 0;
            const char *list = own ? c->dev_lists[w] : s->dev_lists[w];
            int line = own ? c->dev_lines[w] : s->dev_lines[w];
            if (!*list)
                continue;
            char buf[512], *items[SB_SCN_MAX_DEVICES + 1];
            unsigned n = 0;
            snprintf(buf, sizeof buf, "%s", list);
            for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                t = trim(t);
                /* device-model: "key=value" items belong to the spec before them */
                if (w == DEV_MODEL && n > 0 && strchr(t, '=')) {
                    size_t at = strlen(items[n - 1]);
                    items[n - 1][at] = ',';
                    memmove(items[n - 1] + at + 1, t, strlen(t) + 1);
                    continue;
                }
                if (n > SB_SCN_MAX_DEVICES)
                    return fail(p, line, "%s: more than %d items", dev_keys[w], SB_SCN_MAX_DEVICES);
                items[n++] = t;
            }
            if (n == 0)
                return fail(p, line, "%s: empty list", dev_keys[w]);
            if (own && n != 1 && n != c->devices)
                return fail(p, line, "[%s]: %s lists %u items for %u device%s (one for all, or one per device)",
                            c->identifier, dev_keys[w], n, c->devices, c->devices == 1 ? "" : "s");
            if (!own && n != 1 && n < c->devices)
                return fail(p, line, "[scenario]: %s lists %u items, but [%s] has %u devices", dev_keys[w], n,
                            c->identifier, c->devices);
            for (unsigned d = 0; d < c->devices; d++) {
                int rc = device_item(p, line, w, items[n == 1 ? 0 : d], &c->dev[d]);
                if (rc < 0)
                    return rc;
                c->dev[d].class_given = c->dev[d].class_given || w == 0;
            }
        }
    }
    return 0;
}

int sb_scenario_parse(const char *text, const char *name, sb_scenario *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    parser p = {.name = name, .line = 0, .err = err, .errlen = errlen};
    sb_scn_config *cur = NULL;
    bool in_scenario = false, seen_scenario = false;
    const char *pos = text;
    int rc;
    while (*pos) {
        const char *eol = strchr(pos, '\n');
        size_t len = eol ? (size_t)(eol - pos) : strlen(pos);
        p.line++;
        char buf[2048];
        if (len >= sizeof buf)
            return fail(&p, p.line, "line too long");
        memcpy(buf, pos, len);
        buf[len] = 0;
        pos += len + (eol ? 1 : 0);
        char *l = trim(buf);
        if (!*l || *l == '#' || *l == ';')
            continue;
        /* Section names become identifiers and titles become text of the result file, which
         * holds UTF-8 only: refused here, with the line, before anything is built (else the
         * run builds and measures, then cannot save). Comments may hold anything. */
        size_t bad = sb_utf8_check(l, strlen(l));
        if (bad < strlen(l))
            return fail(&p, p.line, "byte 0x%02x is not UTF-8 (convert the file, e.g. with iconv -f latin1 -t utf-8)",
                        (unsigned char)l[bad]);
        if (*l == '[') {
            char *close = strrchr(l, ']');
            if (!close || close[1])
                return fail(&p, p.line, "a section header is [name]");
            *close = 0;
            char *sec = trim(l + 1);
            if (cur && (rc = check_config(&p, cur)) < 0)
                return rc;
            cur = NULL;
            in_scenario = false;
            memset(p.seen, 0, sizeof p.seen);
            if (!*sec)
                return fail(&p, p.line, "empty section name");
            if (!strcmp(sec, "scenario")) {
                if (seen_scenario)
                    return fail(&p, p.line, "[scenario] appears twice");
                seen_scenario = in_scenario = true;
                continue;
            }
            if (strlen(sec) >= sizeof cur->identifier)
                return fail(&p, p.line, "identifier '%s' too long (at most %zu characters)", sec,
                            sizeof cur->identifier - 1);
            for (size_t i = 0; i < s->n; i++)
                if (!strcmp(s->configs[i].identifier, sec))
                    return fail(&p, p.line, "identifier '%s' appears twice", sec);
            if (s->n >= SB_SCN_MAX_CONFIGS)
                return fail(&p, p.line, "too many configurations (at most %d)", SB_SCN_MAX_CONFIGS);
            cur = &s->configs[s->n++];
            snprintf(cur->identifier, sizeof cur->identifier, "%s", sec);
            cur->line = p.line;
            continue;
        }
        char *eq = strchr(l, '=');
        if (!eq)
            return fail(&p, p.line, "expected 'key = value' or [section]");
        *eq = 0;
        char *key = trim(l), *value = trim(eq + 1);
        if (!*key)
            return fail(&p, p.line, "a key is missing before '='");
        if (!cur && !in_scenario)
            return fail(&p, p.line, "'%s' outside a section", key);
        if ((rc = check_repeat(&p, cur, key)) < 0 || (rc = set_key(&p, s, cur, key, value)) < 0)
            return rc;
    }
    if (cur && (rc = check_config(&p, cur)) < 0)
        return rc;
    if (s->n == 0) {
        snprintf(err, errlen, "%s: no configuration (a [identifier] section per configuration)", name);
        return -EINVAL;
    }
    return resolve_devices(&p, s);
}

int sb_scenario_load(const char *path, sb_scenario *s, char *err, size_t errlen)
{
    char *text = NULL;
    size_t n = 0;
    int rc = sb_read_file(path, 1 << 20, 0, &text, &n);
    if (rc < 0 && rc != -EFBIG) {
        snprintf(err, errlen, "%s: %s", path, strerror(-rc));
        return rc;
    }
    if (rc == -EFBIG) {
        snprintf(err, errlen, "%s: larger than 1 MiB: not a scenario file", path);
        rc = -EINVAL;
    } else if (memchr(text, 0, n)) {
        snprintf(err, errlen, "%s: binary data: not a scenario file", path);
        rc = -EINVAL;
    } else {
        rc = sb_scenario_parse(text, path, s, err, errlen);
    }
    free(text);
    return rc;
}
