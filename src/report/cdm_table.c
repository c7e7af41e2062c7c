/*
 * cdm_table — the `cdm` figures of one identifier as the table
 * CrystalDiskMark and KDiskMark users know: the four tests down, Read and
 * Write across, MB/s first, then IOPS and the p99 completion latency in
 * brackets.
 */
#include "report/cdm_table.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *key, *label;
} rows[] = {
    {"seq1m-q8t1", "SEQ1M Q8T1"},
    {"seq1m-q1t1", "SEQ1M Q1T1"},
    {"rnd4k-q32t1", "RND4K Q32T1"},
    {"rnd4k-q1t1", "RND4K Q1T1"},
};
static const char *const modes[2] = {"read", "write"};

/* The entry of identifier for test/mode among the cdm results of rf, or NULL. */
static const sb_entry *find(const sb_resultfile *rf, const char *identifier, const char *test,
                            const char *mode)
{
    for (size_t i = 0; i < rf->n_results; i++) {
        const sb_result *r = &rf->results[i];
        const char *t = sb_kvlist_get(&r->options, "test"), *m = sb_kvlist_get(&r->options, "mode");
        if (strcmp(r->test, "diskmark") || !t || !m || strcmp(t, test) || strcmp(m, mode))
            continue;
        const sb_entry *e = sb_result_find_entry(r, identifier);
        if (e)
            return e;
    }
    return NULL;
}

static double secondary(const sb_entry *e, const char *name)
{
    for (size_t i = 0; i < e->n_secondary; i++)
        if (!strcmp(e->secondary[i].name, name))
            return e->secondary[i].value;
    return -1;
}

/* "1234.56 [301234, 95.2 us]" in a cell of width w. */
static void cell(FILE *out, const sb_entry *e, int w)
{
    char buf[96];
    if (!e) {
        fprintf(out, "%-*s", w, "-");
        return;
    }
    double iops = secondary(e, "iops"), p99 = secondary(e, "lat_p99");
    char lat[32] = "?";
    if (p99 >= 10000)
        snprintf(lat, sizeof lat, "%.1f ms", p99 / 1000);
    else if (p99 >= 0)
        snprintf(lat, sizeof lat, "%.0f us", p99);
    snprintf(buf, sizeof buf, "%9.2f [%.0f IOPS, p99 %s]", e->mean, iops < 0 ? 0 : iops, lat);
    fprintf(out, "%-*s", w, buf);
}

int sb_report_cdm(FILE *out, const sb_resultfile *rf, const char *identifier)
{
    bool any = false;
    for (size_t k = 0; k < 4 && !any; k++)
        for (int m = 0; m < 2; m++)
            any = any || find(rf, identifier, rows[k].key, modes[m]);
    if (!any)
        return 0;
    const int w = 36;
    fprintf(out, "\n%s: MB/s [IOPS, p99 latency]\n", identifier);
    fprintf(out, "%-12s %-*s %s\n", "", w, "Read", "Write");
    for (size_t k = 0; k < 4; k++) {
        fprintf(out, "%-12s ", rows[k].label);
        cell(out, find(rf, identifier, rows[k].key, "read"), w);
        putc(' ', out);
        cell(out, find(rf, identifier, rows[k].key, "write"), 0);
        putc('\n', out);
    }
    return 1;
}
