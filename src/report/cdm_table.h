/*
 * cdm_table — `run cdm` prints its figures as the compact table of
 * CrystalDiskMark and KDiskMark: the four tests down, Read and Write across.
 */
#ifndef SB_REPORT_CDM_TABLE_H
#define SB_REPORT_CDM_TABLE_H

#include <stdio.h>

#include "results/page_marks.h" /* SB_CDM_HEADING */
#include "results/result.h"

/* The table of identifier's cdm figures in rf: 1 when printed, 0 when it has none. */
int sb_report_cdm(FILE *out, const sb_resultfile *rf, const char *identifier);

/* Every identifier's cdm figures side by side (MB/s, Read then Write), after two blank
 * lines and SB_CDM_HEADING: 1 when printed, 0 when rf has no cdm figures, -1 out of memory. */
int sb_report_cdm_all(FILE *out, const sb_resultfile *rf);

#endif
