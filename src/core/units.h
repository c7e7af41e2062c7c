/*
 * units — parsing and formatting of sizes, durations and rates.
 *
 * Parsing follows dd and fio: "4k", "1M", "2g", "4KiB", "4KB" are all IEC
 * (powers of 1024); a bare number is bytes. Printing says which system it
 * uses: sb_format_si() is powers of 1000 (MB = 10^6 bytes), sb_format_iec()
 * powers of 1024 (MiB). The dd line formatter reproduces GNU dd's summary.
 */
#ifndef SB_UNITS_H
#define SB_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* Returns 0, -EINVAL (not a size) or -ERANGE (overflows 64 bits). */
int sb_parse_size(const char *s, uint64_t *out);
/* The same parser with fio's kb_base rules (1024 or 1000; 0 is sb_parse_size's): under
 * kb_base=1024 "4k" and "4kb" are 4096 and "4kib" 4000, under 1000 the reverse. */
int sb_parse_size_kb(const char *s, unsigned kb_base, uint64_t *out);
/* "20" (seconds), "5s", "500ms", "250us", "2m", "1h". Returns 0 or -EINVAL (also for more
 * than SB_MAX_DURATION_S). */
#define SB_MAX_DURATION_S 1e9
int sb_parse_duration(const char *s, double *seconds);
/* Decimal unsigned integer in [min, max]. Returns 0, -EINVAL or -ERANGE. */
int sb_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out);
/* "yes/no/true/false/1/0/on/off". Returns 0 or -EINVAL. */
int sb_parse_bool(const char *s, int *out);
/* fio's value of an option that is on when named (thread, time_based, group_reporting,
 * stonewall, ...): a whole number, 0x... in hex, read as far as its digits go; any but 0
 * turns it on (fio reads thread=2 as thread). 0 and *out set, or -EINVAL. */
int sb_parse_set_value(const char *s, int *out);

/* GNU dd style, three significant figures: "1.1 GB", "304 MB", "3.8 GB". */
void sb_format_si(char *buf, size_t len, double value, const char *suffix);
/* Same with powers of 1024: "1.0 GiB". */
void sb_format_iec(char *buf, size_t len, double value, const char *suffix);
/* Compact size for option lines: 4096 -> "4KB", 2097152 -> "2MB", 8GB ... (IEC values, seed spelling). */
void sb_format_size_short(char *buf, size_t len, uint64_t bytes);
/* A figure as the result page shows it: "%.2f", or "%.0f" when decimals == 0. */
void sb_format_value(char *buf, size_t len, double value, int decimals);
/* "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 3.53208 s, 304 MB/s" */
void sb_format_dd_line(char *buf, size_t len, uint64_t bytes, double seconds);

#endif
