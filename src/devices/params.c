/*
 * devices/params — the one table of a device model's parameters (key, field, unit,
 * bounds, the kinds it applies to), the presets (every figure cited in
 * docs/devices.md), and the spec parser: "PRESET[,key=value...]". A bad spec is one
 * line naming the cause, before anything is built.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strutil.h"
#include "devices/internal.h"

#define K_HDD (1u << SB_DEV_KIND_HDD)
#define K_SSD (1u << SB_DEV_KIND_SSD)
#define K_ALL (K_HDD | K_SSD | (1u << SB_DEV_KIND_RAM))

typedef struct {
    const char *key;
    size_t off;
    unsigned kinds;
    double min, max;
    const char *help;
} param_def;

#define F(field) offsetof(sb_dev_params, field)
static const param_def params[] = {
    {"capacity-gb", F(capacity_gb), K_ALL, 0.001, 1e6, "modeled device size (10^9 bytes)"},
    {"iface-mbps", F(iface_mbps), K_HDD | K_SSD, 1, 1e6, "host interface bandwidth (10^6 bytes/s)"},
    {"cache-mb", F(cache_mb), K_HDD | K_SSD, 0, 1e5, "volatile write cache / write buffer (MiB)"},
    {"wce", F(wce), K_HDD | K_SSD, 0, 1, "write cache enabled (1) or write-through (0)"},
    {"rpm", F(rpm), K_HDD, 1000, 30000, "spindle speed"},
    {"heads", F(heads), K_HDD, 1, 64, "recording surfaces (tracks per cylinder)"},
    {"seek-t2t-ms", F(seek_t2t_ms), K_HDD, 0.01, 100, "track-to-track seek"},
    {"seek-avg-ms", F(seek_avg_ms), K_HDD, 0.01, 100, "average seek (over random pairs)"},
    {"seek-full-ms", F(seek_full_ms), K_HDD, 0.01, 200, "full-stroke seek"},
    {"write-settle-ms", F(write_settle_ms), K_HDD, 0, 10, "extra settling before a write"},
    {"rate-outer-mbps", F(rate_outer_mbps), K_HDD, 1, 1e4, "media rate, outermost zone (10^6 bytes/s)"},
    {"rate-inner-mbps", F(rate_inner_mbps), K_HDD, 1, 1e4, "media rate, innermost zone (10^6 bytes/s)"},
    {"cmd-us", F(cmd_us), K_HDD | K_SSD, 0, 1e5, "per-command overhead"},
    {"span-gb", F(span_gb), K_HDD, 0, 1e6,
     "spread the image over this much of the disk in 128 MiB pieces, as a whole-disk filesystem's block groups (0: the first bytes)"},
    {"units", F(units), K_SSD, 1, SB_DEV_MAX_UNITS, "independent flash units (dies)"},
    {"page-kb", F(page_kb), K_SSD, 0.5, 1024, "flash page (KiB)"},
    {"ctrl-us", F(ctrl_us), K_SSD, 0, 1e5, "controller time per command (serial)"},
    {"read-us", F(read_us), K_SSD, 0, 1e5, "flash page read"},
    {"prog-us", F(prog_us), K_SSD, 0, 1e6, "flash page program (SLC cache)"},
    {"slc-gb", F(slc_gb), K_SSD, 0, 1e5, "SLC write cache (10^9 bytes)"},
    {"tlc-mbps", F(tlc_mbps), K_SSD, 0, 1e5, "write with the SLC buffer full, and its drain (0: none)"},
    {"slc-fill", F(slc_fill), K_SSD, 0, 1, "share of the SLC buffer in use at the start (1: preconditioned)"},
    {"slc-idle-ms", F(slc_idle_ms), K_SSD, 0, 1e7, "idle time before the SLC buffer drains to TLC"},
    {"discard-us", F(discard_us), K_SSD, 0, 1e6, "discard command"},
    {"flush-us", F(flush_us), K_SSD, 0, 1e6, "FTL commit of a FLUSH after writes (0: none)"},
    {"wt-commit-us", F(wt_commit_us), K_SSD, 0, 1e6, "FTL commit of each write-through write (wce=0, or cache-mb=0)"},
};
#undef F

typedef struct {
    sb_dev_preset info;
    sb_dev_params p;
} preset_def;

/* The figures and their derivations are in docs/devices.md, one row per parameter. */
static const preset_def presets[] = {
    {{"hdd-hua723020", SB_DEV_KIND_HDD, "Hitachi Ultrastar 7K3000 HUA723020ALA640, 2 TB, 7200 rpm, SATA 6Gb/s",
      "HGST Ultrastar 7K3000 OEM specification and data sheet (2011); docs/devices.md"},
     {.kind = SB_DEV_KIND_HDD, .capacity_gb = 2000.398934016, .iface_mbps = 600, .cache_mb = 64, .wce = 1,
      .rpm = 7200, .heads = 8, .seek_t2t_ms = 0.5, .seek_avg_ms = 8.2, .seek_full_ms = 15.0,
      .write_settle_ms = 0, .rate_outer_mbps = 157, .rate_inner_mbps = 75, .cmd_us = 30}},
    {{"ssd-850evo", SB_DEV_KIND_SSD, "Samsung 850 EVO 120 GB (MZ-75E120), SATA 6Gb/s, 32-layer TLC V-NAND",
      "Samsung 850 EVO data sheet (2014); AnandTech 850 EVO review (NAND configuration, TurboWrite)"},
     {.kind = SB_DEV_KIND_SSD, .capacity_gb = 120, .iface_mbps = 540, .cache_mb = 0.25, .wce = 1,
      .cmd_us = 6.8, .units = 8, .page_kb = 16, .ctrl_us = 10.6, .read_us = 75.0, .prog_us = 252,
      .slc_gb = 3, .tlc_mbps = 150, .slc_idle_ms = 1000, .discard_us = 500, .flush_us = 2660,
      .wt_commit_us = 2660}},
    {{"ssd-950pro", SB_DEV_KIND_SSD, "Samsung 950 PRO 256 GB (MZ-V5P256), NVMe PCIe 3.0 x4, 32-layer MLC V-NAND",
      "Samsung 950 PRO data sheet (2015); AnandTech 950 PRO review (NAND configuration); FreeBSD diskinfo -S (FLUSH)"},
     {.kind = SB_DEV_KIND_SSD, .capacity_gb = 256, .iface_mbps = 2200, .cache_mb = 0.5, .wce = 1,
      .cmd_us = 17.7, .units = 16, .page_kb = 16, .ctrl_us = 3.7, .read_us = 67.6, .prog_us = 291,
      .slc_gb = 0, .tlc_mbps = 0, .discard_us = 100, .flush_us = 1755}},
    {{"ssd-600p", SB_DEV_KIND_SSD, "Intel SSD 600p 256 GB (SSDPEKKW256G7), NVMe PCIe 3.0 x4, 3D TLC NAND",
      "Intel SSD 600p product specification (2016); AnandTech 600p review (SLC cache)"},
     {.kind = SB_DEV_KIND_SSD, .capacity_gb = 256, .iface_mbps = 1570, .cache_mb = 0.5, .wce = 1,
      .cmd_us = 20, .units = 6, .page_kb = 16, .ctrl_us = 8.9, .read_us = 84.5, .prog_us = 182,
      .slc_gb = 8.5, .tlc_mbps = 100, .slc_idle_ms = 1000, .discard_us = 100}},
    {{"ram", SB_DEV_KIND_RAM, "unthrottled: every request completes at once (the host-bound reference)",
      "none: measures what the serving path itself costs"},
     {.kind = SB_DEV_KIND_RAM, .capacity_gb = 1e5}},
};

