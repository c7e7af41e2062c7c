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

/* The heading of show's table; import reads a page only up to it (it holds no chart). */
#define SB_CDM_HEADING "CrystalDiskMark / KDiskMark table (MB/s), from the charts above:"

#endif
