/*
 * io_enghelp — fio's --enghelp: with no engine, the engines this build has ("Available IO
 * engines:" and one per line, as fio); with one, the engine options it reads (its ops
 * table's .options), each with the help of its entry in the option table, or "IO engine
 * NAME has no options"; with ENGINE,OPTION that option described as --cmdhelp does. The
 * lists come from the engines themselves, so they are what storbench takes, and
 * bench/fio-engine-options.sh can set them beside fio's.
 */
#include "cli/io_output.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "io/engine.h"
#include "io/options/options.h"

int sb_io_enghelp(FILE *out, const char *what)
{
    if (!what[0] || !strcmp(what, "all")) {
        fputs("Available IO engines:\n", out);
        for (size_t i = 0; i < sb_engine_count(); i++)
            fprintf(out, "\t%s\n", sb_engine_at(i)->name);
        return 0;
    }
    char name[64];
    snprintf(name, sizeof name, "%s", what);
    char *opt = strchr(name, ',');
    if (opt)
        *opt++ = '\0';
    const sb_engine_ops *e = sb_engine_find(name);
    if (!e)
        return -ENOENT;
    if (opt) {
        const sb_opt *const tables[] = {sb_io_options};
        const size_t ns[] = {sb_io_n_options};
        for (const char *const *o = e->options; o && *o; o++)
            if (!strcmp(*o, opt))
                return sb_opt_print_cmdhelp(out, tables, ns, 1, opt) < 0 ? -EINVAL : 0;
        return -EINVAL;
    }
    if (!e->options || !e->options[0]) {
        fprintf(out, "IO engine %s has no options\n", e->name);
        return 0;
    }
    for (const char *const *o = e->options; *o; o++) {
        const sb_opt *d = sb_opt_find(sb_io_options, sb_io_n_options, *o);
        fprintf(out, "%-24s: %s\n", *o, d && d->help ? d->help : "");
    }
    return 0;
}
