/*
 * inputs — the result files a reading command takes (inputs.h): `compare` and `plot`
 * join several into one page in memory, never on disk. A test only some inputs have
 * stays, with the others' rows "not run"; an identifier an earlier input has already
 * is renamed "ID (NAME)", said on stderr, so that two runs of one machine saved in two
 * files can be put side by side.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/common.h"
#include "cli/inputs.h"
#include "core/log.h"
#include "core/strutil.h"

/* Reads NAME|FILE into rf (cli/common.h: a file here before a saved result). 0 or the
 * exit code after the message. */
static int load_one(const char *cmd, const char *name, const char *results_dir, sb_resultfile *rf)
{
    char path[4096], err[512];
    int rc = sb_cli_input_path(cmd, name, results_dir, path, sizeof path);
    if (rc)
        return rc;
    rc = sb_resultfile_load(path, rf, err, sizeof err);
    if (rc == 0)
        return 0;
    if (rc == -ENOENT && !strchr(name, '/'))
        sb_error("%s: no result named '%s' (%s does not exist)", cmd, name, path);
    else
        sb_error("%s: %s", cmd, err);
    return SB_EXIT_RUNTIME;
}

int sb_cli_load_inputs(const char *cmd, char **names, int n, const char *results_dir,
                       sb_resultfile *rf)
{
    int rc = load_one(cmd, names[0], results_dir, rf);
    for (int i = 1; rc == 0 && i < n; i++) {
        sb_resultfile src;
        sb_resultfile_init(&src);
        rc = load_one(cmd, names[i], results_dir, &src);
        for (size_t s = 0; rc == 0 && s < src.n_systems; s++) {
            const char *id = src.systems[s].identifier;
            if (!sb_resultfile_find_system(rf, id))
                continue;
            char to[1024];
            snprintf(to, sizeof to, "%s (%s)", id, names[i]);
            for (unsigned k = 2; sb_resultfile_find_system(rf, to) || sb_resultfile_find_system(&src, to); k++)
                snprintf(to, sizeof to, "%s (%s #%u)", id, names[i], k);
            sb_warn("%s: identifier '%s' of %s is shown as '%s' (an earlier input has it too)",
                    cmd, id, names[i], to);
            char *from = sb_xstrdup(id);
            sb_resultfile_rename_identifier(&src, from, to);
            free(from);
        }
        char err[512];
        if (rc == 0 && sb_resultfile_merge(rf, &src, false, err, sizeof err) < 0) {
            sb_error("%s: %s: %s", cmd, names[i], err);
            rc = SB_EXIT_RUNTIME;
        }
        sb_resultfile_free(&src);
    }
    return rc;
}
