/*
 * io_showcmd — fio's --showcmd: the jobs of job files (and --name jobs) as one fio
 * command line, as fio prints it: "fio", the files' [global] options, then each job's
 * --name and its own options, each option followed by a space. The options are those
 * given (sb_jobfile_given), in their order, not the values they resolved to, so the
 * line runs the same jobs in fio.
 */
#include "cli/io_output.h"

#include <stdio.h>
#include <string.h>

#include "core/strutil.h"

/* Each key=value of g (a bare switch as --key), skipping the job's name. */
static void given_opts(FILE *out, const sb_jobfile_given *g)
{
    for (size_t i = 0; i < g->len;) {
        const char *k = g->buf + i;
        i += strlen(k) + 1;
        const char *v = g->buf + i;
        i += strlen(v) + 1;
        if (!strcmp(k, "name"))
            continue;
        fprintf(out, v[0] ? "--%s=%s " : "--%s ", k, v);
    }
}

int sb_io_showcmd(FILE *out, const sb_jobset *set)
{
    fputs("fio ", out);
    given_opts(out, &set->global);
    for (size_t i = 0; i < set->n; i++) {
        fprintf(out, "--name=%s ", set->jobs[i]->job.name);
        given_opts(out, &set->jobs[i]->given);
    }
    fputc('\n', out);
    return 0;
}
