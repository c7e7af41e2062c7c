/*
 * board — Motherboard and Chipset: the DMI board strings and the PCI host
 * bridge, named from pci.ids when installed, vendors shortened as on the seed
 * pages (docs/sysinfo.md, Hardware).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sysinfo/read.h"
#include "sysinfo/board.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strutil.h"

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
    sb_trim(v);
}

void si_motherboard(const char *root, char *buf, size_t len)
{
    char *vendor = si_slurp_attr(root, "/sys/class/dmi/id/board_vendor");
    char *name = si_slurp_attr(root, "/sys/class/dmi/id/board_name");
    char *ver = si_slurp_attr(root, "/sys/class/dmi/id/board_version");
    size_t w = 0;
    buf[0] = '\0';
    if (!placeholder(vendor)) {
        tidy_vendor(vendor);
        w += snprintf(buf + w, len - w, "%s", vendor);
    }
    if (!placeholder(name) && w < len)
        w += snprintf(buf + w, len - w, "%s%s", w ? " " : "", name);
    if (w && !placeholder(ver) && w < len)
        sb_fmt(buf + w, len - w, " %s%s", isdigit((unsigned char)ver[0]) ? "v" : "", ver);
    if (!buf[0])
        sb_fmt(buf, len, SI_UNKNOWN);
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
        db = si_slurp(root, dbs[i]);
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
                sb_fmt(vname, vlen, "%s", line + 4);
                sb_trim(vname);
            }
        } else if (in_vendor && line[1] != '\t' && !strncasecmp(line + 1, device, 4) &&
                   line[5] == ' ') {
            sb_fmt(dname, dlen, "%s", line + 5);
            sb_trim(dname);
            break;
        }
    }
    free(db);
}

/* The host bridge (PCI class 0x0600) at the root of the PCI tree. */
void si_chipset(const char *root, char *buf, size_t len)
{
    sb_fmt(buf, len, SI_UNKNOWN);
    size_t n = 0;
    char **names = si_list_dir(root, "/sys/bus/pci/devices", &n);
    for (size_t i = 0; i < n; i++) {
        char p[PATH_MAX];
        sb_fmt(p, sizeof p, "/sys/bus/pci/devices/%s/class", names[i]);
        char *cls = si_slurp_attr(root, p);
        bool host = cls && strtoul(cls, NULL, 16) >> 8 == 0x0600;
        free(cls);
        if (!host)
            continue;
        sb_fmt(p, sizeof p, "/sys/bus/pci/devices/%s/vendor", names[i]);
        char *ven = si_slurp_attr(root, p);
        sb_fmt(p, sizeof p, "/sys/bus/pci/devices/%s/device", names[i]);
        char *dev = si_slurp_attr(root, p);
        if (ven && dev) {
            char vhex[8], dhex[8];
            sb_fmt(vhex, sizeof vhex, "%04lx", strtoul(ven, NULL, 16) & 0xFFFF);
            sb_fmt(dhex, sizeof dhex, "%04lx", strtoul(dev, NULL, 16) & 0xFFFF);
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
                        sb_fmt(vname, sizeof vname, "%s", known[k].name);
            }
            tidy_vendor(vname);
            if (!vname[0])
                sb_fmt(vname, sizeof vname, "Vendor %s", vhex);
            if (dname[0])
                sb_fmt(buf, len, "%s %s", vname, dname);
            else
                sb_fmt(buf, len, "%s Device %s", vname, dhex);
        }
        free(ven);
        free(dev);
        break;
    }
    si_free_names(names, n);
}
