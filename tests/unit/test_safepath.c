/* core/safepath: the walk (links, "..", missing directories, loops, a trailing slash),
 * the protected-symlink rule itself, and (as root) a refused link. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#define SCRATCH_TEMPLATE "/var/tmp/sb-safepath-XXXXXX"
#include "scratch_dir.h"

#include "core/atomicfile.h"
#include "core/safepath.h"

static char p[PATH_MAX + 64], q[PATH_MAX + 64];

static const char *at_dir(const char *sub)
{
    snprintf(q, sizeof q, "%s%s", dir, sub);
    return q;
}

static void test_walk(void **state)
{
    (void)state;
    sb_path_at at;
    char err[PATH_MAX + 256];
    snprintf(p, sizeof p, "%s/a/b", dir);
    assert_int_equal(mkdir(at_dir("/a"), 0755), 0);
    assert_int_equal(mkdir(p, 0755), 0);
    assert_int_equal(symlink("a/b", at_dir("/l")), 0);
    assert_int_equal(symlink("../a/b/new", at_dir("/a/dangling")), 0);
    assert_int_equal(symlink("loop2", at_dir("/loop1")), 0);
    assert_int_equal(symlink("loop1", at_dir("/loop2")), 0);

    snprintf(p, sizeof p, "%s/l/x", dir); /* a link on the way */
    assert_int_equal(sb_path_resolve(p, 0, &at, err, sizeof err), 0);
    assert_string_equal(at.dir, at_dir("/a/b"));
    assert_string_equal(at.base, "x");
    sb_path_at_close(&at);

    snprintf(p, sizeof p, "%s/a/b/../b/./x", dir); /* ".." and "." */
    assert_int_equal(sb_path_resolve(p, 0, &at, err, sizeof err), 0);
    assert_string_equal(at.dir, at_dir("/a/b"));
    sb_path_at_close(&at);

    snprintf(p, sizeof p, "%s/a/dangling", dir); /* a dangling link: where it points */
    char out[PATH_MAX];
    assert_int_equal(sb_resolve_symlinks(p, out, sizeof out), 0);
    assert_string_equal(out, at_dir("/a/b/new"));

    snprintf(p, sizeof p, "%s/loop1", dir);
    assert_int_equal(sb_path_resolve(p, 0, &at, err, sizeof err), -ELOOP);
    assert_false(at.refused);

    snprintf(p, sizeof p, "%s/a/", dir); /* names a directory */
    assert_int_equal(sb_path_resolve(p, 0, &at, err, sizeof err), -EISDIR);

    snprintf(p, sizeof p, "%s/n/m/f", dir); /* missing directories */
    assert_int_equal(sb_path_resolve(p, 0, &at, err, sizeof err), -ENOENT);
    assert_int_equal(sb_path_resolve(p, SB_PATH_MKDIRS, &at, err, sizeof err), 0);
    assert_string_equal(at.base, "f");
    sb_path_at_close(&at);
    struct stat st;
    assert_int_equal(stat(at_dir("/n/m"), &st), 0);
    assert_true(S_ISDIR(st.st_mode));

    int fd = -1;
    snprintf(p, sizeof p, "%s/l/file", dir);
    assert_int_equal(sb_open_resolved(p, O_WRONLY | O_CREAT | O_EXCL, 0600, &fd, err, sizeof err), 0);
    close(fd);
    assert_int_equal(access(at_dir("/a/b/file"), F_OK), 0);
    assert_int_equal(entries(at_dir("/a/b")), 1); /* nothing else made on the way */
}

static void test_rule(void **state)
{
    (void)state;
    struct stat d = {0};
    d.st_mode = S_IFDIR | S_ISVTX | 0777;
    d.st_uid = 4242;
    uid_t me = geteuid(), other = me == 4343 ? 4444 : 4343;
    assert_true(sb_symlink_followable(&d, me));      /* the caller's */
    assert_true(sb_symlink_followable(&d, 4242));    /* the directory owner's */
    assert_false(sb_symlink_followable(&d, other));  /* anyone else's */
    d.st_mode = S_IFDIR | 0777;                      /* not sticky */
    assert_true(sb_symlink_followable(&d, other));
    d.st_mode = S_IFDIR | S_ISVTX | 0775;            /* not world-writable */
    assert_true(sb_symlink_followable(&d, other));
}

static void test_refused(void **state)
{
    (void)state;
    if (geteuid() != 0) {
        skip(); /* another user's link needs root to make */
        return;
    }
    assert_int_equal(mkdir(at_dir("/sticky"), 0755), 0);
    assert_int_equal(chmod(at_dir("/sticky"), 01777), 0);
    int fd = open(at_dir("/victim"), O_WRONLY | O_CREAT, 0600);
    assert_true(fd >= 0);
    close(fd);
    snprintf(p, sizeof p, "%s/victim", dir);
    assert_int_equal(symlink(p, at_dir("/sticky/theirs")), 0);
    assert_int_equal(lchown(at_dir("/sticky/theirs"), 4343, 4343), 0);
    sb_path_at at;
    char err[PATH_MAX + 256];
    snprintf(p, sizeof p, "%s/sticky/theirs", dir);
    assert_int_equal(sb_path_resolve(p, 0, &at, err, sizeof err), -EACCES);
    assert_true(at.refused);
    assert_non_null(strstr(err, "not following the symlink"));
    assert_null(strchr(err, '\n'));
    snprintf(p, sizeof p, "%s/sticky/theirs/../x", dir); /* as a directory on the way too */
    assert_int_equal(sb_path_resolve(p, 0, &at, err, sizeof err), -EACCES);
    assert_int_equal(lchown(at_dir("/sticky/theirs"), 0, 0), 0); /* now the caller's */
    snprintf(p, sizeof p, "%s/sticky/theirs", dir);
    assert_int_equal(sb_path_resolve(p, 0, &at, err, sizeof err), 0);
    assert_string_equal(at.base, "victim");
    sb_path_at_close(&at);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk),
        cmocka_unit_test(test_rule),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
