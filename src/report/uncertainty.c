/*
 * uncertainty — the SE line and the noisy mark (uncertainty.h). The SD of a figure read
 * from a page is what its SE line gives back (SE * sqrt(N), set by the importer), so an
 * imported page is marked as the page it came from was, short of a relative SD within
 * rounding of the 10 % bound.
 */
#include "report/uncertainty.h"

#include <math.h>
#include <stdio.h>

bool sb_entry_has_se(const sb_entry *e)
{
    return sb_entry_runs(e) >= 2 && isfinite(e->se) && e->se >= 0;
}

double sb_entry_rsd_pct(const sb_entry *e)
{
    if (!sb_entry_has_se(e) || !isfinite(e->sd) || !isfinite(e->mean) || e->mean == 0)
        return -1;
    return 100.0 * e->sd / fabs(e->mean);
}

bool sb_entry_noisy(const sb_entry *e)
{
    return sb_entry_rsd_pct(e) > SB_NOISY_RSD_PCT;
}

void sb_format_se(char *buf, size_t len, const sb_entry *e)
{
    snprintf(buf, len, "SE +/- %.2f, N = %zu", e->se, sb_entry_runs(e));
}
