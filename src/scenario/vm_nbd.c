/*
 * vm_nbd — one nbdkit with the model filter per modeled guest disk (see
 * vm_nbd.h). nbdkit runs in the foreground as our child (so we can wait for
 * it), in its own process group (the terminal's Ctrl-C reaches storbench,
 * which stops it), with --exit-with-parent and PR_SET_PDEATHSIG (it dies with
 * storbench whatever kills storbench: the journal line is the second line of
 * defence, for what the kernel's parent-death signal cannot see). It is ready
 * when its pid file exists: nbdkit writes it once the socket listens.
 */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "scenario/vm_nbd.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/child.h"
#include "core/clock.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/workdir.h"
#include "devices/model.h"
#include "scenario/tool.h"

/* How long nbdkit may take to listen (it loads the plugin and the filter, no more). */
#define START_TIMEOUT_MS 15000

int sb_vm_nbd_filter(char *out, size_t len, char *why, size_t whylen)
{
    const char *env = getenv("STORBENCH_NBDKIT_FILTER");
    if (env && *env) {
        snprintf(out, len, "%s", env);
        if (access(out, R_OK) == 0)
            return 0;
        snprintf(why, whylen, "STORBENCH_NBDKIT_FILTER=%s: %s", env, strerror(errno));
        return -ENOENT;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n < 0)
        n = 0;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = 0;
    static const char *const places[] = {"%s/build/" SB_VM_NBD_FILTER, "%s/" SB_VM_NBD_FILTER,
                                         "%s/../lib/storbench/" SB_VM_NBD_FILTER};
    for (size_t i = 0; i < sizeof places / sizeof places[0]; i++) {
        snprintf(out, len, places[i], exe);
        if (access(out, R_OK) == 0)
            return 0;
    }
    snprintf(why, whylen, "the device-model filter %s is not built (make, with Debian's nbdkit-plugin-dev; "
             "looked in %s/build, %s and %s/../lib/storbench)", SB_VM_NBD_FILTER, exe, exe, exe);
    return -ENOENT;
}

int sb_vm_nbd_available(char *why, size_t whylen)
{
    if (!sb_in_path(SB_VM_NBDKIT)) {
        snprintf(why, whylen, "device-model under --vm needs nbdkit (Debian package nbdkit)");
        return -ENOTSUP;
    }
    char so[PATH_MAX];
    return sb_vm_nbd_filter(so, sizeof so, why, whylen) < 0 ? -ENOTSUP : 0;
}

/* The class -> preset table: the seed pages' drives (docs/devices.md has their sources). */
static const struct {
    sb_dev_class cls;
    const char *preset;
} class_presets[] = {
    {SB_DEV_SSD, "ssd-850evo"},
    {SB_DEV_HDD, "hdd-hua723020"},
};

const char *sb_vm_class_preset(sb_dev_class cls)
{
    for (size_t i = 0; i < sizeof class_presets / sizeof class_presets[0]; i++)
        if (class_presets[i].cls == cls)
            return class_presets[i].preset;
    return NULL;
}

unsigned sb_vm_class_models(sb_scenario *s, bool lab)
{
    char why[512] = "";
    bool avail = lab || sb_vm_nbd_available(why, sizeof why) == 0, warned = false;
    unsigned n = 0;
    for (size_t i = 0; i < s->n; i++)
        for (unsigned d = 0; d < s->configs[i].devices; d++) {
            sb_scn_device *dev = &s->configs[i].dev[d];
            const char *preset = sb_vm_class_preset(dev->cls);
            /* An explicit model, or throttling asked for by number, is the file's choice. */
            if (!dev->class_given || dev->model[0] || !preset || dev->iops != SB_DEV_CLASS_DEFAULT ||
                dev->bps != SB_DEV_CLASS_DEFAULT)
                continue;
            if (!avail) {
                if (!warned)
                    sb_warn("scenario: --vm: device-class %s is modeled as %s only with nbdkit and the model "
                            "filter (%s): here QEMU's throttling emulates the classes", sb_dev_class_name(dev->cls),
                            preset, why);
                warned = true;
                continue;
            }
            snprintf(dev->model, sizeof dev->model, "%s", preset);
            dev->class_model = true;
            n++;
        }
    return n;
}

bool sb_vm_nbd_rotational(const char *spec)
{
    sb_dev_model *m = NULL;
    char err[256];
    /* A tiny device fits every preset's capacity; only its kind is asked. */
    if (sb_dev_model_new(spec, 1u << 20, &m, err, sizeof err) < 0)
        return false;
    bool hdd = sb_dev_model_kind(m) == SB_DEV_KIND_HDD;
    sb_dev_model_free(m);
    return hdd;
}

