/*
 * workloads — the tests storbench has: one `const sb_workload` per file in
 * src/workloads/, listed in registry.c. Adding one is the recipe in
 * docs/architecture.md ("Adding a test").
 */
#ifndef SB_WORKLOADS_H
#define SB_WORKLOADS_H

#include "workloads/workload.h"

extern const sb_workload sb_wl_dd;          /* dd.c */
extern const sb_workload sb_wl_fio;         /* fio.c */
extern const sb_workload sb_wl_cdm;         /* diskmark.c (test "diskmark", suite "cdm") */
extern const sb_workload sb_wl_iozone;      /* iozone.c */
extern const sb_workload sb_wl_fsmark;      /* fsmark.c */
extern const sb_workload sb_wl_mdtest;      /* mdtest.c, mdtest_tree.c */
extern const sb_workload sb_wl_postmark;    /* postmark.c */
extern const sb_workload sb_wl_compilebench; /* compilebench.c */
extern const sb_workload sb_wl_dbench;      /* dbench.c */
extern const sb_workload sb_wl_sqlite;      /* sqlite.c */
extern const sb_workload sb_wl_pgbench;     /* pgbench.c */
extern const sb_workload sb_wl_durability;  /* durability.c */

#endif
