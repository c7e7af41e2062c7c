/*
 * modeled — a configuration's devices as modeled disks (device-model = SPEC, see
 * docs/devices.md): each device is a loop device over a file of a FUSE file system
 * whose every read, write, flush and discard is answered when the modeled device
 * (devices/model.h) would have answered it, its data kept in the configuration's image
 * file.
 *
 * The FUSE files are served by a guardian process forked for the configuration, in a
 * session of its own, holding nothing of the run's but its socket: a Ctrl-C of the
 * run's group does not reach it, and when the run dies its I/O still completes (no
 * task waits for ever on a server that was one of its own threads). When the run is
 * gone without saying so (its socket reads end-of-file), the guardian replays the
 * dead run's journal (sb_state_cleanup: unmount, loop devices, its own FUSE mount,
 * images) while it still serves, then exits. If the guardian dies, the kernel aborts
 * its FUSE connection: the run's I/O fails, nothing waits. The FUSE mount is
 * journaled (SB_ST_FUSE) before it exists; undoing it aborts the connection through
 * fusectl when a plain unmount is refused.
 */
#ifndef SB_SCENARIO_MODELED_H
#define SB_SCENARIO_MODELED_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "results/result.h"
#include "scenario/scenario.h"
#include "scenario/state.h"

typedef struct sb_modeled {
    pid_t pid;              /* the guardian; 0 when none */
    int sock;               /* our end of its socket; -1 when none */
    char mnt[PATH_MAX];     /* the FUSE mount; its files are d0, d1 ... */
    unsigned n;
} sb_modeled;

/* Whether any device of c is modeled. */
int sb_modeled_wanted(const sb_scn_config *c);
/* Serves images[0..n) (existing files, journaled) as mnt/d0.. through the models
 * c->dev[i].model ("ram" where a device has none), the mount point made under
 * parent_dir; journals the directory and the mount in st. 0 or -errno, one line in
 * err (the caller undoes st and calls sb_modeled_end either way). */
int sb_modeled_start(sb_modeled *md, const sb_scn_config *c, char images[][PATH_MAX], unsigned n,
                     const char *parent_dir, sb_state *st, char *err, size_t errlen);
/* The file the loop device of device i goes over. */
void sb_modeled_file(const sb_modeled *md, unsigned i, char *path, size_t len);
/* After the journal's undo has unmounted the FUSE file system: the guardian exits. */
void sb_modeled_end(sb_modeled *md);

/* modeled_ref.c: host-bound figures. The ram twin of c (every device modeled as "ram",
 * the same configuration otherwise): 1 and *twin filled when some device of c has a model
 * other than ram, else 0. */
int sb_modeled_twin(const sb_scn_config *c, sb_scn_config *twin);
/* Whether a modeled figure is host-bound: its ram twin does no better than 20 % beyond it. */
bool sb_modeled_host_bound(double modeled, double ram, sb_direction dir);
/* Marks each figure of fresh whose twin in ref (the same test, option line, unit and
 * identifier) says it is host-bound, and records the twin's figure; the count marked. */
size_t sb_modeled_mark(sb_resultfile *fresh, const sb_resultfile *ref);
/* host-bound-check = busy, the device lab's rule without a twin: a figure whose test kept
 * the guest's vCPU busy this share of its measured window or more (percent: 100 / 1.2, the
 * twin rule's bound; modeled_ref.c says why) is host-bound. */
bool sb_modeled_busy_bound(double busy_pct);
double sb_modeled_busy_threshold(void);
/* Marks each figure of fresh whose entry has a busy share (entries[].vcpu_busy_pct) at or
 * above the threshold (host_ref NAN: no twin's figure); the count marked. */
size_t sb_modeled_mark_busy(sb_resultfile *fresh);

/* modeled_fuse.c: serves, in this process, until unmounted or sb_modeled_serve_stop. */
typedef struct sb_modeled_server sb_modeled_server;
int sb_modeled_serve(const char *mnt, char images[][PATH_MAX], const char *const *specs, unsigned n,
                     sb_modeled_server **out, char *err, size_t errlen);
void sb_modeled_serve_stop(sb_modeled_server *s);

#endif
