/*
 * set — one option of the job table set by name, for the fio and diskmark tests, whose
 * keys may differ from fio's names (workloads/job_keys.c). Apart from parse.c so that the
 * parser does not depend on the table (the table's rows depend on the parsers).
 */
#include <errno.h>
#include <stdio.h>

#include "io/options/options.h"

int sb_io_opt_set(void *job, const char *name, const char *key, const char *value,
                  const sb_opt_ctx *ctx, char *err, size_t errlen)
{
    const sb_opt *o = sb_opt_find(sb_io_options, sb_io_n_options, name);
    if (!o) {
        snprintf(err, errlen, "%s: not an I/O job option", name);
        return -ENOENT;
    }
    return sb_opt_parse(o, job, key, value, ctx, err, errlen);
}
