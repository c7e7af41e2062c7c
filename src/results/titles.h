/*
 * titles — the result titles a page may carry ("Flexible IO Tester",
 * "Dbench" ...) and the storbench test each one is ("fio", "dbench"). The
 * text-format reader uses them to split a flattened header and to tie an
 * imported result to its test without depending on the workload registry;
 * tests/unit/test_titles.c keeps this table and the registry in agreement.
 */
#ifndef SB_RESULTS_TITLES_H
#define SB_RESULTS_TITLES_H

#include <stddef.h>

/* Number of known titles; sb_known_title_at(i) for i below it. */
size_t sb_known_title_count(void);
const char *sb_known_title_at(size_t i);
/* The test name for a result title ("Flexible IO Tester" -> "fio"); "" when unknown. */
const char *sb_known_title_test(const char *title);

#endif
