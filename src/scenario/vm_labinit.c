/*
 * vm_labinit — a virtual-time guest's whole input in its initramfs (see
 * vm_labinit.h). The second archive is appended to vm_image's: the kernel unpacks
 * concatenated cpio archives one after the other into the same root. Every entry's
 * time is 0 and its inode numbers are counted here, so the same configuration gives
 * the same bytes in every run: the guest's boot repeats itself.
 */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "scenario/vm_labinit.h"

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
#include "scenario/vm_guest.h"
#include "scenario/vm_image.h"
#include "scenario/vm_ramroot.h"

/* Sourced by /init after its own modules, before any 9p mount; it ends the guest. */
const char sb_vm_lab_script[] =
    "# storbench virtual-time guest (src/scenario/vm_labinit.c), sourced by /init: all that\n"
    "# storbench runs on came in the initramfs, so from the kernel's start to storbench's end\n"
    "# nothing waits for the host; the exchange directory is mounted over 9p only after it.\n"
    "fail() { echo \"storbench-vm: $1\"; poweroff -f; }\n"
    "for m in /labmods/*; do\n"
    "    [ -f \"$m\" ] || continue\n"
    "    n=${m##*/}; n=${n#*-}; n=${n%%.*}\n"
    "    [ -d /sys/module/$n ] || insmod \"$m\" || echo \"storbench-vm: insmod $m failed\"\n"
    "done\n"
    "echo \"storbench-vm: modules at $(cut -d' ' -f1 /proc/uptime)\"\n"
    "T=/lab X=/lab" SB_VM_GUEST_XCHG "\n"
    "M=$(du -sm $T | cut -f1)\n"
    "mkdir -p $T/proc $T/sys $T/dev $T/tmp $T/run $T/root &&\n"
    "mount -t proc proc $T/proc && mount -t sysfs sys $T/sys && mount -t devtmpfs dev $T/dev &&\n"
    "mount -t tmpfs -o mode=1777 tmpfs $T/tmp && mount -t tmpfs -o mode=755 tmpfs $T/run &&\n"
    "mount -t tmpfs -o mode=700 tmpfs $T/root && mkdir -p $T/dev/shm $X &&\n"
    "mount -t tmpfs tmpfs $T/dev/shm && cp /labin/exe $T" SB_VM_GUEST_EXE " &&\n"
    "cp /labin/scenario.ini /labin/args /labin/ndevices /labin/" SB_VM_LAB_FILE " $X/ ||\n"
    "    fail 'RAM root mounts failed'\n"
    "# When the boot ended to the nanosecond, and the kernel's random bytes then: the same in\n"
    "# every run of a configuration when nothing of the host reached the guest.\n"
    "echo \"storbench-vm: in guest RAM ($M MB) at $(cut -d' ' -f1 /proc/uptime)\" \\\n"
    "    \"($(sed -n 's/^now at \\([0-9]*\\) nsecs$/\\1/p' /proc/timer_list) ns, random\" \\\n"
    "    \"$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \\n'))\"\n"
    "# The guest kernel's own count of its 9p requests (its 9p_client_req trace event)\n"
    "# while storbench runs: the proof that nothing waited for the host.\n"
    "N=/sys/kernel/tracing; mount -t tracefs tracefs $N 2>/dev/null\n"
    "echo 1 2>/dev/null > $N/events/9p/9p_client_req/enable || N=\n"
    "# Where the guest's time went while storbench ran: the vCPU busy (each virtual second of\n"
    "# it costs the host the emulation of 10^9 instructions) or idle (halted, the clock jumps to\n"
    "# the next timer: no host time; spinning under --vm-exact). /proc/stat's cpu line, in USER_HZ ticks.\n"
    "C0=$(head -n 1 /proc/stat)\n"
    "{ env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TERM=dumb LANG=C.UTF-8 "
    "STORBENCH_STATE_DIR=/run/storbench chroot $T " SB_VM_GUEST_EXE " scenario vm-guest " SB_VM_GUEST_XCHG "\n"
    "  echo $? > $T/status; } 2>&1 | cat\n"
    "echo \"$C0\" | cat - /proc/stat | awk '\n"
    "    /^cpu / { b = $2 + $3 + $4 + $7 + $8; i = $5 + $6; if (n++) { b -= b0; i -= i0 } else { b0 = b; i0 = i } }\n"
    "    END { printf \"storbench-vm: the vCPU while storbench ran: %.1f s busy, %.1f s idle (virtual)\\n\", b / 100, i / 100 }'\n"
    "[ -n \"$N\" ] && echo 0 > $N/events/9p/9p_client_req/enable &&\n"
    "    echo \"storbench-vm: 9p requests to the host while storbench ran: $(cat $N/per_cpu/cpu*/stats |\n"
    "        awk '/^(entries|overrun):/ { n += $2 } END { print n + 0 }')\" &&\n"
    "    grep -m 5 9p_client_req $N/trace | sed 's/^/storbench-vm: 9p: /'\n"
    "mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 xchg /xchg || fail 'cannot mount the exchange'\n"
    "cp $T/status /xchg/status\n"
    "[ -f $X/result.json ] && cp $X/result.json /xchg/\n"
    "sync\n"
    "umount /xchg\n"
    "poweroff -f\n";

