/*
 * vm_kernel — the guest's kernel (see vm_kernel.h). The Debian package is
 * resolved through the metapackage linux-image-amd64 (whose Depends names the
 * newest flavour package and its version), fetched with `apt-get download`
 * (apt checks it against the archive's signed index), checked again with
 * `dpkg-deb -f` (package name and version), unpacked into a private directory
 * in the cache and renamed into place only once complete: an interrupted
 * download leaves nothing that looks usable (and the next run removes it).
 * The .deb is deleted after unpacking; the tree (about 400 MB) is kept and
 * reused until the archive has a newer kernel.
 */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "scenario/vm_kernel.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/workdir.h"
#include "scenario/tool.h"

#define METAPACKAGE "linux-image-amd64"
#define COMPLETE ".complete"

int sb_vm_cache_dir(char *out, size_t len)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && *xdg == '/')
        snprintf(out, len, "%s/storbench/vm", xdg);
    else if (home && *home)
        snprintf(out, len, "%s/.cache/storbench/vm", home);
    else
        return -ENOENT;
    return 0;
}

static int mkdir_p(const char *path)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, 0755) < 0 && errno != EEXIST)
                return -errno;
            *p = '/';
        }
    return mkdir(buf, 0755) < 0 && errno != EEXIST ? -errno : 0;
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The one VERSION in root/lib/modules that has root/boot/vmlinuz-VERSION. */
static int find_version(const char *root, sb_vm_kernel *k, char *err, size_t errlen)
{
    char mods[PATH_MAX];
    snprintf(mods, sizeof mods, "%s/lib/modules", root);
    DIR *d = opendir(mods);
    if (!d) {
        snprintf(err, errlen, "%s: %s (a kernel tree has lib/modules/VERSION and boot/vmlinuz-VERSION)", mods,
                 strerror(errno));
        return -ENOENT;
    }
    int found = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char vmlinuz[PATH_MAX];
        if (e->d_name[0] == '.')
            continue;
        snprintf(vmlinuz, sizeof vmlinuz, "%s/boot/vmlinuz-%s", root, e->d_name);
        if (!is_file(vmlinuz))
            continue;
        if (found++) {
            snprintf(err, errlen, "%s: more than one kernel (%s, %s): keep one", root, k->version, e->d_name);
            closedir(d);
            return -EINVAL;
        }
        snprintf(k->version, sizeof k->version, "%s", e->d_name);
        snprintf(k->vmlinuz, sizeof k->vmlinuz, "%s", vmlinuz);
    }
    closedir(d);
    if (!found) {
        snprintf(err, errlen, "%s: no kernel (boot/vmlinuz-VERSION with lib/modules/VERSION)", root);
        return -ENOENT;
    }
    snprintf(k->root, sizeof k->root, "%s", root);
    return 0;
}

static int depmod(const char *root, const char *version, char *err, size_t errlen)
{
    char map[PATH_MAX];
    snprintf(map, sizeof map, "%s/boot/System.map-%s", root, version);
    char *argv[] = {"depmod", "-b", (char *)root, "-F", map, (char *)version, NULL};
    if (!is_file(map))
        argv[3] = (char *)version, argv[4] = NULL;
    if (!sb_in_path("depmod")) {
        snprintf(err, errlen, "depmod is not installed (Debian package kmod)");
        return -ENOTSUP;
    }
    return sb_run_tool(argv, NULL, NULL, 0, err, errlen);
}

int sb_vm_kernel_tree(const char *dir, sb_vm_kernel *k, char *err, size_t errlen)
{
    char root[PATH_MAX];
    if (!realpath(dir, root)) {
        snprintf(err, errlen, "--vm-kernel %s: %s", dir, strerror(errno));
        return -errno;
    }
    int rc = find_version(root, k, err, errlen);
    if (rc < 0)
        return rc;
    char dep[PATH_MAX];
    snprintf(dep, sizeof dep, "%s/lib/modules/%s/modules.dep", root, k->version);
    if (!is_file(dep) && (rc = depmod(root, k->version, err, errlen)) < 0)
        return rc;
    snprintf(k->source, sizeof k->source, "kernel tree %s", root);
    return 0;
}

/* "linux-image-6.1.0-57-amd64", "6.1.192-3" from the metapackage's Depends line. */
static int resolve_package(char *pkg, size_t plen, char *ver, size_t vlen, char *err, size_t errlen)
{
    char out[8192] = "";
    char *argv[] = {"apt-cache", "show", "--no-all-versions", METAPACKAGE, NULL};
    int rc = sb_run_tool(argv, NULL, out, sizeof out, err, errlen);
    if (rc < 0)
        return rc;
    const char *dep = strstr(out, "\nDepends:");
    char p[256] = "", v[128] = "";
    if (!dep || sscanf(dep, "\nDepends: %255[^ ,\n] (= %127[^)])", p, v) != 2 || strncmp(p, "linux-image-", 12)) {
        snprintf(err, errlen, "apt-cache show %s: no 'Depends: linux-image-... (= VERSION)' line", METAPACKAGE);
        return -EINVAL;
    }
    snprintf(pkg, plen, "%s", p);
    snprintf(ver, vlen, "%s", v);
    return 0;
}

