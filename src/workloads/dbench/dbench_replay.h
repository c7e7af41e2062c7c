/*
 * dbench_replay — a client's own reading of the loadfile, as dbench 4.0's
 * client does it: each client reads the loadfile line by line while it
 * replays it (rewinding at the end), and re-parses every line before the
 * operation — tokens, path separators, its own client directory. storbench
 * parses the loadfile once up front (to refuse a bad one before anything
 * runs); its default client ("client=dbench") still does this per-line
 * reading, and checks that each line gives the operation it is about to run,
 * so that where the CPU is the limit (tmpfs) a storbench client costs what a
 * dbench client costs per operation and the figures agree. "client=light"
 * skips it (docs/workloads.md, "## dbench", client model).
 *
 * Cost: one getline (a read(2) per stdio buffer) and one sb_dbench_parse_line per
 * operation, about a microsecond; memory: one line and a one-op script.
 */
#ifndef SB_DBENCH_REPLAY_H
#define SB_DBENCH_REPLAY_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "workloads/dbench/dbench_loadfile.h"

typedef struct sb_dbench_replay {
    const char *path;
    FILE *f;
    char *line;
    size_t cap;
    uint32_t lineno;
    sb_dbench_script scratch; /* holds the one operation of the line just read */
} sb_dbench_replay;

/* Opens PATH for one client. 0, or -errno with one line in err. */
int sb_dbench_replay_open(sb_dbench_replay *r, const char *path, char *err, size_t errlen);

/* Reads the loadfile's next operation line (rewinding at its end, as dbench
 * does), parses it, and checks that it is WANT of script SC (the file did not
 * change under the run). 0, or a negative errno with one line in err. */
int sb_dbench_replay_next(sb_dbench_replay *r, const sb_dbench_script *sc,
                          const sb_dbench_op *want, char *err, size_t errlen);

void sb_dbench_replay_close(sb_dbench_replay *r);
#endif
