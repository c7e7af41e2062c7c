/*
 * test_lock — core/lock: where the lock file of a path is (beside the name,
 * a symlink not followed), that holding it excludes a second taker (in this process
 * and in another), that the wait is bounded and names the holder, that a
 * waiter takes over the lock when the holder lets go (and removes its file),
 * that a symlink or a FIFO at the lock file's name is refused without
 * blocking, a stale lock file (SIGKILL) is taken over and removed, and
 * someone else's file there is used but not removed.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#define SCRATCH_TEMPLATE "/tmp/sblock.XXXXXX"
#include "scratch_dir.h"

#include "core/lock.h"

static char path[512], lockfile[600];

static int setup_paths(void **state)
{
    if (setup(state))
        return -1;
    snprintf(path, sizeof path, "%s/r.json", dir);
    snprintf(lockfile, sizeof lockfile, "%s/.r.json.lock", dir);
    return 0;
}

static void test_lock_path(void **state)
{
    (void)state;
    char out[700], want[700];
    assert_int_equal(sb_lock_path(path, out, sizeof out), 0);
    assert_string_equal(out, lockfile);
    /* a symlink: the lock is beside the link, never made where the link points */
    char sub[600], link[600];
    snprintf(sub, sizeof sub, "%s/store", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    snprintf(link, sizeof link, "%s/link.json", dir);
    assert_int_equal(symlink("store/real.json", link), 0);
    assert_int_equal(sb_lock_path(link, out, sizeof out), 0);
    snprintf(want, sizeof want, "%s/.link.json.lock", dir);
    assert_string_equal(out, want);
}

static void test_take_release(void **state)
{
    (void)state;
    char err[512] = "";
    sb_lock l;
    assert_int_equal(sb_lock_take(&l, path, NULL, err, sizeof err), 0);
    assert_true(access(lockfile, F_OK) == 0);
    assert_int_equal(sb_lock_holder(l.fd), getpid());
    sb_lock_release(&l);
    assert_int_equal(l.fd, -1);
    assert_int_equal(entries(dir), 0); /* the lock file goes with the lock */
    sb_lock_release(&l);               /* not held: nothing happens */
    /* the directory of a result file not yet made is made */
    char deep[600];
    snprintf(deep, sizeof deep, "%s/a/b/r.json", dir);
    assert_int_equal(sb_lock_take(&l, deep, NULL, err, sizeof err), 0);
    sb_lock_release(&l);
    snprintf(deep, sizeof deep, "%s/a/b", dir);
    assert_int_equal(entries(deep), 0);
}

static long seen_holder = -1;
static void on_wait(void *arg, const char *lp, long holder)
{
    (void)arg;
    assert_string_equal(lp, lockfile);
    seen_holder = holder;
}

static void test_bounded_wait_names_the_holder(void **state)
{
    (void)state;
    char err[512] = "", pid[32];
    sb_lock a, b;
    assert_int_equal(sb_lock_take(&a, path, NULL, err, sizeof err), 0);
    /* flock locks belong to the open file: a second open in this process is a rival */
    sb_lock_wait w = {.timeout_ms = 1300, .waiting = on_wait};
    assert_int_equal(sb_lock_take(&b, path, &w, err, sizeof err), -ETIMEDOUT);
    assert_int_equal(b.fd, -1);
    assert_int_equal(seen_holder, getpid()); /* announced after a second, with the holder */
    snprintf(pid, sizeof pid, "pid %ld", (long)getpid());
    assert_non_null(strstr(err, pid));
    assert_non_null(strstr(err, "r.json"));
    sb_lock_release(&a);
    assert_int_equal(sb_lock_take(&b, path, &w, err, sizeof err), 0);
    sb_lock_release(&b);
}

/* A child waits for the lock this process holds; when it is let go (and its file removed)
 * the child must hold the lock on the file that is named now, not on the removed one. */
