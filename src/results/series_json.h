/*
 * series_json — an entry's time series and steady-state outcome in the result
 * file (docs/result-format.md, "series" and "steady_state"): columns of
 * numbers rather than an object per point, so a thousand points stay small.
 * Used by resultfile.c only; files without the keys load as before.
 */
#ifndef SB_SERIES_JSON_H
#define SB_SERIES_JSON_H

#include <jansson.h>
#include <stddef.h>

#include "results/result.h"

/* Adds "series" and "steady_state" to the entry object o when e has them. */
void sb_series_json_put(json_t *o, const sb_entry *e);
/* Reads them from je into e: 0, or -EINVAL with "<field>: <why>" in why. */
int sb_series_json_get(json_t *je, sb_entry *e, char *field, size_t flen, const char **why);

#endif
