/*
 * sweep_jobfile — a fio job file as the base of every cell of a sweep (sweep.h). The
 * file is read by the io layer's own reader (io/options/jobfile.h), so that it is checked as
 * `storbench io` checks it; then the options as given ([global]'s, then the job's own)
 * become the parameters the command line left unset. A cell is a run of the fio test,
 * which has no place for the rest of fio's options: one of those is refused by name
 * rather than silently dropped, except the few that change nothing a cell does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strutil.h"
#include "io/options/jobfile.h"
#include "runner/sweep.h"

/* fio's spellings of the parameters, and what a cell does anyway */
static const struct {
    const char *key;
    int param;
} aliases[] = {
    {"readwrite", SB_SWEEP_RW}, {"blocksize", SB_SWEEP_BS}, {"timeout", SB_SWEEP_RUNTIME},
    {"ramp", SB_SWEEP_RAMP},
};
static const char *const harmless[] = {
    "time_based", "group_reporting", "description", "thread", "name", "stonewall", "new_group",
};

/* One given option into s (unless the command line set its parameter). */
static int take(sb_sweep *s, bool *from_cli, const char *path, const char *key, const char *value,
                char *err, size_t errlen)
{
    for (size_t i = 0; i < sizeof harmless / sizeof harmless[0]; i++)
        if (!strcmp(key, harmless[i]))
            return 0;
    int p = sb_sweep_param_find(key);
    for (size_t i = 0; p < 0 && i < sizeof aliases / sizeof aliases[0]; i++)
        if (!strcmp(key, aliases[i].key))
            p = aliases[i].param;
    const char *v = value;
    if (p < 0 && !strcmp(key, "buffered")) { /* fio's opposite of direct */
        p = SB_SWEEP_DIRECT;
        v = !strcmp(value, "0") || !strcmp(value, "false") ? "1" : "0";
    }
    if (p < 0) {
        snprintf(err, errlen, "%s: '%s' cannot be set in a sweep's cells (a cell is the fio test: rw, bs, "
                              "iodepth, numjobs, ioengine, rwmixread, direct, size, runtime, ramp_time, "
                              "startdelay)", path, key);
        return -EINVAL;
    }
    if (from_cli[p])
        return 0;
    char e[512];
    if (sb_sweep_set(s, p, *v ? v : "1", e, sizeof e) < 0) {
        snprintf(err, errlen, "%s: %s", path, e);
        return -EINVAL;
    }
    return 0;
}

static int take_all(sb_sweep *s, bool *from_cli, const char *path, const sb_jobfile_given *g, char *err,
                    size_t errlen)
{
    for (size_t off = 0; off < g->len;) {
        const char *key = g->buf + off, *value = key + strlen(key) + 1;
        int rc = take(s, from_cli, path, key, value, err, errlen);
        if (rc < 0)
            return rc;
        off = (size_t)(value + strlen(value) + 1 - g->buf);
    }
    return 0;
}

int sb_sweep_jobfile(sb_sweep *s, const char *path, char *err, size_t errlen)
{
    sb_io_job *defaults = sb_xrealloc(NULL, sizeof *defaults);
    sb_io_job_init(defaults);
    sb_jobset set;
    memset(&set, 0, sizeof set);
    int rc = sb_jobfile_read(path, defaults, NULL, 0, false, &set, err, errlen);
    free(defaults);
    if (rc == 0 && set.n != 1) {
        snprintf(err, errlen, "%s has %zu jobs: a sweep's base is one job", path, set.n);
        rc = -EINVAL;
    }
    bool from_cli[SB_SWEEP_N_PARAMS];
    for (int i = 0; i < SB_SWEEP_N_PARAMS; i++)
        from_cli[i] = s->axis[i].n > 0;
    if (rc == 0)
        rc = take_all(s, from_cli, path, &set.global, err, errlen);
    if (rc == 0)
        rc = take_all(s, from_cli, path, &set.jobs[0]->given, err, errlen);
    sb_jobset_free(&set);
    return rc;
}
