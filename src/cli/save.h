/*
 * save — how every command that changes a result file (run, scenario run,
 * merge, import) saves it, and what it says: the wait for the file's lock
 * ("waiting for the lock on PATH (held by pid N)"), the interruption rule of
 * docs/architecture.md ("Interruption": a signal before the save saves
 * nothing and exits 130; one during the save lets it finish, then says
 * "interrupted after saving ..." and exits 130), and a note of what was
 * saved, so that main.c can say the figures are safe when it reports that
 * standard output could not be written.
 */
#ifndef SB_CLI_SAVE_H
#define SB_CLI_SAVE_H

#include <stdbool.h>
#include <stddef.h>

#include "results/resultfile.h"

/* sb_resultfile_update() with the wait announced as "storbench: CMD: waiting ...", and
 * path noted as saved when it succeeds. 0 or -errno with one line in err. */
int sb_cli_update_result(const char *cmd, const char *path, sb_resultfile_merge_fn fn, void *arg,
                         char *err, size_t errlen);

/* Re-reads path under its lock, gives it a title when it has none (title, else the result
 * NAME without directories and ".json"), merges fresh into it figure by figure
 * (sb_resultfile_merge_figures: a figure the identifier has now for the same test and options
 * is refused unless replace, which replaces it alone) and saves it atomically. 0 or -errno with one line in err. */
int sb_result_merge_save(const char *cmd, const char *path, const char *result_name,
                         const sb_resultfile *fresh, bool replace, const char *title,
                         const char *description, char *err, size_t errlen);

/* run without --result: saves fresh into a result file of its own, the first of BASE, BASE-2,
 * ... BASE-100 (in results_dir, NULL: the default) that is missing or empty when its lock is
 * held, with its path in path. 0 or -errno with one line in err. */
int sb_result_save_new(const char *cmd, const char *results_dir, const char *base,
                       const sb_resultfile *fresh, const char *title, const char *description,
                       char *path, size_t pathlen, char *err, size_t errlen);

/* Just before a save: when a signal has come, prints "CMD: interrupted (signal N);
 * nothing saved[ in WHAT]" and returns SB_EXIT_INTERRUPTED; else 0. */
int sb_cli_interrupted_before_save(const char *cmd, const char *what);
/* Just after a save: when a signal came, prints "CMD: interrupted (signal N) after saving
 * WHAT" and returns SB_EXIT_INTERRUPTED; else code. */
int sb_cli_after_save(const char *cmd, int code, const char *what);

/* The last result file this process saved ("" when none), for main.c. */
const char *sb_cli_saved(void);

#endif
