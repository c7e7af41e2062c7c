/*
 * plan — what `scenario run` and `scenario check` decide before anything is built (see
 * plan.h): each configuration's line, whether it can be built here (the kernel's bcache
 * and md, the tools a guest borrows), whether it offers the selected tests room, and,
 * for a run, the real devices the user gave up (named twice, not in use) or that loop
 * devices can be made and the images fit. A refusal is one line on stderr
 * ("storbench: scenario: ...") and the exit code: 2 when the command line or the file
 * asks for what cannot be, 1 when this machine cannot.
 */
#include "scenario/plan.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/log.h"
#include "core/units.h"
#include "core/workdir.h"
#include "scenario/layout.h"
#include "scenario/md.h"
#include "scenario/modeled.h"
#include "scenario/tool.h"
#include "scenario/vm.h"
#include "scenario/vm_nbd.h"

/* The usage refusal: "storbench: scenario: msg", SB_EXIT_USAGE. */
static int usage_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_line(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sb_error("scenario: %s", msg);
    return SB_EXIT_USAGE;
}

/* "btrfs raid1/raid1 over 2 devices, mount options compress=lzo" */
void sb_scn_plan_line(const sb_scn_config *c, char *buf, size_t len)
{
    char prof[64] = "", cache[128] = "", opts[600] = "", mkfs[300] = "";
    if (c->data_profile[0] || c->metadata_profile[0])
        snprintf(prof, sizeof prof, " data %s, metadata %s", c->data_profile[0] ? c->data_profile : "default",
                 c->metadata_profile[0] ? c->metadata_profile : "default");
    if (c->cache != SB_CACHE_NONE)
        snprintf(cache, sizeof cache, " on bcache %s%s (cache device 1, backing device 2)",
                 sb_cache_mode_name(c->cache), c->cache_discard ? " with discard" : "");
    if (c->md[0])
        snprintf(cache, sizeof cache, " on md %s", c->md);
    if (c->mount_options[0])
        snprintf(opts, sizeof opts, ", mount options %s", c->mount_options);
    if (c->mkfs_options[0])
        snprintf(mkfs, sizeof mkfs, ", mkfs options %s", c->mkfs_options);
    char models[600] = "";
    for (unsigned i = 0; i < c->devices && i < SB_SCN_MAX_DEVICES; i++) {
        size_t at = strlen(models);
        if (c->dev[i].model[0] && (i == 0 || strcmp(c->dev[i].model, c->dev[0].model)))
            snprintf(models + at, sizeof models - at, "%s%s", at ? " + " : ", modeled as ", c->dev[i].model);
    }
    snprintf(buf, len, "%s%s%s over %u device%s%s%s%s", c->filesystem, prof, cache, c->devices,
             c->devices == 1 ? "" : "s", mkfs, opts, models);
}

/* What a guest can build depends on the host only through its tools (the guest runs the
 * host's make-bcache, mdadm and mkfs over 9p); what the host itself can build also needs
 * its kernel's bcache or md. */
int sb_scn_buildable(const sb_scn_config *c, bool vm, bool lab, char *why, size_t whylen)
{
    if (c->cache != SB_CACHE_NONE) {
        if (vm && !sb_in_path("make-bcache")) {
            snprintf(why, whylen, "make-bcache is not installed (Debian package bcache-tools)");
            return -ENOTSUP;
        }
        if (!vm && sb_bcache_available(why, whylen) < 0)
            return -ENOTSUP;
    }
    if (c->md[0]) {
        if (vm && !sb_in_path("mdadm")) {
            snprintf(why, whylen, "mdadm is not installed (Debian package mdadm)");
            return -ENOTSUP;
        }
        if (!vm && sb_md_available(why, whylen) < 0)
            return -ENOTSUP;
    }
    for (unsigned i = 0; vm && i < c->devices; i++) {
        const char *no = lab ? sb_vm_lab_refusal(&c->dev[i]) : NULL;
        if (no) {
            snprintf(why, whylen, "%s", no);
            return -ENOTSUP;
        }
        if (!lab && c->dev[i].model[0] && sb_vm_nbd_available(why, whylen) < 0)
            return -ENOTSUP;
    }
    return 0;
}

/* Roughly what a configuration offers to files: the data profile's share of its devices,
 * less what metadata and mkfs take (a fifth on btrfs, whose metadata chunks are large on
 * small devices; a tenth otherwise). The runner checks the real free space again. */
