/*
 * vm_image — the guest's initramfs and per-configuration guest.sh (see
 * vm_image.h). The initramfs is written here as a cpio "newc" archive (the
 * format is a fixed ASCII header per file), so nothing but busybox-static is
 * needed to make it. /init is fixed; everything that depends on the host's
 * paths goes into guest.sh in the exchange directory, quoted for sh, so that
 * a path with blanks cannot become a second word.
 */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "scenario/vm_image.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/strutil.h"
#include "scenario/tool.h"
#include "scenario/vm_guest.h"

/* Loaded from the initramfs: enough to mount the host's root over virtio 9p. The rest
 * (disks, bcache, md, filesystems) comes from the kernel tree, seen through that mount.
 * The host's root is mounted read-only with cache=loose: what the guest has read once it
 * reads again from its own page cache, not from the host. Under virtual time a read that
 * waits for the host lets the guest's clock jump by a host-dependent amount; a test that
 * reads a file of the host while it measures (Dbench's clients read its loadfile) would
 * carry the host's speed in its figure. The host's files do not change under a guest. */
static const char *const initramfs_modules[] = {"virtio_pci", "9pnet_virtio", "9p"};

static const char init_script[] =
    "#!/bin/busybox sh\n"
    "# storbench VM guest /init (src/scenario/vm_image.c): mounts the host's root\n"
    "# read-only and the exchange directory, then runs the exchange's guest.sh, from a\n"
    "# copy in RAM: a shell reading its script over 9p holds a file of the host open.\n"
    "/bin/busybox --install -s /bin\n"
    "export PATH=/bin\n"
    "mount -t devtmpfs dev /dev\n"
    "mount -t proc proc /proc\n"
    "mount -t sysfs sys /sys\n"
    "echo '" SB_VM_UP_MARKER "'\n"
    "for m in /mods/*.ko; do insmod \"$m\" || echo \"storbench-vm: insmod $m failed\"; done\n"
    "# Virtual time: a second archive holds all that storbench runs on (vm_labinit.c); its\n"
    "# lab.sh reaches the host only once storbench has ended, and powers the guest off.\n"
    "[ -f /lab.sh ] && . /lab.sh\n"
    "if mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,ro,cache=loose host /newroot &&\n"
    "   mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 xchg /xchg; then\n"
    "    cp /xchg/guest.sh /guest.sh && . /guest.sh\n"
    "else\n"
    "    echo 'storbench-vm: cannot mount the host over 9p'\n"
    "fi\n"
    "poweroff -f\n";

void sb_shell_quote(const char *s, char *out, size_t len)
{
    size_t k = 0;
    if (len < 3) {
        if (len)
            out[0] = 0;
        return;
    }
    out[k++] = '\'';
    for (; *s && k + 5 < len; s++) {
        if (*s == '\'') {
            memcpy(out + k, "'\\''", 4);
            k += 4;
        } else {
            out[k++] = *s;
        }
    }
    out[k++] = '\'';
    out[k] = 0;
}

int sb_vm_check_static(const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s (Debian package busybox-static)", path, strerror(errno));
        return -errno;
    }
    Elf64_Ehdr eh;
    int rc = -ENOEXEC;
    if (pread(fd, &eh, sizeof eh, 0) == (ssize_t)sizeof eh && !memcmp(eh.e_ident, ELFMAG, SELFMAG) &&
        eh.e_ident[EI_CLASS] == ELFCLASS64) {
        rc = 0;
        for (unsigned i = 0; i < eh.e_phnum && rc == 0; i++) {
            Elf64_Phdr ph;
            if (pread(fd, &ph, sizeof ph, (off_t)(eh.e_phoff + (uint64_t)i * eh.e_phentsize)) != (ssize_t)sizeof ph)
                rc = -ENOEXEC;
            else if (ph.p_type == PT_INTERP)
                rc = -ENOEXEC;
        }
    }
    close(fd);
    if (rc < 0)
        snprintf(err, errlen, "%s is not a statically linked 64-bit program (install busybox-static, "
                 "not busybox)", path);
    return rc;
}

size_t sb_vm_parse_depends(const char *text, char **out, size_t max)
{
    size_t n = 0;
    const char *p = text;
    while (*p && n < max) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char line[PATH_MAX + 16], path[PATH_MAX];
        snprintf(line, sizeof line, "%.*s", (int)len, p);
        p += len + (eol ? 1 : 0);
        if (sscanf(line, "insmod %4095s", path) != 1)
            continue;
        bool seen = false;
        for (size_t i = 0; i < n && !seen; i++)
            seen = !strcmp(out[i], path);
        if (!seen)
            out[n++] = sb_xstrdup(path);
    }
    return n;
}

/* ---- cpio newc ---- */

