/*
 * md — an md array under a configuration (see md.h). The array is created
 * with `mdadm --create --run --metadata=1.2`, on the first free /dev/mdN
 * (counting down from md127's neighbours, so the usual md0 ... of a machine
 * are not taken), and with --assume-clean: a RAID1 array would otherwise
 * resync in the background while the benchmark runs, and the figures would
 * measure the resync. Stopping it is undo.c's (sysfs only, no mdadm, as every
 * undo), which refuses an array whose members are not the journaled ones.
 */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "scenario/md.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/fileio.h"
#include "scenario/tool.h"

#define MD_FIRST 120 /* numbers tried, downwards */

static const char *base(const char *dev)
{
    return strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;
}

int sb_md_available(char *why, size_t whylen)
{
    if (access("/proc/mdstat", R_OK) < 0) {
        snprintf(why, whylen, "this kernel has no md (no /proc/mdstat: the md_mod module is not loaded or not "
                 "built; try 'modprobe md_mod')");
        return -ENOTSUP;
    }
    if (!sb_in_path("mdadm")) {
        snprintf(why, whylen, "mdadm is not installed (Debian package mdadm)");
        return -ENOTSUP;
    }
    return 0;
}

int sb_md_setup(const sb_scn_config *c, sb_device *devs, size_t n, sb_state *st, char *md_dev, size_t len,
                char *err, size_t errlen)
{
    int rc = sb_md_available(err, errlen), num = -1;
    if (rc < 0)
        return rc;
    for (int i = MD_FIRST; i >= 0 && num < 0; i--) {
        char sys[64];
        snprintf(sys, sizeof sys, "/sys/block/md%d", i);
        if (access(sys, F_OK) < 0)
            num = i;
    }
    if (num < 0) {
        snprintf(err, errlen, "md: no free /dev/mdN");
        return -EBUSY;
    }
    snprintf(md_dev, len, "/dev/md%d", num);
    char members[SB_SCN_MAX_DEVICES * 64] = "", level[32], count[32];
    for (size_t i = 0; i < n; i++)
        snprintf(members + strlen(members), sizeof members - strlen(members), "%s%s", i ? "," : "", devs[i].path);
    if ((rc = sb_state_add(st, SB_ST_MD, md_dev, members)) < 0) {
        snprintf(err, errlen, "cannot journal md: %s", strerror(-rc));
        return rc;
    }
    snprintf(level, sizeof level, "--level=%s", c->md);
    snprintf(count, sizeof count, "--raid-devices=%zu", n);
    char *argv[16 + SB_SCN_MAX_DEVICES];
    int k = 0;
    argv[k++] = "mdadm";
    argv[k++] = "--create";
    argv[k++] = md_dev;
    argv[k++] = "--run";
    argv[k++] = "--quiet";
    argv[k++] = "--metadata=1.2";
    argv[k++] = level;
    argv[k++] = count;
    if (strcmp(c->md, "raid0"))
        argv[k++] = "--assume-clean";
    for (size_t i = 0; i < n; i++)
        argv[k++] = devs[i].path;
    argv[k] = NULL;
    if ((rc = sb_run_tool(argv, NULL, NULL, 0, err, errlen)) < 0)
        return rc;
    for (int i = 0; i < 100 && access(md_dev, F_OK) < 0; i++)
        sb_sleep_ms(50);
    return 0;
}

void sb_md_describe(const char *md_dev, char *out, size_t len)
{
    char path[PATH_MAX], level[32] = "", disks[16] = "", state[32] = "";
    snprintf(path, sizeof path, "/sys/block/%s/md/level", base(md_dev));
    sb_read_text(path, level, sizeof level);
    snprintf(path, sizeof path, "/sys/block/%s/md/raid_disks", base(md_dev));
    sb_read_text(path, disks, sizeof disks);
    snprintf(path, sizeof path, "/sys/block/%s/md/array_state", base(md_dev));
    sb_read_text(path, state, sizeof state);
    if (!level[0]) {
        out[0] = 0;
        return;
    }
    snprintf(out, len, "md %s, %s devices%s%s", level, disks[0] ? disks : "?", state[0] ? ", " : "", state);
}
