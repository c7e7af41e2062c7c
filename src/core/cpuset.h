/*
 * cpuset — CPU lists in the syntax of fio's cpus_allowed and taskset -c
 * ("0-3,6,8-15"), checked against the CPUs this process may run on, and the
 * CPU time a process has used (getrusage) in nanoseconds, for reporting a
 * tool's own cost, and the calling thread's run-queue wait (schedstat).
 */
#ifndef SB_CPUSET_H
#define SB_CPUSET_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

/* Parses list into out. Every CPU must be one this process may use (sched_getaffinity).
 * 0, or -EINVAL with one line in err ("CPU 7 is not available: this process may use 0-1"). */
int sb_cpuset_parse(const char *list, cpu_set_t *out, char *err, size_t errlen);
/* The same syntax, with CPUs this process may not use taken into the set: *missing is the
 * first of them, or -1 (fio's cpus_allowed parses so, and fails the job when it starts). */
int sb_cpuset_parse_lax(const char *list, cpu_set_t *out, int *missing, char *err, size_t errlen);
/* "0-3,6": the set as a list (empty string for an empty set). */
void sb_cpuset_format(const cpu_set_t *set, char *buf, size_t len);
/* The n-th CPU of the set, counting round robin (n modulo the set's size); -1 when empty. */
int sb_cpuset_nth(const cpu_set_t *set, unsigned n);

/* User and system CPU time of the whole process (every thread, and the kernel's
 * workers that belong to it, such as io_uring's), ns. */
typedef struct sb_cpu_times {
    uint64_t user_ns, sys_ns;
} sb_cpu_times;
void sb_cpu_times_now(sb_cpu_times *t);

/* The calling thread's scheduler counters (/proc/thread-self/schedstat): ns on a
 * CPU and ns runnable but waiting for one (the run queue). 0, or -errno when the
 * kernel keeps none (no CONFIG_SCHED_INFO): then both are 0. */
int sb_thread_sched_now(uint64_t *on_cpu_ns, uint64_t *runq_ns);

#endif
