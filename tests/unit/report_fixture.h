/*
 * report_fixture — a small result file built through the result API for the
 * report/ unit tests: three identifiers (one with characters HTML must
 * escape), a Higher Is Better test with latency percentiles, a Lower Is
 * Better test one identifier lacks, and an imported-style test (means only).
 */
#ifndef SB_TEST_REPORT_FIXTURE_H
#define SB_TEST_REPORT_FIXTURE_H

#include "results/result.h"

static inline void fixture_entry(sb_result *r, const char *id, const double *v, size_t n)
{
    sb_entry *e = sb_result_add_entry(r, id);
    sb_entry_set_values(e, v, n);
}

static inline void fixture_build(sb_resultfile *rf)
{
    sb_resultfile_init(rf);
    sb_resultfile_set_title(rf, "Fixture <&> \"title\"", "Three systems, three tests.");
    const char *ids[] = {"A", "B <x>", "C"};
    for (int i = 0; i < 3; i++) {
        sb_system *s = sb_resultfile_add_system(rf, ids[i]);
        sb_kvlist_add(&s->hardware, "Processor", "Same CPU");
        sb_kvlist_add(&s->hardware, "Disk", i == 0 ? "Disk one" : "Disk <two>");
        sb_kvlist_add(&s->software, "Kernel", "6.1");
    }

    sb_result *r = sb_resultfile_get_result(rf, "fio", "Flexible IO Tester", "2.1.13",
                                            "Type: Random Write - Block Size: 4KB", "MB/s",
                                            SB_HIGHER_IS_BETTER);
    fixture_entry(r, "A", (double[]){100, 102, 98}, 3);
    fixture_entry(r, "B <x>", (double[]){150, 151, 149}, 3);
    fixture_entry(r, "C", (double[]){101, 99, 100.5}, 3);
    r->entries[2].untrusted = true; /* a run shorter than 3 s */
    const char *pct[] = {"lat_p50", "lat_p99", "lat_p99.9"};
    for (size_t j = 0; j < r->n_entries; j++) {
        sb_entry_add_secondary(&r->entries[j], "iops", "IOPS", 25600.0 * (double)(j + 1));
        sb_entry_add_secondary(&r->entries[j], "lat_mean", "us", 40.0);
        for (int k = 0; k < 3; k++)
            sb_entry_add_secondary(&r->entries[j], pct[k], "us", 30.0 * (k + 1) * (double)(j + 1));
    }

    r = sb_resultfile_get_result(rf, "sqlite", "SQLite", "3.8.10.2", "Test Target: Default Test Directory",
                                 "Seconds", SB_LOWER_IS_BETTER);
    fixture_entry(r, "A", (double[]){10, 10.2, 9.8}, 3);
    fixture_entry(r, "B <x>", (double[]){5, 5.2, 4.8}, 3);

    r = sb_resultfile_get_result(rf, "", "FS-Mark", "3.3", "Test: 1000 Files, 1MB Size", "Files/s",
                                 SB_HIGHER_IS_BETTER);
    const double imported[] = {50, 25, 50};
    for (int i = 0; i < 3; i++) {
        sb_entry *e = sb_result_add_entry(r, ids[i]);
        e->mean = imported[i];
        e->decimals = 2;
        sb_entry_set_source(e, NULL, true); /* read from a page: no runs */
    }
}

#endif