/* The directories written so far: each once, before anything in it. */
typedef struct dirset {
    char **d;
    size_t n, cap;
} dirset;

static void dirs_free(dirset *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->d[i]);
    free(s->d);
}

/* Every directory on the way to name ("lab/usr/lib/x"): lab, lab/usr, lab/usr/lib. */
static void parents(sb_vm_cpio *c, dirset *s, const char *name)
{
    char p[PATH_MAX + 16];
    snprintf(p, sizeof p, "%s", name);
    for (char *q = strchr(p, '/'); q; q = strchr(q + 1, '/')) {
        *q = 0;
        bool seen = false;
        for (size_t i = 0; i < s->n && !seen; i++)
            seen = !strcmp(s->d[i], p);
        if (!seen) {
            if (s->n == s->cap) {
                s->cap = s->cap ? 2 * s->cap : 64;
                s->d = sb_xrealloc(s->d, s->cap * sizeof *s->d);
            }
            s->d[s->n++] = sb_xstrdup(p);
            sb_vm_cpio_entry(c, p, S_IFDIR | 0755, 0, 0, NULL, 0);
        }
        *q = '/';
    }
}

/* The configuration's modules and what they need, in modprobe's load order, as
 * labmods/NN-NAME.ko (NAME the module's, dashes as underscores: lab.sh skips one that
 * /sys/module already has, vm_image's own among them). */
static int put_modules(sb_vm_cpio *c, dirset *s, const sb_vm_kernel *k, const char *modules, char *err,
                       size_t errlen)
{
    char list[512], out[32768] = "", *argv[64], *save = NULL;
    snprintf(list, sizeof list, "%s", modules);
    size_t a = sb_vm_kernel_modprobe_argv(k, argv);
    for (char *m = strtok_r(list, " ", &save); m && a < 63; m = strtok_r(NULL, " ", &save))
        argv[a++] = m;
    argv[a] = NULL;
    if (a == 7) /* no module named */
        return 0;
    int rc = sb_run_tool(argv, NULL, out, sizeof out, err, errlen);
    if (rc < 0)
        return rc;
    char *mods[256];
    size_t n = sb_vm_parse_depends(out, mods, 256);
    for (size_t i = 0; i < n; i++) {
        const char *b = strrchr(mods[i], '/');
        char base[256], name[320];
        snprintf(base, sizeof base, "%s", b ? b + 1 : mods[i]);
        char *dot = strchr(base, '.');
        const char *suffix = dot ? (b ? b + 1 : mods[i]) + (dot - base) : "";
        if (dot)
            *dot = 0;
        for (char *p = base; *p; p++)
            if (*p == '-')
                *p = '_';
        snprintf(name, sizeof name, "labmods/%03zu-%s%s", i + 1, base, suffix);
        parents(c, s, name);
        if (rc == 0)
            rc = sb_vm_cpio_file(c, name, mods[i], 0644, err, errlen);
        free(mods[i]);
    }
    return rc;
}

