/*
 * cdm_table — `run cdm` prints its figures as the compact table of
 * CrystalDiskMark and KDiskMark: the four tests down, Read and Write across.
 */
#ifndef SB_REPORT_CDM_TABLE_H
#define SB_REPORT_CDM_TABLE_H

#include <stdio.h>

#include "results/result.h"

/* The table of identifier's cdm figures in rf: 1 when printed, 0 when it has none. */
int sb_report_cdm(FILE *out, const sb_resultfile *rf, const char *identifier);

#endif
