/*
 * uncertainty — how sure a figure is, as every report shows it (issue 26): the standard
 * error and number of runs ("SE +/- 0.24, N = 3", the wording of PTS's result graphs),
 * and the mark on a noisy figure, one whose sample standard deviation is above 10 % of
 * its mean. Text, CSV and HTML all decide through these functions, so a figure is
 * marked alike everywhere.
 */
#ifndef SB_REPORT_UNCERTAINTY_H
#define SB_REPORT_UNCERTAINTY_H

#include <stdbool.h>
#include <stddef.h>

#include "results/page_marks.h" /* SB_NOISY_MARK, SB_NOISY_LEGEND */
#include "results/result.h"

/* Above this relative SD a figure is noisy, and a result with such a figure too noisy to
 * rank in the overview (report/overview.h). */
#define SB_NOISY_RSD 0.10
/* The same bound in percent. */
#define SB_NOISY_RSD_PCT (SB_NOISY_RSD * 100.0)

/* Whether the figure has an SE line: it is the mean of two runs or more. */
bool sb_entry_has_se(const sb_entry *e);
/* 100 * sd / mean; negative when unknown (fewer than two runs, or a mean of 0). */
double sb_entry_rsd_pct(const sb_entry *e);
/* Relative SD above SB_NOISY_RSD_PCT. */
bool sb_entry_noisy(const sb_entry *e);
/* "SE +/- 0.24, N = 3" (SE with two decimals, as PTS prints it for two-decimal figures). */
void sb_format_se(char *buf, size_t len, const sb_entry *e);

#endif
