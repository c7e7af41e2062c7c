/*
 * preflight — see preflight.h. The free-space rule lives here so that the
 * runner (before each selection) and the preflight (before any) apply the same
 * one; a workload without an available() hook needs nothing the build did not
 * already link in.
 */
#include "runner/preflight.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#include "core/units.h"
#include "core/workdir.h"

int sb_preflight_space(const sb_config *cfg, const char *target, char *why, size_t whylen)
{
    if (!target || !cfg->workload->space_needed)
        return 0;
    uint64_t need = cfg->workload->space_needed(sb_config_params(cfg)), avail;
    if (!need || sb_free_space(target, &avail) < 0)
        return 0;
    /* Keep a margin for metadata and for what the filesystem reserves. The line prints
     * the need with its margin: the test's bytes alone can be less than what is free,
     * and "needs 61.4 MB, 67.1 MB free" reads as a refusal without a reason. */
    uint64_t margin = need / 20 + (16u << 20);
    if (need + margin > avail) {
        char n[32], m[32], a[32];
        sb_format_si(n, sizeof n, (double)(need + margin), "B");
        sb_format_si(m, sizeof m, (double)margin, "B");
        sb_format_si(a, sizeof a, (double)avail, "B");
        snprintf(why, whylen, "%s: %s: No space left on device (needs %s including %s of margin, %s free)",
                 cfg->workload->name, target, n, m, a);
        return -ENOSPC;
    }
    return 0;
}

int sb_preflight(const sb_config *cfg, const char *target, char *why, size_t whylen)
{
    why[0] = '\0';
    if (cfg->workload->available) {
        int rc = cfg->workload->available(sb_config_params(cfg), target, why, whylen);
        if (rc < 0) {
            if (!why[0])
                snprintf(why, whylen, "%s: cannot run here", cfg->workload->name);
            return rc;
        }
    }
    return sb_preflight_space(cfg, target, why, whylen);
}
