/*
 * catalogue — the list of workload definitions, every test storbench has: one
 * `const sb_workload` per test (a file in src/workloads/, or the main file of a family's
 * folder, src/workloads/dbench/), put in order in registry.c. The interface they
 * implement is workload.h. Adding one is the recipe in
 * docs/architecture.md ("Adding a test").
 */
#ifndef SB_WORKLOADS_CATALOGUE_H
#define SB_WORKLOADS_CATALOGUE_H

#include "workloads/workload.h"

extern const sb_workload sb_wl_dd;          /* dd.c */
extern const sb_workload sb_wl_fio;         /* fio.c */
extern const sb_workload sb_wl_cdm;         /* cdm.c (test "diskmark", suite "cdm") */
extern const sb_workload sb_wl_iozone;      /* iozone.c */
extern const sb_workload sb_wl_fsmark;      /* fsmark.c */
extern const sb_workload sb_wl_mdtest;      /* mdtest.c, mdtest_tree.c */
extern const sb_workload sb_wl_io500;       /* io500.c (ior.c, mdtest_tree.c) */
extern const sb_workload sb_wl_postmark;    /* postmark.c */
extern const sb_workload sb_wl_compilebench; /* compilebench/compilebench.c */
extern const sb_workload sb_wl_dbench;      /* dbench/dbench.c */
extern const sb_workload sb_wl_sqlite;      /* sqlite.c */
extern const sb_workload sb_wl_pgbench;     /* pgbench.c */
extern const sb_workload sb_wl_durability;  /* durability.c */

#endif