/* c's RAM root under lab/: each link as a link, each file with its mode. */
static int put_root(sb_vm_cpio *c, dirset *s, const sb_scn_config *cfg, const char *exe, char *err,
                    size_t errlen)
{
    sb_vm_ramroot r = {0};
    int rc = sb_vm_ramroot_for(&r, cfg, exe, err, errlen);
    for (size_t i = 0; rc == 0 && i < r.n; i++) {
        char line[3 * PATH_MAX], name[PATH_MAX + 8];
        snprintf(line, sizeof line, "%s", r.line[i]);
        char *path = line + 2, *tab = strchr(path, '\t');
        if (tab)
            *tab = 0;
        snprintf(name, sizeof name, "lab%s", path);
        parents(c, s, name);
        if (line[0] == 'L' && tab) {
            sb_vm_cpio_entry(c, name, S_IFLNK | 0777, 0, 0, tab + 1, strlen(tab + 1));
            continue;
        }
        struct stat st;
        if (stat(path, &st) < 0) {
            rc = -errno;
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
            break;
        }
        rc = sb_vm_cpio_file(c, name, path, st.st_mode & 07777, err, errlen);
    }
    sb_vm_ramroot_free(&r);
    return rc;
}

/* The initramfs at base, copied to the front of c's file (its end padded to 4 bytes, where
 * the kernel looks for the next archive's header). */
static int put_base(sb_vm_cpio *c, const char *base, char *err, size_t errlen)
{
    FILE *in = fopen(base, "rbe");
    if (!in) {
        snprintf(err, errlen, "%s: %s", base, strerror(errno));
        return -errno;
    }
    char buf[65536];
    size_t got, len = 0;
    while ((got = fread(buf, 1, sizeof buf, in)) > 0) {
        fwrite(buf, 1, got, c->f);
        len += got;
    }
    int rc = ferror(in) ? -EIO : 0;
    fclose(in);
    if (rc < 0)
        snprintf(err, errlen, "%s: read error", base);
    sb_vm_cpio_pad(c, len);
    return rc;
}

static int put_all(sb_vm_cpio *c, const char *base, const sb_vm_kernel *k, const char *modules, const char *xchg,
                   const char *exe, const sb_scn_config *cfg, char *err, size_t errlen)
{
    dirset s = {0};
    int rc = put_base(c, base, err, errlen);
    if (rc == 0)
        rc = put_modules(c, &s, k, modules, err, errlen);
    if (rc == 0)
        rc = put_root(c, &s, cfg, exe, err, errlen);
    static const char *const inputs[] = {"scenario.ini", "args", "ndevices", SB_VM_LAB_FILE};
    parents(c, &s, "labin/exe");
    if (rc == 0)
        rc = sb_vm_cpio_file(c, "labin/exe", exe, 0755, err, errlen);
    for (size_t i = 0; rc == 0 && i < sizeof inputs / sizeof inputs[0]; i++) {
        char src[PATH_MAX], name[64];
        snprintf(src, sizeof src, "%s/%s", xchg, inputs[i]);
        snprintf(name, sizeof name, "labin/%s", inputs[i]);
        rc = sb_vm_cpio_file(c, name, src, 0644, err, errlen);
    }
    sb_vm_cpio_entry(c, "lab.sh", S_IFREG | 0755, 0, 0, sb_vm_lab_script, strlen(sb_vm_lab_script));
    sb_vm_cpio_entry(c, "TRAILER!!!", 0, 0, 0, NULL, 0);
    dirs_free(&s);
    return rc;
}

int sb_vm_lab_initrd(const char *out, const char *base, const sb_vm_kernel *k, const char *modules,
                     const char *xchg, const char *exe, const sb_scn_config *c, char *err, size_t errlen)
{
    /* Inode numbers apart from the first archive's (the kernel matches hard links by them). */
    sb_vm_cpio a = {.f = fopen(out, "wxe"), .ino = 100000};
    if (!a.f) {
        snprintf(err, errlen, "%s: %s", out, strerror(errno));
        return -errno;
    }
    int rc = put_all(&a, base, k, modules, xchg, exe, c, err, errlen);
    if (rc == 0 && (ferror(a.f) || fflush(a.f) != 0)) {
        rc = -(errno ? errno : EIO);
        snprintf(err, errlen, "%s: %s", out, strerror(-rc));
    }
    if (fclose(a.f) != 0 && rc == 0) {
        rc = -errno;
        snprintf(err, errlen, "%s: %s", out, strerror(errno));
    }
    if (rc < 0)
        unlink(out);
    return rc;
}