/* The .deb apt-get download left in dir, checked to be pkg at version ver. */
static int find_deb(const char *dir, const char *pkg, const char *ver, char *deb, size_t len, char *err,
                    size_t errlen)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    deb[0] = 0;
    while (d && (e = readdir(d)))
        if (strlen(e->d_name) > 4 && !strcmp(e->d_name + strlen(e->d_name) - 4, ".deb"))
            snprintf(deb, len, "%s/%s", dir, e->d_name);
    if (d)
        closedir(d);
    if (!deb[0]) {
        snprintf(err, errlen, "apt-get download %s left no .deb", pkg);
        return -ENOENT;
    }
    char out[512] = "", want[512];
    char *argv[] = {"dpkg-deb", "-f", deb, "Package", "Version", NULL};
    int rc = sb_run_tool(argv, NULL, out, sizeof out, err, errlen);
    if (rc < 0)
        return rc;
    snprintf(want, sizeof want, "Package: %s\nVersion: %s\n", pkg, ver);
    if (strcmp(out, want)) {
        snprintf(err, errlen, "%s is not %s %s", deb, pkg, ver);
        return -EINVAL;
    }
    return 0;
}

/* Download, check, unpack and index into tmp; tmp/root is the tree. */
static int fetch_into(const char *tmp, const char *pkg, const char *ver, sb_vm_kernel *k, FILE *log, char *err,
                      size_t errlen)
{
    char spec[512], deb[PATH_MAX], root[PATH_MAX];
    snprintf(spec, sizeof spec, "%s=%s", pkg, ver);
    if (log)
        fprintf(log, "Downloading %s (apt-get download) ...\n", spec), fflush(log);
    char *dl[] = {"apt-get", "download", "-q", spec, NULL};
    int rc = sb_run_tool(dl, tmp, NULL, 0, err, errlen);
    if (rc == 0)
        rc = find_deb(tmp, pkg, ver, deb, sizeof deb, err, errlen);
    if (rc < 0)
        return rc;
    snprintf(root, sizeof root, "%s/root", tmp);
    char *x[] = {"dpkg-deb", "-x", deb, root, NULL};
    if ((rc = sb_run_tool(x, NULL, NULL, 0, err, errlen)) < 0)
        return rc;
    unlink(deb);
    if ((rc = find_version(root, k, err, errlen)) < 0)
        return rc;
    return depmod(root, k->version, err, errlen);
}

int sb_vm_kernel_debian(const char *cache, sb_vm_kernel *k, FILE *log, char *err, size_t errlen)
{
    char pkg[256], ver[128], final[PATH_MAX], mark[PATH_MAX], root[PATH_MAX];
    int rc = resolve_package(pkg, sizeof pkg, ver, sizeof ver, err, errlen);
    if (rc < 0)
        return rc;
    snprintf(final, sizeof final, "%s/%s_%s", cache, pkg, ver);
    snprintf(mark, sizeof mark, "%s/" COMPLETE, final);
    snprintf(root, sizeof root, "%s/root", final);
    if (!is_file(mark)) {
        if ((rc = mkdir_p(cache)) < 0) {
            snprintf(err, errlen, "cannot create %s: %s", cache, strerror(-rc));
            return rc;
        }
        sb_workdir_remove_stale(cache);
        char tmp[PATH_MAX];
        if ((rc = sb_workdir_create(cache, tmp, sizeof tmp)) < 0) {
            snprintf(err, errlen, "cannot create a directory in %s: %s", cache, strerror(-rc));
            return rc;
        }
        rc = fetch_into(tmp, pkg, ver, k, log, err, errlen);
        char tmark[PATH_MAX];
        snprintf(tmark, sizeof tmark, "%s/" COMPLETE, tmp);
        FILE *f = rc == 0 ? fopen(tmark, "we") : NULL;
        if (rc == 0) {
            bool bad = !f || fprintf(f, "%s %s\n", pkg, ver) < 0;
            int e = errno;
            if (f && fclose(f) != 0 && !bad)
                bad = true, e = errno;
            if (bad) {
                rc = -(e ? e : EIO);
                snprintf(err, errlen, "%s: %s", tmark, strerror(-rc));
            }
        }
        if (rc == 0) {
            sb_remove_tree(final); /* an incomplete one from a crashed run */
            if (rename(tmp, final) < 0) {
                rc = -errno;
                snprintf(err, errlen, "cannot rename %s to %s: %s", tmp, final, strerror(errno));
            }
        }
        sb_workdir_remove(tmp); /* after the rename: only unregisters */
        if (rc < 0)
            return rc;
    }
    if ((rc = find_version(root, k, err, errlen)) < 0)
        return rc;
    snprintf(k->source, sizeof k->source, "Debian %s %s", pkg, ver);
    return 0;
}

size_t sb_vm_kernel_modprobe_argv(const sb_vm_kernel *k, char **argv)
{
    size_t a = 0;
    argv[a++] = "modprobe";
    argv[a++] = "-d";
    argv[a++] = (char *)k->root;
    argv[a++] = "-S";
    argv[a++] = (char *)k->version;
    argv[a++] = "-a";
    argv[a++] = "--show-depends";
    return a;
}