const sb_dev_preset *sb_dev_preset_list(size_t *n)
{
    static sb_dev_preset list[sizeof presets / sizeof presets[0]];
    size_t k = sizeof presets / sizeof presets[0];
    for (size_t i = 0; i < k; i++)
        list[i] = presets[i].info;
    *n = k;
    return list;
}

static const char *kind_name(sb_dev_kind k)
{
    return k == SB_DEV_KIND_HDD ? "an HDD" : k == SB_DEV_KIND_SSD ? "an SSD" : "the ram model";
}

static int set_param(const char *kv, size_t n, sb_dev_params *p, const char *preset, char *err, size_t errlen)
{
    const char *eq = memchr(kv, '=', n);
    if (!eq) {
        sb_fmt(err, errlen, "device model '%s': '%.*s' is not key=value", preset, (int)n, kv);
        return -EINVAL;
    }
    size_t klen = (size_t)(eq - kv);
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
        const param_def *d = &params[i];
        if (strlen(d->key) != klen || memcmp(d->key, kv, klen) != 0)
            continue;
        if (!(d->kinds & (1u << p->kind))) {
            sb_fmt(err, errlen, "device model '%s': %s does not apply to %s", preset, d->key, kind_name(p->kind));
            return -EINVAL;
        }
        char buf[64];
        size_t vlen = n - klen - 1;
        char *end;
        if (vlen == 0 || vlen >= sizeof buf)
            goto bad;
        memcpy(buf, eq + 1, vlen);
        buf[vlen] = '\0';
        errno = 0;
        double v = strtod(buf, &end);
        if (errno || *end || !isfinite(v))
            goto bad;
        if (v < d->min || v > d->max) {
            sb_fmt(err, errlen, "device model '%s': %s=%s is out of range (%g to %g)", preset, d->key, buf, d->min,
                   d->max);
            return -EINVAL;
        }
        *(double *)((char *)p + d->off) = v;
        return 0;
    bad:
        sb_fmt(err, errlen, "device model '%s': %s='%.*s' is not a number", preset, d->key, (int)vlen, eq + 1);
        return -EINVAL;
    }
    sb_fmt(err, errlen, "device model '%s': unknown parameter '%.*s'", preset, (int)klen, kv);
    return -EINVAL;
}