static void test_waiter_takes_over(void **state)
{
    (void)state;
    char err[512] = "";
    sb_lock a;
    assert_int_equal(sb_lock_take(&a, path, NULL, err, sizeof err), 0);
    int ready[2];
    assert_int_equal(pipe(ready), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        close(ready[0]);
        close(a.fd); /* the inherited descriptor shares the parent's lock */
        sb_lock b;
        sb_lock_wait w = {.timeout_ms = 20000};
        (void)!write(ready[1], "x", 1);
        if (sb_lock_take(&b, path, &w, err, sizeof err) < 0)
            _exit(2);
        struct stat f, n;
        if (fstat(b.fd, &f) < 0 || lstat(lockfile, &n) < 0 || f.st_ino != n.st_ino)
            _exit(3);
        sb_lock_release(&b);
        _exit(0);
    }
    close(ready[1]);
    char c;
    assert_int_equal(read(ready[0], &c, 1), 1);
    close(ready[0]);
    usleep(100 * 1000); /* the child is waiting (or about to): either way it must get it */
    sb_lock_release(&a);
    int st;
    assert_int_equal(waitpid(child, &st, 0), child);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    assert_int_equal(entries(dir), 0);
}

static void test_refuses_symlink_and_fifo(void **state)
{
    (void)state;
    char err[512] = "", victim[600];
    sb_lock l;
    snprintf(victim, sizeof victim, "%s/victim", dir);
    assert_int_equal(symlink(victim, lockfile), 0);
    assert_int_equal(sb_lock_take(&l, path, NULL, err, sizeof err), -ELOOP);
    assert_non_null(strstr(err, "symbolic link"));
    assert_true(access(victim, F_OK) < 0); /* nothing made where the link points */
    assert_int_equal(unlink(lockfile), 0);
    assert_int_equal(mkfifo(lockfile, 0600), 0);
    assert_int_equal(sb_lock_take(&l, path, NULL, err, sizeof err), -EINVAL); /* and no hang */
    assert_non_null(strstr(err, "not a regular file"));
    assert_int_equal(unlink(lockfile), 0);
}

static void test_stale_and_foreign_lock_files(void **state)
{
    (void)state;
    char err[512] = "";
    sb_lock l;
    int fd = open(lockfile, O_CREAT | O_EXCL | O_WRONLY, 0644); /* as SIGKILL leaves it */
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(sb_lock_take(&l, path, NULL, err, sizeof err), 0);
    sb_lock_release(&l);
    assert_true(access(lockfile, F_OK) < 0);
    if (geteuid() != 0) {
        print_message("foreign lock file: skipped (needs root to chown)\n");
        return;
    }
    fd = open(lockfile, O_CREAT | O_EXCL | O_WRONLY, 0644);
    assert_true(fd >= 0);
    assert_int_equal(fchown(fd, 65534, 65534), 0);
    close(fd);
    assert_int_equal(sb_lock_take(&l, path, NULL, err, sizeof err), 0);
    sb_lock_release(&l);
    assert_true(access(lockfile, F_OK) == 0); /* someone else's file: theirs to remove */
}

static void test_timeout_setting(void **state)
{
    (void)state;
    unsetenv("STORBENCH_LOCK_TIMEOUT");
    assert_int_equal(sb_lock_timeout_ms(), SB_LOCK_DEFAULT_TIMEOUT_S * 1000);
    setenv("STORBENCH_LOCK_TIMEOUT", "2.5", 1);
    assert_int_equal(sb_lock_timeout_ms(), 2500);
    setenv("STORBENCH_LOCK_TIMEOUT", "soon", 1);
    assert_int_equal(sb_lock_timeout_ms(), SB_LOCK_DEFAULT_TIMEOUT_S * 1000);
    setenv("STORBENCH_LOCK_TIMEOUT", "0", 1);
    assert_int_equal(sb_lock_timeout_ms(), SB_LOCK_DEFAULT_TIMEOUT_S * 1000);
    unsetenv("STORBENCH_LOCK_TIMEOUT");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_lock_path, setup_paths, teardown),
        cmocka_unit_test_setup_teardown(test_take_release, setup_paths, teardown),
        cmocka_unit_test_setup_teardown(test_bounded_wait_names_the_holder, setup_paths, teardown),
        cmocka_unit_test_setup_teardown(test_waiter_takes_over, setup_paths, teardown),
        cmocka_unit_test_setup_teardown(test_refuses_symlink_and_fifo, setup_paths, teardown),
        cmocka_unit_test_setup_teardown(test_stale_and_foreign_lock_files, setup_paths, teardown),
        cmocka_unit_test(test_timeout_setting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