/* The first line nbdkit wrote to its log (why it did not start). */
static void first_log_line(const char *dir, char *out, size_t len)
{
    char path[PATH_MAX], text[1024] = "";
    snprintf(path, sizeof path, "%s/nbdkit.log", dir);
    sb_read_text(path, text, sizeof text);
    text[strcspn(text, "\n")] = 0;
    snprintf(out, len, "%s", text[0] ? text : "no message");
}

/* nbdkit in a process group of its own (the terminal's Ctrl-C is ours to answer), dying
 * with us, its output into log (made here, never an existing file). 0 or -errno. */
static int spawn(char **argv, const char *log, pid_t *pid)
{
    int out = open(log, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (out < 0)
        return -errno;
    sb_child_spec spec = {.argv = argv, .in = -1, .out = out, .err = out, .own_group = true,
                          .deathsig = SIGKILL};
    int rc = sb_child_spawn(&spec, pid);
    close(out);
    return rc;
}

/* Waits until the pid file exists (listening) or nbdkit ended. 0, or -EIO / -ETIMEDOUT. */
static int wait_ready(sb_vm_nbd *n, const char *pidfile)
{
    for (unsigned waited = 0; waited < START_TIMEOUT_MS; waited += 20) {
        if (access(pidfile, F_OK) == 0)
            return 0;
        int status;
        if (waitpid(n->pid, &status, WNOHANG) == n->pid) {
            n->pid = 0;
            return -EIO;
        }
        sb_sleep_ms(20);
    }
    return -ETIMEDOUT;
}

int sb_vm_nbd_start(sb_vm_nbd *n, const char *dir, const char *image, const char *spec, sb_state *st,
                    char *err, size_t errlen)
{
    memset(n, 0, sizeof *n);
    char so[PATH_MAX], why[512];
    if (sb_vm_nbd_filter(so, sizeof so, why, sizeof why) < 0) {
        snprintf(err, errlen, "%s", why);
        return -ENOENT;
    }
    if (mkdir(dir, 0700) < 0) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return -errno;
    }
    snprintf(n->dir, sizeof n->dir, "%s", dir);
    snprintf(n->sock, sizeof n->sock, "%s/nbd.sock", dir);
    char pidfile[PATH_MAX], log[PATH_MAX], filter[PATH_MAX + 16], file[PATH_MAX + 8], model[1024], threads[16];
    snprintf(pidfile, sizeof pidfile, "%s/nbdkit.pid", dir);
    snprintf(log, sizeof log, "%s/nbdkit.log", dir);
    snprintf(filter, sizeof filter, "--filter=%s", so);
    snprintf(file, sizeof file, "file=%s", image);
    snprintf(model, sizeof model, "model=%s", spec);
    snprintf(threads, sizeof threads, "%u", SB_VM_NBD_THREADS);
    char *argv[] = {SB_VM_NBDKIT, "--foreground", "--exit-with-parent", "--unix", n->sock, "--pidfile", pidfile,
                    "--threads", threads, filter, "file", file, model, NULL};
    int rc = spawn(argv, log, &n->pid);
    if (rc < 0) {
        n->pid = 0;
        snprintf(err, errlen, "cannot start nbdkit: %s", strerror(-rc));
        sb_vm_nbd_stop(n);
        return rc;
    }
    char pid[32];
    snprintf(pid, sizeof pid, "%ld", (long)n->pid);
    /* Journaled once its pid is known; until then it dies with us (PR_SET_PDEATHSIG). */
    rc = st ? sb_state_add(st, SB_ST_NBDKIT, pid, n->sock) : 0;
    if (rc < 0)
        snprintf(err, errlen, "cannot journal nbdkit: %s", strerror(-rc));
    else if ((rc = wait_ready(n, pidfile)) < 0) {
        char line[512];
        first_log_line(dir, line, sizeof line);
        snprintf(err, errlen, "nbdkit with the device model '%s' %s: %s", spec,
                 rc == -EIO ? "did not start" : "did not listen within 15 s", line);
    }
    if (rc < 0)
        sb_vm_nbd_stop(n);
    return rc;
}

void sb_vm_nbd_stop(sb_vm_nbd *n)
{
    if (n->pid > 0)
        sb_child_stop(n->pid, true, 5000);
    n->pid = 0;
    if (n->dir[0])
        sb_remove_tree(n->dir);
    n->dir[0] = 0;
}
