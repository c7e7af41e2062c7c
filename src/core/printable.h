/*
 * printable — control characters out of text meant for a terminal. An
 * identifier or title holding ESC or BEL (from `run -i`, an imported page, a
 * scenario file) would otherwise drive the terminal of whoever reads the
 * report. JSON and HTML escape them already; the text outputs (show, compare,
 * scenario check) replace them.
 */
#ifndef SB_PRINTABLE_H
#define SB_PRINTABLE_H

/* Replaces, in place, every C0 control character (newline and tab included: a field is
 * one line), DEL and every C1 control (U+0080..U+009F, two bytes in UTF-8) with '?'.
 * The text never grows; a clean text is unchanged. Returns s. */
char *sb_make_printable(char *s);

#endif