void sb_vm_cpio_entry(sb_vm_cpio *c, const char *name, unsigned mode, unsigned rmaj, unsigned rmin,
                      const void *data, size_t len)
{
    sb_vm_cpio_header(c, name, mode, rmaj, rmin, len);
    if (len) {
        fwrite(data, 1, len, c->f);
        sb_vm_cpio_pad(c, len);
    }
}

void sb_vm_cpio_header(sb_vm_cpio *c, const char *name, unsigned mode, unsigned rmaj, unsigned rmin, size_t len)
{
    size_t namesize = strlen(name) + 1;
    fprintf(c->f, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X", c->ino++, mode, 0u, 0u,
            (mode & S_IFMT) == S_IFDIR ? 2u : 1u, 0u, len, 0u, 0u, rmaj, rmin, namesize, 0u);
    fwrite(name, 1, namesize, c->f);
    sb_vm_cpio_pad(c, 110 + namesize);
}

void sb_vm_cpio_pad(sb_vm_cpio *c, size_t len)
{
    static const char zeros[4] = {0};
    fwrite(zeros, 1, (4 - len % 4) % 4, c->f);
}

int sb_vm_cpio_file(sb_vm_cpio *c, const char *name, const char *src, unsigned mode, char *err, size_t errlen)
{
    /* Streamed in pieces: a RAM root's libraries run to tens of MB. */
    FILE *in = fopen(src, "rbe");
    struct stat st;
    if (!in || fstat(fileno(in), &st) < 0) {
        int e = errno;
        if (in)
            fclose(in);
        snprintf(err, errlen, "%s: %s", src, strerror(e));
        return -e;
    }
    size_t len = (size_t)st.st_size, done = 0;
    sb_vm_cpio_header(c, name, S_IFREG | mode, 0, 0, len);
    char buf[65536];
    while (done < len) {
        size_t want = len - done < sizeof buf ? len - done : sizeof buf, got = fread(buf, 1, want, in);
        if (got == 0)
            break;
        fwrite(buf, 1, got, c->f);
        done += got;
    }
    int rc = done == len && !ferror(in) ? 0 : -EIO;
    fclose(in);
    if (rc < 0) {
        snprintf(err, errlen, "%s: changed or unreadable while copied", src);
        return rc;
    }
    sb_vm_cpio_pad(c, len);
    return 0;
}

