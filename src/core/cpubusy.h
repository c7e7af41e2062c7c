/*
 * cpubusy — how busy this machine's CPUs were over a window: the share of the window's
 * time they were not idle, from the kernel's idle and iowait times (/proc/stat).
 *
 * The device lab (docs/scenarios.md, "Virtual time") uses it to say, without running a
 * configuration a second time on ram models, which figures its own emulated CPU bounds:
 * under QEMU's instruction counting an idle vCPU's virtual time passes without any
 * instruction executed, so the share of a test's measured window the guest's one vCPU
 * was busy is the share the emulated CPU's work took; a window spent all busy has no
 * time left in which the modeled disks could have been waited for. The idle time is
 * the kernel's own (tick-less idle accounting, in USER_HZ units: 10 ms), the window is
 * CLOCK_MONOTONIC's, so the share is exact to 10 ms a window.
 *
 * Off unless sb_cpubusy_enable() was called (the lab's guest does): natively the host's
 * CPUs are shared with everything else running, and their busy share says nothing of
 * one test.
 */
#ifndef SB_CPUBUSY_H
#define SB_CPUBUSY_H

#include <stdbool.h>
#include <stdint.h>

/* One reading: when (CLOCK_MONOTONIC), the CPUs' idle time so far (idle + iowait, summed
 * over the CPUs) and how many CPUs /proc/stat lists. ok is false when it could not be read. */
typedef struct sb_cpubusy {
    uint64_t at_ns;
    uint64_t idle_ns;
    unsigned ncpu;
    bool ok;
} sb_cpubusy;

/* A measured window's busy share, for a loop that polls (the I/O engine's control thread):
 * read at the first poll at or after from_ns, and at the first at or after to_ns (or at
 * the end, if that comes first). */
typedef struct sb_cpubusy_window {
    uint64_t from_ns, to_ns;
    sb_cpubusy a, b;
} sb_cpubusy_window;

void sb_cpubusy_enable(bool on);
bool sb_cpubusy_enabled(void);

/* Parses /proc/stat's text (its "cpu" line and the "cpuN" lines that follow it): the idle
 * and iowait ticks of the "cpu" line and the number of cpuN lines. 0, or -EINVAL when the
 * "cpu" line is not there or not numbers. */
int sb_cpubusy_parse(const char *text, uint64_t *idle_ticks, unsigned *ncpu);
/* Reads /proc/stat now (nothing, ok false, when disabled or unreadable). */
void sb_cpubusy_now(sb_cpubusy *s);
/* The busy virtual (or wall) nanoseconds between a and b, and the window's nanoseconds
 * times the CPUs: 0 and 0 when either reading failed or b is not after a. */
void sb_cpubusy_between(const sb_cpubusy *a, const sb_cpubusy *b, uint64_t *busy_ns, uint64_t *window_ns);

/* The window from start_ns + from_s for length_s seconds (length_s <= 0: until the end). */
sb_cpubusy_window sb_cpubusy_window_at(uint64_t start_ns, double from_s, double length_s);
/* At a poll: reads when a boundary has passed. The nanoseconds until the next boundary
 * (for the caller's sleep; INT64_MAX when none is left or the window is disabled). */
int64_t sb_cpubusy_window_poll(sb_cpubusy_window *w, uint64_t now_ns);
/* The poll, and the caller's nap shortened to end at the next boundary: a loop that naps
 * nap_ns between polls reads each edge when it passes, not up to a nap late. */
long sb_cpubusy_window_nap(sb_cpubusy_window *w, uint64_t now_ns, long nap_ns);
/* At the end of the loop: the window's busy and total nanoseconds (0, 0 when not read). */
void sb_cpubusy_window_end(sb_cpubusy_window *w, uint64_t *busy_ns, uint64_t *window_ns);

#endif
