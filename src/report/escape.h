/*
 * escape — the two text writers every renderer shares: HTML escaping and one CSV field
 * (escape.c).
 */
#ifndef SB_REPORT_ESCAPE_H
#define SB_REPORT_ESCAPE_H

#include <stdio.h>

/* Writes s with & < > " ' escaped: safe in element text and in quoted attributes. */
void sb_html_escape(FILE *out, const char *s);

/* Writes s as one CSV field: quoted (with "" for ") only when it holds a comma, quote, CR,
 * LF or leading/trailing blank. A text starting with '=', '+', '-', '@', TAB or CR, which a
 * spreadsheet would run as a formula, gets a leading "'" (the usual guard, OWASP's), so
 * that an identifier or title from an imported page stays text. Numbers are not fields. */
void sb_csv_field(FILE *out, const char *s);

#endif