int sb_vm_write_initramfs(const char *path, const char *busybox, char *const *modules, size_t n, char *err,
                          size_t errlen)
{
    sb_vm_cpio c = {.f = fopen(path, "we"), .ino = 1};
    if (!c.f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -errno;
    }
    static const char *const dirs[] = {"bin", "dev", "proc", "sys", "newroot", "xchg", "mods"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        sb_vm_cpio_entry(&c, dirs[i], S_IFDIR | 0755, 0, 0, NULL, 0);
    /* The kernel opens /dev/console for init's stdio before /init mounts devtmpfs. */
    sb_vm_cpio_entry(&c, "dev/console", S_IFCHR | 0600, 5, 1, NULL, 0);
    sb_vm_cpio_entry(&c, "init", S_IFREG | 0755, 0, 0, init_script, sizeof init_script - 1);
    int rc = sb_vm_cpio_file(&c, "bin/busybox", busybox, 0755, err, errlen);
    for (size_t i = 0; i < n && rc == 0; i++) {
        char name[PATH_MAX];
        const char *b = strrchr(modules[i], '/');
        snprintf(name, sizeof name, "mods/%02zu-%s", i + 1, b ? b + 1 : modules[i]);
        rc = sb_vm_cpio_file(&c, name, modules[i], 0644, err, errlen);
    }
    sb_vm_cpio_entry(&c, "TRAILER!!!", 0, 0, 0, NULL, 0);
    if (rc == 0 && (ferror(c.f) || fflush(c.f) != 0)) {
        rc = -errno;
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
    }
    fclose(c.f);
    if (rc < 0)
        unlink(path);
    return rc;
}

int sb_vm_build_initramfs(const sb_vm_kernel *k, const char *path, char *err, size_t errlen)
{
    int rc = sb_vm_check_static(SB_VM_BUSYBOX, err, errlen);
    if (rc < 0)
        return rc;
    if (!sb_in_path("modprobe")) {
        snprintf(err, errlen, "modprobe is not installed (Debian package kmod)");
        return -ENOTSUP;
    }
    char *argv[16], out[8192] = "";
    size_t a = sb_vm_kernel_modprobe_argv(k, argv);
    for (size_t i = 0; i < sizeof initramfs_modules / sizeof initramfs_modules[0]; i++)
        argv[a++] = (char *)initramfs_modules[i];
    argv[a] = NULL;
    if ((rc = sb_run_tool(argv, NULL, out, sizeof out, err, errlen)) < 0)
        return rc;
    char *mods[64];
    size_t n = sb_vm_parse_depends(out, mods, 64);
    rc = sb_vm_write_initramfs(path, SB_VM_BUSYBOX, mods, n, err, errlen);
    for (size_t i = 0; i < n; i++)
        free(mods[i]);
    return rc;
}

void sb_vm_config_modules(const sb_scn_config *c, char *out, size_t len)
{
    snprintf(out, len, "virtio_scsi sd_mod %s%s%s", c->filesystem, c->cache != SB_CACHE_NONE ? " bcache" : "",
             c->md[0] ? " md_mod" : "");
    if (c->md[0]) {
        size_t l = strlen(out);
        const char *pers = !strcmp(c->md, "raid5") || !strcmp(c->md, "raid6") ? "raid456" : c->md;
        snprintf(out + l, len - l, " %s", pers);
    }
}

int sb_vm_write_guest_script(const char *xchg, const sb_vm_kernel *k, const char *exe, const char *modules,
                             char *err, size_t errlen)
{
    char qroot[PATH_MAX + 64], qver[300], qexe[PATH_MAX + 64], path[PATH_MAX];
    sb_shell_quote(k->root, qroot, sizeof qroot);
    sb_shell_quote(k->version, qver, sizeof qver);
    sb_shell_quote(exe, qexe, sizeof qexe);
    snprintf(path, sizeof path, "%s/guest.sh", xchg);
    FILE *f = fopen(path, "we");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -errno;
    }
    /* Sourced by /init under host time (a virtual-time guest runs vm_labinit.h's lab.sh instead).
     * Host paths are the same in the guest (its root is the host's), but
     * tmpfs covers /tmp, /run and /root: the kernel tree and storbench, which may live there
     * (~/.cache), are bound into the initramfs first and then under /run. */
    fprintf(f,
            "# storbench VM guest setup for one configuration (src/scenario/vm_image.c)\n"
            "R=/newroot\n"
            "fail() { echo \"storbench-vm: $1\"; poweroff -f; }\n"
            "mkdir -p /kernel && : > /exe && mount --bind $R%s /kernel && mount --bind $R%s /exe ||\n"
            "    fail 'cannot reach the kernel tree or storbench'\n"
            "mount -t proc proc $R/proc && mount -t sysfs sys $R/sys && mount -t devtmpfs dev $R/dev &&\n"
            "mount -t tmpfs -o mode=1777 tmpfs $R/tmp && mount -t tmpfs -o mode=755 tmpfs $R/run &&\n"
            "mount -t tmpfs -o mode=700 tmpfs $R/root && mkdir -p $R" SB_VM_GUEST_XCHG " $R" SB_VM_GUEST_KERNEL " &&\n"
            ": > $R" SB_VM_GUEST_EXE " && mount --bind /xchg $R" SB_VM_GUEST_XCHG " &&\n"
            "mount --bind /kernel $R" SB_VM_GUEST_KERNEL " && mount --bind /exe $R" SB_VM_GUEST_EXE " ||\n"
            "    fail 'guest mounts failed'\n"
            "mount -t tmpfs tmpfs $R/dev/shm 2>/dev/null\n"
            "echo \"storbench-vm: mounted at $(cut -d' ' -f1 /proc/uptime)\"\n"
            "chroot $R /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin modprobe -a -d " SB_VM_GUEST_KERNEL
            " -S %s %s ||\n"
            "    echo 'storbench-vm: some modules did not load (%s)'\n"
            "echo \"storbench-vm: modules at $(cut -d' ' -f1 /proc/uptime)\"\n"
            "E='env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TERM=dumb LANG=C.UTF-8 STORBENCH_STATE_DIR=/run/storbench'\n"
            "# Dbench's loadfile is read by its clients while they measure: a copy in guest RAM\n"
            "# over it, so that no read waits for the host (the page cache it would be in is\n"
            "# dropped before every run). Best effort.\n"
            "L=/usr/share/dbench/client.txt\n"
            "[ -f $R$L ] && mkdir -p /inputs && cp $R$L /inputs/client.txt && mount --bind /inputs/client.txt $R$L\n"
            "# Through a pipe: the console is a terminal, and storbench draws no progress line there.\n"
            "{ $E chroot $R " SB_VM_GUEST_EXE " scenario vm-guest " SB_VM_GUEST_XCHG "\n"
            "  echo $? > /xchg/status; } 2>&1 | cat\n"
            "sync\n"
            "umount $R" SB_VM_GUEST_XCHG " /xchg 2>/dev/null\n"
            "poweroff -f\n",
            qroot, qexe, qver, modules, modules);
    int rc = ferror(f) ? -EIO : 0;
    if (fclose(f) != 0 || rc < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno ? errno : EIO));
        return -EIO;
    }
    return 0;
}
