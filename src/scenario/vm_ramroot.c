/*
 * vm_ramroot — the host's files a virtual-time guest copies into its RAM (see
 * vm_ramroot.h). Under QEMU's instruction counting a guest that waits for the host
 * (a 9p read of a program, a library page, a data file) idles, and its clock jumps
 * from timer to timer while it does: host milliseconds become virtual seconds in
 * which a modeled SSD empties its SLC buffer, by an amount that depends on the
 * host. So storbench in the guest runs chrooted into a root in RAM holding exactly these
 * files, and the host's root is not reachable from there at all: a file missing
 * from the list fails loudly instead of being read from the host.
 *
 * The list is made on the host and packed into the guest's initramfs (vm_labinit): each
 * path is followed component by component, every symbolic link on the way becomes
 * an L line (Debian's /lib, /bin, /sbin are links into /usr) and the file it ends
 * at an F line, so the copy has the same names. Shared libraries come from ldd.
 */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "scenario/vm_ramroot.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/strutil.h"
#include "scenario/tool.h"

/* The guest's PATH inside its root (guest.sh), in its order. */
#define GUEST_PATH "/usr/sbin:/usr/bin:/sbin:/bin"

/* Read by the tools or the tests where the host has them; absent ones are left out (each
 * program then behaves as it does on a host without the file). */
static const char *const data_files[] = {
    "/etc/ld.so.cache", "/etc/os-release", "/usr/lib/os-release", "/etc/passwd", "/etc/group",
    "/etc/nsswitch.conf", "/etc/localtime", "/etc/blkid.conf",
    /* sysinfo names the guest's PCI devices with it */
    "/usr/share/misc/pci.ids", "/usr/share/hwdata/pci.ids", "/usr/share/pci.ids",
    /* dbench's default loadfile, read by its clients while they measure */
    "/usr/share/dbench/client.txt",
};

void sb_vm_ramroot_free(sb_vm_ramroot *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->line[i]);
    free(r->line);
    *r = (sb_vm_ramroot){0};
}

static void push(sb_vm_ramroot *r, const char *line)
{
    for (size_t i = 0; i < r->n; i++)
        if (!strcmp(r->line[i], line))
            return;
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 64;
        r->line = sb_xrealloc(r->line, r->cap * sizeof *r->line);
    }
    r->line[r->n++] = sb_xstrdup(line);
}

int sb_vm_ramroot_add(sb_vm_ramroot *r, const char *path)
{
    /* done: the part walked so far, free of links (so ".." may drop its last component);
     * rest: what is left, a link's target put in front of it when one is met. */
    char done[PATH_MAX] = "", rest[PATH_MAX], line[3 * PATH_MAX];
    if (path[0] != '/' || strpbrk(path, "\t\n"))
        return -EINVAL;
    snprintf(rest, sizeof rest, "%s", path);
    for (int hops = 0; rest[0];) {
        char *p = rest + strspn(rest, "/");
        size_t clen = strcspn(p, "/");
        char comp[NAME_MAX + 1], next[PATH_MAX];
        if (clen == 0)
            break;
        if (clen > NAME_MAX)
            return -ENAMETOOLONG;
        snprintf(comp, sizeof comp, "%.*s", (int)clen, p);
        memmove(rest, p + clen, strlen(p + clen) + 1);
        if (!strcmp(comp, "."))
            continue;
        if (!strcmp(comp, "..")) {
            char *slash = strrchr(done, '/');
            if (slash)
                *slash = 0;
            continue;
        }
        size_t dl = strlen(done);
        if (dl + 1 + clen >= sizeof done)
            return -ENAMETOOLONG;
        snprintf(done + dl, sizeof done - dl, "/%s", comp);
        struct stat st;
        if (lstat(done, &st) < 0)
            return -errno;
        if (S_ISLNK(st.st_mode)) {
            char target[PATH_MAX];
            ssize_t n = readlink(done, target, sizeof target - 1);
            if (n < 0)
                return -errno;
            target[n] = 0;
            if (strpbrk(target, "\t\n"))
                return -EINVAL;
            if (++hops > 40)
                return -ELOOP;
            snprintf(line, sizeof line, "L\t%s\t%s", done, target);
            push(r, line);
            done[dl] = 0; /* the link's directory; an absolute target starts again at / */
            if (target[0] == '/')
                done[0] = 0;
            snprintf(next, sizeof next, "%s/%s", target, rest);
            snprintf(rest, sizeof rest, "%s", next);
        } else if (rest[strspn(rest, "/")] == 0) {
            if (!S_ISREG(st.st_mode))
                return -EISDIR;
            snprintf(line, sizeof line, "F\t%s", done);
            size_t before = r->n;
            push(r, line);
            if (r->n > before)
                r->bytes += (uint64_t)st.st_size;
            return 0;
        } else if (!S_ISDIR(st.st_mode)) {
            return -ENOTDIR;
        }
    }
    return -EISDIR; /* "/" itself */
}