static uint64_t usable_bytes(const sb_scn_config *c, uint64_t device_size)
{
    uint64_t n = c->devices, raw = device_size;
    if (c->cache != SB_CACHE_NONE)
        raw = device_size; /* the backing device */
    else if (c->md[0])
        raw = !strcmp(c->md, "raid0")    ? n * device_size
              : !strcmp(c->md, "raid10") ? n * device_size / 2
              : !strcmp(c->md, "raid5")  ? (n - 1) * device_size
              : !strcmp(c->md, "raid6")  ? (n - 2) * device_size
                                         : device_size; /* raid1 */
    else if (!strcmp(c->filesystem, "btrfs")) {
        const char *p = c->data_profile;
        if (!*p || !strcmp(p, "single") || !strcmp(p, "raid0"))
            raw = n * device_size;
        else if (!strcmp(p, "dup"))
            raw = device_size / 2;
        else if (!strcmp(p, "raid1") || !strcmp(p, "raid10"))
            raw = n * device_size / 2;
        else if (!strcmp(p, "raid1c3"))
            raw = n * device_size / 3;
        else if (!strcmp(p, "raid1c4"))
            raw = n * device_size / 4;
        else if (!strcmp(p, "raid5"))
            raw = (n - 1) * device_size;
        else if (!strcmp(p, "raid6"))
            raw = (n - 2) * device_size;
    }
    return raw - (!strcmp(c->filesystem, "btrfs") ? raw / 5 : raw / 10);
}

/* Refuses up front a configuration too small for a selected test (a run would only fail
 * with "No space left" after building it). */
int sb_scn_check_capacity(const sb_scenario *s, const sb_config *tests, size_t n_tests,
                          uint64_t device_size, char *err, size_t errlen)
{
    for (size_t i = 0; i < s->n; i++) {
        uint64_t have = usable_bytes(&s->configs[i], device_size);
        for (size_t k = 0; k < n_tests; k++) {
            const sb_workload *w = tests[k].workload;
            uint64_t need = w->space_needed ? w->space_needed(sb_config_params(&tests[k])) : 0;
            if (need && need + need / 20 + (16u << 20) > have) {
                char n[32], h[32];
                sb_format_iec(n, sizeof n, (double)need, "B");
                sb_format_iec(h, sizeof h, (double)have, "B");
                snprintf(err, errlen, "[%s] offers about %s to files; %s needs %s", s->configs[i].identifier,
                         h, w->name, n);
                return -ENOSPC;
            }
        }
    }
    return 0;
}

int sb_scn_keep_only(sb_scenario *s, const char *const *only, size_t n_only, const char *file)
{
    for (size_t k = 0; k < n_only; k++) {
        bool found = false;
        for (size_t i = 0; i < s->n && !found; i++)
            found = !strcmp(s->configs[i].identifier, only[k]);
        if (!found)
            return usage_line("--only '%s': no such configuration in %s", only[k], file);
    }
    if (n_only) {
        size_t kept = 0;
        for (size_t i = 0; i < s->n; i++) {
            bool keep = false;
            for (size_t k = 0; k < n_only && !keep; k++)
                keep = !strcmp(s->configs[i].identifier, only[k]);
            if (keep)
                s->configs[kept++] = s->configs[i];
        }
        s->n = kept;
    }
    return 0;
}

static int split_list(char *list, char **out, size_t max, size_t *n)
{
    *n = 0;
    for (char *save = NULL, *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (*n >= max)
            return -E2BIG;
        out[(*n)++] = t;
    }
    return 0;
}

/* Checks the real devices: named twice, not in use. Fills devs. */
static int check_real_devices(const sb_scn_plan *o, sb_device *devs, size_t *n_devs, unsigned need)
{
    char *list[SB_SCN_MAX_DEVICES], *named[SB_SCN_MAX_DEVICES];
    size_t n, n_named = 0;
    if (split_list(o->devices, list, SB_SCN_MAX_DEVICES, &n) < 0 || n == 0)
        return usage_line("--devices: 1 to %d devices, separated by commas", SB_SCN_MAX_DEVICES);
    if (!o->destroy)
        return usage_line("--devices %s: everything on %s destroyed: say so with "
                              "--destroy-data-on %s", list[0], n == 1 ? "it is" : "them is", list[0]);
    if (split_list(o->destroy, named, SB_SCN_MAX_DEVICES, &n_named) < 0)
        return usage_line("--destroy-data-on: too many devices");
    for (size_t i = 0; i < n; i++) {
        struct stat a;
        if (stat(list[i], &a) < 0)
            return usage_line("%s: %s", list[i], strerror(errno));
        if (!S_ISBLK(a.st_mode))
            return usage_line("%s: not a block device (images go with --images DIR)", list[i]);
        bool ok = false;
        for (size_t j = 0; j < n_named && !ok; j++) {
            struct stat b;
            ok = stat(named[j], &b) == 0 && S_ISBLK(a.st_mode) && S_ISBLK(b.st_mode) && a.st_rdev == b.st_rdev;
        }
        if (!ok)
            return usage_line("%s is not named in --destroy-data-on: refusing to destroy its data",
                                  list[i]);
        for (size_t j = 0; j < i; j++) {
            struct stat b;
            if (stat(list[j], &b) == 0 && b.st_rdev == a.st_rdev)
                return usage_line("%s is listed twice in --devices", list[i]);
        }
    }
    if (need > n)
        return usage_line("a configuration needs %u devices; --devices lists %zu", need, n);
    for (size_t i = 0; i < n; i++) {
        char err[1024];
        if (sb_real_device_check(list[i], &devs[i], err, sizeof err) < 0)
            return usage_line("%s", err);
        if (devs[i].signature[0])
            sb_warn("scenario: %s carries %s: it will be overwritten (named in --destroy-data-on)",
                    list[i], devs[i].signature);
    }
    *n_devs = n;
    return 0;
}

