/*
 * cdm_table — the `cdm` figures of one identifier as the table
 * CrystalDiskMark and KDiskMark users know: the four tests down, Read and
 * Write across, MB/s first, then IOPS and the p99 completion latency in
 * brackets. `show` prints every identifier's figures side by side (MB/s only, so that
 * several fit a terminal), under a fixed heading that `import` stops at.
 */
#include "report/cdm_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/text.h"

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

/* Width of s in characters (UTF-8 continuation bytes do not count). */
static int width_of(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static void pad(FILE *out, const char *s, int w)
{
    fputs(s, out);
    for (int n = width_of(s); n < w; n++)
        putc(' ', out);
}

int sb_report_cdm_all(FILE *out, const sb_resultfile *rf)
{
    size_t n = 0;
    const char **ids = calloc(rf->n_systems ? rf->n_systems : 1, sizeof *ids);
    if (!ids)
        return -1;
    int w = 9; /* "12345.67" and a space */
    for (size_t i = 0; i < rf->n_systems; i++) {
        const char *id = rf->systems[i].identifier;
        bool any = false;
        for (size_t k = 0; k < 4 && !any; k++)
            for (int m = 0; m < 2; m++)
                any = any || find(rf, id, rows[k].key, modes[m]);
        if (!any)
            continue;
        ids[n++] = id;
        if (width_of(id) + 2 > w)
            w = width_of(id) + 2;
    }
    if (n) {
        fprintf(out, "\n\n%s\n", SB_CDM_HEADING);
        pad(out, "", 12);
        for (int m = 0; m < 2; m++) {
            fputs(" ", out);
            pad(out, m ? "Write" : "Read", (int)n * w);
        }
        putc('\n', out);
        pad(out, "", 12);
        for (int m = 0; m < 2; m++) {
            fputs(" ", out);
            for (size_t i = 0; i < n; i++)
                pad(out, ids[i], w);
        }
        putc('\n', out);
        for (size_t k = 0; k < 4; k++) {
            pad(out, rows[k].label, 12);
            for (int m = 0; m < 2; m++) {
                fputs(" ", out);
                for (size_t i = 0; i < n; i++) {
                    const sb_entry *e = find(rf, ids[i], rows[k].key, modes[m]);
                    char v[64] = "-";
                    if (e)
                        sb_report_format_value(v, sizeof v, e->mean, 2);
                    pad(out, v, w);
                }
            }
            putc('\n', out);
        }
    }
    free(ids);
    return n > 0;
}