int sb_vm_ramroot_add_program(sb_vm_ramroot *r, const char *path, char *err, size_t errlen)
{
    int rc = sb_vm_ramroot_add(r, path);
    if (rc < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(-rc));
        return rc;
    }
    char *argv[] = {"ldd", (char *)path, NULL}, out[8192] = "", lerr[512] = "";
    rc = sb_run_tool(argv, NULL, out, sizeof out, lerr, sizeof lerr);
    if (rc < 0 && strstr(lerr, "not a dynamic executable"))
        return 0; /* statically linked: nothing more */
    if (rc < 0) {
        snprintf(err, errlen, "ldd %s: %s", path, lerr);
        return rc;
    }
    /* "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)", "\t/lib64/ld-linux-x86-64.so.2 (0x...)",
     * "\tlinux-vdso.so.1 (0x...)" (in the kernel), "\tlibx.so => not found". */
    for (char *save = NULL, *ln = strtok_r(out, "\n", &save); ln; ln = strtok_r(NULL, "\n", &save)) {
        if (strstr(ln, "=> not found")) {
            snprintf(err, errlen, "ldd %s: %s", path, ln + strspn(ln, " \t"));
            return -ENOENT;
        }
        char *lib = strchr(ln, '/');
        if (!lib)
            continue;
        lib[strcspn(lib, " \t")] = 0;
        if ((rc = sb_vm_ramroot_add(r, lib)) < 0) {
            snprintf(err, errlen, "%s (a library of %s): %s", lib, path, strerror(-rc));
            return rc;
        }
    }
    return 0;
}

/* prog's path in the guest's PATH, or -ENOENT. */
static int find_program(const char *prog, char *out, size_t len)
{
    char dirs[] = GUEST_PATH;
    for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(out, len, "%s/%s", d, prog);
        if (access(out, X_OK) == 0)
            return 0;
    }
    return -ENOENT;
}

static int add_tool(sb_vm_ramroot *r, const char *prog, char *err, size_t errlen)
{
    char path[PATH_MAX];
    if (find_program(prog, path, sizeof path) < 0) {
        snprintf(err, errlen, "%s is not installed (the guest runs it)", prog);
        return -ENOENT;
    }
    return sb_vm_ramroot_add_program(r, path, err, errlen);
}

int sb_vm_ramroot_for(sb_vm_ramroot *r, const sb_scn_config *c, const char *exe, char *err, size_t errlen)
{
    char mkfs[64];
    err[0] = 0;
    snprintf(mkfs, sizeof mkfs, "mkfs.%s", c->filesystem);
    int rc = sb_vm_ramroot_add_program(r, exe, err, errlen);
    /* exe itself is packed to its own place (vm_labinit): only its libraries are listed (the
     * links on the way to it are harmless) */
    char real[PATH_MAX], line[PATH_MAX + 4];
    if (rc == 0 && realpath(exe, real)) {
        snprintf(line, sizeof line, "F\t%s", real);
        for (size_t i = 0; i < r->n; i++) {
            if (strcmp(r->line[i], line))
                continue;
            struct stat st;
            if (stat(real, &st) == 0)
                r->bytes -= (uint64_t)st.st_size;
            free(r->line[i]);
            memmove(r->line + i, r->line + i + 1, (r->n - i - 1) * sizeof *r->line);
            r->n--;
            break;
        }
    }
    if (rc == 0)
        rc = add_tool(r, mkfs, err, errlen);
    if (rc == 0 && c->cache != SB_CACHE_NONE)
        rc = add_tool(r, "make-bcache", err, errlen);
    if (rc == 0 && c->md[0])
        rc = add_tool(r, "mdadm", err, errlen);
    if (rc == 0)
        rc = add_tool(r, "sh", err, errlen);
    for (size_t i = 0; rc == 0 && i < sizeof data_files / sizeof data_files[0]; i++)
        if (access(data_files[i], R_OK) == 0)
            rc = sb_vm_ramroot_add(r, data_files[i]);
    if (rc == 0 && !strcmp(c->filesystem, "ext4") && access("/etc/mke2fs.conf", R_OK) == 0)
        rc = sb_vm_ramroot_add(r, "/etc/mke2fs.conf");
    if (rc == 0 && c->md[0] && access("/etc/mdadm/mdadm.conf", R_OK) == 0)
        rc = sb_vm_ramroot_add(r, "/etc/mdadm/mdadm.conf");
    if (rc < 0 && !err[0])
        snprintf(err, errlen, "the guest's RAM root: %s", strerror(-rc));
    return rc;
}