int sb_scn_plan_check(const sb_scn_plan *o, const sb_scenario *s, const sb_config *tests, size_t n_tests,
                      sb_device *real, char *images_real)
{
    unsigned need = 0;
    /* The busy share judges the lab's one virtual vCPU; natively or on the host's clock it
     * would be the whole host's CPUs, everything else running included. */
    if (s->host_bound_check == SB_SCN_HB_BUSY && !o->vm_lab && !o->in_guest)
        return usage_line("host-bound-check = busy needs --vm under virtual time (the device lab's one vCPU); "
                          "here the CPUs' busy share is the whole host's: use host-bound-check = twin or yes (ram twins)");
    for (size_t i = 0; i < s->n; i++) {
        need = s->configs[i].devices > need ? s->configs[i].devices : need;
        if (!o->devices && !strcmp(s->configs[i].filesystem, "xfs") && o->image_size < 300000000ull)
            return usage_line("[%s]: mkfs.xfs needs more than 300MB: --image-size 300M or more",
                                  s->configs[i].identifier);
    }
    char why[512];
    bool dev_keys = s->dev_lists[0][0] || s->dev_lists[1][0] || s->dev_lists[2][0];
    for (size_t i = 0; i < s->n; i++) {
        const sb_scn_config *c = &s->configs[i];
        dev_keys = dev_keys || c->dev_keys;
        /* In a guest the --devices are the emulated disks, already modeled by the host's nbdkit. */
        if (o->devices && !o->in_guest && sb_modeled_wanted(c))
            return usage_line("[%s]: device-model models loop images, not --devices (a real device is what it is)",
                              c->identifier);
        const char *no = NULL;
        for (unsigned d = 0; o->vm_lab && !no && d < c->devices; d++)
            no = sb_vm_lab_refusal(&c->dev[d]);
        if (no) /* a combination of the file and the options: bad usage */
            return usage_line("[%s]: %s", c->identifier, no);
        if (sb_scn_buildable(c, o->vm, o->vm_lab, why, sizeof why) < 0) {
            sb_error("scenario: [%s] uses %s, which cannot be built here: %s", c->identifier,
                     c->md[0] ? "md" : c->cache != SB_CACHE_NONE ? "bcache" : "a device-model", why);
            return SB_EXIT_RUNTIME;
        }
    }
    if (o->vm && sb_vm_available(why, sizeof why) < 0) {
        sb_error("scenario: --vm: %s", why);
        return SB_EXIT_RUNTIME;
    }
    if (!o->vm && dev_keys && !o->in_guest)
        sb_warn("scenario: device-class, device-iops and device-bandwidth are emulated under --vm only: "
                "here the devices are what they are");
    if (!o->vm && geteuid() != 0) {
        sb_error("scenario: run needs root (it makes filesystems, loop devices and mounts)");
        return SB_EXIT_RUNTIME;
    }
    size_t n_real = 0;
    int rc;
    if (o->devices) {
        if ((rc = check_real_devices(o, real, &n_real, need)) != 0)
            return rc;
    } else if (!o->vm && sb_loop_available(why, sizeof why) < 0) {
        sb_error("scenario: cannot make loop devices: %s", why);
        return SB_EXIT_RUNTIME;
    }
    uint64_t smallest = o->image_size;
    for (size_t i = 0; i < n_real; i++)
        smallest = i == 0 || real[i].size < smallest ? real[i].size : smallest;
    char err[1024];
    if (sb_scn_check_capacity(s, tests, n_tests, smallest, err, sizeof err) < 0)
        return usage_line("%s%s", err, !o->devices ? ": use a larger --image-size" : "");
    if ((rc = sb_target_check(o->images)) < 0 || !realpath(o->images, images_real))
        return usage_line("--images %s: %s", o->images, strerror(rc < 0 ? -rc : errno));
    if (!o->devices) {
        uint64_t avail;
        if (sb_free_space(images_real, &avail) == 0 && (uint64_t)need * o->image_size > avail) {
            char a[32], w[32];
            sb_format_iec(w, sizeof w, (double)need * (double)o->image_size, "B");
            sb_format_iec(a, sizeof a, (double)avail, "B");
            sb_error("scenario: %s: No space left on device (%u image%s of %s need %s, %s free)", images_real,
                     need, need == 1 ? "" : "s", o->size_text, w, a);
            return SB_EXIT_RUNTIME;
        }
    }
    return 0;
}
