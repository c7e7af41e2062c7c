/*
 * test_startline — the client threads' start line (core/startline.h): nobody passes
 * before the test thread releases, everyone passes after, and every thread sees the
 * start and end the release set.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/startline.h"

enum { N = 4 };

typedef struct client {
    sb_startline *sl;
    atomic_int *passed;
    uint64_t saw_start, saw_end;
} client;

static void *client_thread(void *arg)
{
    client *c = arg;
    sb_startline_wait(c->sl);
    c->saw_start = c->sl->start_ns;
    c->saw_end = c->sl->end_ns;
    atomic_fetch_add(c->passed, 1);
    return NULL;
}

static void test_all_released_together(void **state)
{
    sb_startline sl;
    atomic_int passed = 0;
    client c[N];
    pthread_t th[N];
    sb_startline_init(&sl);
    for (int i = 0; i < N; i++) {
        c[i] = (client){&sl, &passed, 0, 0};
        assert_int_equal(pthread_create(&th[i], NULL, client_thread, &c[i]), 0);
    }
    /* Until the release nobody is past the line, however long they wait. */
    struct timespec ts = {0, 20000000};
    nanosleep(&ts, NULL);
    assert_int_equal(atomic_load(&passed), 0);
    uint64_t start = sb_startline_release(&sl, N, 5000);
    for (int i = 0; i < N; i++)
        pthread_join(th[i], NULL);
    assert_int_equal(atomic_load(&passed), N);
    assert_int_equal(sl.ready, N);
    for (int i = 0; i < N; i++) {
        assert_true(c[i].saw_start == start);
        assert_true(c[i].saw_end == start + 5000);
    }
    sb_startline_destroy(&sl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_released_together),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