/* Checks that hold between parameters (each alone is in range). */
static int check_consistent(const sb_dev_params *p, const char *preset, char *err, size_t errlen)
{
    if (p->kind == SB_DEV_KIND_HDD) {
        if (!(p->seek_t2t_ms < p->seek_avg_ms && p->seek_avg_ms < p->seek_full_ms)) {
            sb_fmt(err, errlen, "device model '%s': seeks must grow: seek-t2t-ms < seek-avg-ms < seek-full-ms",
                   preset);
            return -EINVAL;
        }
        if (p->rate_inner_mbps > p->rate_outer_mbps) {
            sb_fmt(err, errlen, "device model '%s': rate-inner-mbps is above rate-outer-mbps", preset);
            return -EINVAL;
        }
    }
    if (p->kind == SB_DEV_KIND_SSD && p->units != floor(p->units)) {
        sb_fmt(err, errlen, "device model '%s': units must be a whole number", preset);
        return -EINVAL;
    }
    return 0;
}

int sb_dev_params_parse(const char *spec, sb_dev_params *p, char *preset, size_t presetlen, char *err,
                        size_t errlen)
{
    if (!spec || !*spec) {
        sb_fmt(err, errlen, "device model: empty spec (a preset: hdd-hua723020, ssd-850evo, ssd-950pro, ssd-600p, ram)");
        return -EINVAL;
    }
    const char *comma = strchr(spec, ',');
    size_t nlen = comma ? (size_t)(comma - spec) : strlen(spec);
    const preset_def *pd = NULL;
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
        if (strlen(presets[i].info.name) == nlen && memcmp(presets[i].info.name, spec, nlen) == 0)
            pd = &presets[i];
    if (!pd) {
        sb_fmt(err, errlen,
               "device model '%.*s': unknown preset (hdd-hua723020, ssd-850evo, ssd-950pro, ssd-600p, ram)",
               (int)nlen, spec);
        return -EINVAL;
    }
    *p = pd->p;
    sb_fmt(preset, presetlen, "%s", pd->info.name);
    for (const char *s = comma; s && *s;) {
        s++;
        const char *next = strchr(s, ',');
        size_t n = next ? (size_t)(next - s) : strlen(s);
        int rc = set_param(s, n, p, pd->info.name, err, errlen);
        if (rc)
            return rc;
        s = next;
    }
    return check_consistent(p, pd->info.name, err, errlen);
}
