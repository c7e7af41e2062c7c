/*
 * profile — see profile.h. The jobs are made as fio's profile makes them: its option
 * lines applied in order through the job-file reader's one entry (sb_jobfile_apply),
 * those before the first name= to every job (fio's global part), so each line shows in
 * the report's "global options" and "job options" as fio's JSON lists it.
 */
#include "io/options/profile.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/options/options.h"

/* Whether the command line gave key (any spelling of its option). */
static bool given(const sb_jobfile_given *g, const char *key)
{
    const sb_opt *o = sb_opt_find(sb_io_options, sb_io_n_options, key);
    for (size_t i = 0; g && o && i < g->len;) {
        const char *k = g->buf + i, *v = k + strlen(k) + 1;
        if (sb_opt_find(sb_io_options, sb_io_n_options, k) == o)
            return true;
        i = (size_t)(v + strlen(v) + 1 - g->buf);
    }
    return false;
}

/* One line of the profile into j (unless the command line gave it); global: also into the
 * report's global options. */
static int line(sb_jobfile_job *j, sb_jobset *set, const sb_jobfile_given *cmdline, const char *key,
                const char *value, bool global, char *err, size_t errlen)
{
    if (given(cmdline, key))
        return 0;
    char why[512];
    if (sb_jobfile_apply(j, key, value, 1024, why, sizeof why) < 0) {
        snprintf(err, errlen, "profile tiobench: %s", why);
        return -EINVAL;
    }
    const sb_opt *o = sb_opt_find(sb_io_options, sb_io_n_options, key);
    if (global) /* under the option's own name, as fio's JSON (timeout is runtime) */
        sb_jobfile_given_add(&set->global, o ? o->name : key, value);
    return 0;
}

static int tiobench(const sb_io_profile *p, const sb_io_job *dflt, const sb_jobfile_given *cmdline,
                    sb_jobset *set, char *err, size_t errlen)
{
    char size[64], bs[24], loops[24], dir[PATH_MAX + 2], nj[24];
    if (sb_jobfile_expand("4*1024*$mb_memory", size, sizeof size) < 0)
        snprintf(size, sizeof size, "%llu", 4ull << 30);
    snprintf(bs, sizeof bs, "%u", p->block ? p->block : 4096);
    snprintf(loops, sizeof loops, "%u", p->numruns ? p->numruns : 1);
    snprintf(dir, sizeof dir, "%s", p->dir[0] ? p->dir : "./");
    snprintf(nj, sizeof nj, "%u", p->threads ? p->threads : 1);
    const char *const globals[][2] = {
        {"buffered", "0"}, {"size", size}, {"bs", bs}, {"loops", loops}, {"directory", dir},
        {"numjobs", nj}, {"timeout", "600"}, {"group_reporting", NULL}, {"thread", NULL},
        {"overwrite", "1"}, {"filename", ".fio.tio.1:.fio.tio.2:.fio.tio.3:.fio.tio.4"},
        {"ioengine", "sync"}};
    static const struct { const char *name, *rw; bool wall, fsync; } jobs[] = {
        {"seqwrite", "write", false, true}, {"randwrite", "randwrite", true, true},
        {"seqread", "read", true, false}, {"randread", "randread", true, false}};
    sb_jobfile_job *g = calloc(1, sizeof *g); /* large: a job's paths */
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    g->job = *dflt;
    int r = 0;
    for (size_t i = 0; !r && i < sizeof globals / sizeof globals[0]; i++)
        r = line(g, set, cmdline, globals[i][0], globals[i][1], true, err, errlen);
    for (size_t i = 0; !r && i < sizeof jobs / sizeof jobs[0]; i++) {
        sb_jobfile_job *j = sb_jobset_add(set, &g->job, jobs[i].name, "profile tiobench");
        if (!j) {
            snprintf(err, errlen, "out of memory");
            r = -ENOMEM;
            break;
        }
        sb_jobfile_given_add(&j->given, "name", jobs[i].name);
        if (jobs[i].wall)
            r = line(j, set, NULL, "stonewall", NULL, false, err, errlen);
        if (!r && !(r = line(j, set, NULL, "rw", jobs[i].rw, false, err, errlen)) && jobs[i].fsync)
            r = line(j, set, NULL, "end_fsync", "1", false, err, errlen);
    }
    free(g);
    return r;
}

int sb_io_profile_add(const sb_io_profile *p, const sb_io_job *dflt, const sb_jobfile_given *cmdline,
                      sb_jobset *set, char *err, size_t errlen)
{
    if (!strcmp(p->name, "tiobench"))
        return tiobench(p, dflt, cmdline, set, err, errlen);
    if (!strcmp(p->name, "act")) {
        snprintf(err, errlen, "--profile=act: fio's ACT profile grades each device's latencies "
                 "per second through hooks fio calls on every I/O (its certification report), "
                 "which storbench's loop does not have; not run, rather than run without its verdict");
        return -EINVAL;
    }
    snprintf(err, errlen, "--profile: '%s' is not one of fio's profiles (tiobench, act)", p->name);
    return -EINVAL;
}
