/*
 * progress — the one-line progress display on a TTY:
 *   "fio [Random Write]  run 2 of 3  00:41 elapsed  ETA 00:37"
 * redrawn at most 4 times a second on stderr, erased when the run ends.
 * Silent when stderr is not a terminal. Workloads report the fraction of the
 * run that is done; the ETA comes from that, or from earlier runs' lengths.
 */
#ifndef SB_PROGRESS_H
#define SB_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct sb_progress {
    bool enabled;
    char label[128];
    unsigned run, runs;
    uint64_t start_ns, last_draw_ns;
    double previous_run_s;  /* length of the previous run, for the ETA; 0 = unknown */
    double fraction;
} sb_progress;

void sb_progress_init(sb_progress *p);
void sb_progress_begin(sb_progress *p, const char *label, unsigned run, unsigned runs);
/* fraction in [0, 1], or negative when unknown. Cheap to call often. */
void sb_progress_update(sb_progress *p, double fraction);
void sb_progress_end(sb_progress *p);

#endif
