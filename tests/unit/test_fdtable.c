/* Unit tests for sb_private_fd_table (core/fdtable.h): a thread's own table holds
 * stdin/out/err and the kept descriptor only, the process's table is untouched, what the
 * thread opens afterwards stays out of the process's table, and once the thread is
 * joined no copy keeps a pipe's write end open (the reader sees EOF at once). */
#include <dirent.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/fdtable.h"

/* Descriptors in a table (/proc/.../fd), and whether `fd` is among them. */
static int count_fds(const char *dir, int fd, bool *has)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int dfd = dirfd(d), n = 0;
    struct dirent *e;
    *has = false;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.' && atoi(e->d_name) != dfd) {
            n++;
            *has |= atoi(e->d_name) == fd;
        }
    closedir(d);
    return n;
}

typedef struct probe {
    int keep, other;      /* a descriptor to keep, one that must be gone */
    bool ok, has_keep, has_other;
    int n;                /* descriptors in the thread's table */
    int opened;           /* a descriptor the thread opened after */
} probe;

static void *in_thread(void *arg)
{
    probe *p = arg;
    p->ok = sb_private_fd_table(p->keep);
    bool has_other = false;
    p->n = count_fds("/proc/thread-self/fd", p->keep, &p->has_keep);
    count_fds("/proc/thread-self/fd", p->other, &has_other);
    p->has_other = has_other;
    p->opened = dup(1);
    return NULL;
}

static void test_own_table(void **state)
{
    (void)state;
    int a[2], b[2];
    assert_int_equal(pipe(a), 0);
    assert_int_equal(pipe(b), 0);
    bool unused;
    int before = count_fds("/proc/self/fd", -1, &unused);

    probe p = {.keep = a[1], .other = b[1]};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, in_thread, &p), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    if (!p.ok) {
        print_message("unshare(CLONE_FILES) refused here: nothing to check\n");
        skip();
    }
    assert_true(p.has_keep);
    assert_false(p.has_other);
    assert_true(p.n <= 4); /* 0, 1, 2 (as open here) and the kept one */
    bool has = false;
    assert_true(p.opened >= 0);
    /* The thread's dup went into its own table (its number may be taken in this one). */
    assert_int_equal(count_fds("/proc/self/fd", -1, &has), before);
    count_fds("/proc/self/fd", b[1], &has);
    assert_true(has); /* the process's table still has what the copy closed */

    /* No table but the process's holds b's write end: closing it gives EOF. */
    close(b[1]);
    char c;
    assert_int_equal(read(b[0], &c, 1), 0);
    close(b[0]);
    close(a[0]);
    close(a[1]);
}

/* keep = -1: nothing but 0-2. */
static void test_keep_none(void **state)
{
    (void)state;
    int a[2];
    assert_int_equal(pipe(a), 0);
    probe p = {.keep = -1, .other = a[0]};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, in_thread, &p), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    if (!p.ok)
        skip();
    assert_false(p.has_other);
    assert_true(p.n <= 3);
    close(a[0]);
    close(a[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_own_table),
        cmocka_unit_test(test_keep_none),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
