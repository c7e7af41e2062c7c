/*
 * registry — the table of tests and the suites (see registry.h). Adding a
 * test: docs/architecture.md, "Adding a test".
 */
#include "workloads/registry.h"
#include "workloads/catalogue.h"

#include <string.h>


static const sb_workload *const workloads[] = {
    &sb_wl_dd,
    &sb_wl_fio,
    &sb_wl_cdm,
    &sb_wl_iozone,
    &sb_wl_fsmark,
    &sb_wl_mdtest,
    &sb_wl_io500,
    &sb_wl_postmark,
    &sb_wl_compilebench,
    &sb_wl_dbench,
    &sb_wl_sqlite,
    &sb_wl_pgbench,
    &sb_wl_durability,
};

/* The seed pages' battery, with the seed profiles' parameters. */
static const sb_suite_item disk_items[] = {
    {"dd", NULL},
    /* fio and iozone: the defaults are the seed's (posixaio, direct, 4k; 4Kb records,
     * 8GB file), so that the quick suite keeps their --quick sizes. */
    {"fio", "type=randwrite"},
    {"fio", "type=write"},
    {"iozone", "test=read"},
    {"iozone", "test=write"},
    {"fs-mark", "test=1000-files"},
    {"fs-mark", "test=5000-files-4-threads"},
    {"fs-mark", "test=4000-files-32-dirs"},
    {"dbench", "clients=6"},
    {"compilebench", "test=initial-create"},
    {"postmark", NULL},
    {"sqlite", NULL},
    /* On-Disk is RAM_MB x 0.3: scale ~7000 (~110 GB, hours of loading) on a
     * 24 GiB machine, as the seed did; --quick runs it at scale 1. */
    {"pgbench", "scaling=on-disk,test=normal,mode=rw"},
    {NULL, NULL},
};

static const sb_suite_item dd_items[] = {
    {"dd", NULL},
    {NULL, NULL},
};

/* CrystalDiskMark / KDiskMark's four tests, each read and write (cdm.c). */
static const sb_suite_item cdm_items[] = {
    {"diskmark", "test=seq1m-q8t1,mode=read"},
    {"diskmark", "test=seq1m-q8t1,mode=write"},
    {"diskmark", "test=seq1m-q1t1,mode=read"},
    {"diskmark", "test=seq1m-q1t1,mode=write"},
    {"diskmark", "test=rnd4k-q32t1,mode=read"},
    {"diskmark", "test=rnd4k-q32t1,mode=write"},
    {"diskmark", "test=rnd4k-q1t1,mode=read"},
    {"diskmark", "test=rnd4k-q1t1,mode=write"},
    {NULL, NULL},
};

static const sb_suite suites[] = {
    {"disk", "every seed test with the seed's parameters (takes hours)", false, disk_items},
    {"quick", "the disk battery at its --quick scale (a few minutes)", true, disk_items},
    {"dd", "dd direct write, direct read and read cache", false, dd_items},
    {"cdm", "CrystalDiskMark/KDiskMark's SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1, read and "
            "write (5 loops of 5 s each: about 8 minutes a run)", false, cdm_items},
};

size_t sb_workload_count(void) { return sizeof workloads / sizeof workloads[0]; }
const sb_workload *sb_workload_at(size_t i) { return i < sb_workload_count() ? workloads[i] : NULL; }

const sb_workload *sb_workload_find(const char *name)
{
    for (size_t i = 0; i < sb_workload_count(); i++)
        if (!strcmp(workloads[i]->name, name))
            return workloads[i];
    return NULL;
}

size_t sb_suite_count(void) { return sizeof suites / sizeof suites[0]; }
const sb_suite *sb_suite_at(size_t i) { return i < sb_suite_count() ? &suites[i] : NULL; }

const sb_suite *sb_suite_find(const char *name)
{
    for (size_t i = 0; i < sb_suite_count(); i++)
        if (!strcmp(suites[i].name, name))
            return &suites[i];
    return NULL;
}
