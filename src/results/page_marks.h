/*
 * page_marks — the fixed wording of a text result page that its writer (report/text.c,
 * report/cdm_table.c) prints and its reader (formats/text_import*.c) recognises. It sits
 * in the model layer, which both may include, so that the reader need not include the
 * renderers (formats/ does not include report/; docs/architecture.md).
 */
#ifndef SB_RESULTS_PAGE_MARKS_H
#define SB_RESULTS_PAGE_MARKS_H

/* The text page's mark after a noisy figure's SE line, and the legend line under a chart
 * with one: fixed text, so that import recognises both in either layout. */
#define SB_NOISY_MARK "!"
#define SB_NOISY_LEGEND "! noisy: standard deviation above 10 % of the mean"

/* A host-bound figure (entries[].host_bound, docs/devices.md): its row's label ends in this,
 * as "(not steady)" does, so that import still reads the page. */
#define SB_HOST_BOUND_LABEL " (host-bound)"
#define SB_HOST_BOUND_LEGEND "(host-bound): the same configuration on device-model = ram came within 20 % of it, " \
                             "or the device lab's vCPU was busy 5/6 of its measured time or more: " \
                             "the host, not the modeled device, bounds it"

/* The value of a row whose identifier has no figure in the chart (a merged page, a
 * configuration that did not run the test): "ssd ...... not run |", an empty bar. import
 * reads the row as no figure. */
#define SB_NOT_RUN_MARK "not run"

/* The heading of show's table; import reads a page only up to it (it holds no chart). */
#define SB_CDM_HEADING "CrystalDiskMark / KDiskMark table (MB/s), from the charts above:"

#endif
