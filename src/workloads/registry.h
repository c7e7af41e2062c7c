/*
 * registry — the table of tests and the named suites. A suite is a list of
 * (test, option assignments); running it runs each item. `disk` is every seed
 * test with the seed's parameters; `quick` is the same battery at its --quick
 * scale; `dd` is the dd test alone.
 */
#ifndef SB_REGISTRY_H
#define SB_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>

#include "workloads/workload.h"

typedef struct sb_suite_item {
    const char *workload;  /* registry name */
    const char *options;   /* "key=value,key=value" or NULL */
} sb_suite_item;

typedef struct sb_suite {
    const char *name;
    const char *summary;
    bool quick;                  /* items run at their --quick scale */
    const sb_suite_item *items;  /* ends with {NULL, NULL} */
} sb_suite;

size_t sb_workload_count(void);
const sb_workload *sb_workload_at(size_t i);
const sb_workload *sb_workload_find(const char *name);

size_t sb_suite_count(void);
const sb_suite *sb_suite_at(size_t i);
const sb_suite *sb_suite_find(const char *name);

#endif
