/*
 * read — the sysinfo topic files' readers, everything below root ("" = this
 * machine; a test's fake root otherwise): a small file, a sysfs attribute, a
 * directory's entries (read.c); and the value a field shows when it cannot be
 * read. Only src/sysinfo/ includes it.
 */
#ifndef SB_SYSINFO_READ_H
#define SB_SYSINFO_READ_H

#include <stddef.h>

#define SI_UNKNOWN "Unknown"

/* A whole (small) file; NULL when unreadable. Caller frees. */
char *si_slurp(const char *root, const char *path);
/* One trimmed line of a sysfs attribute; NULL when unreadable or empty. Caller frees. */
char *si_slurp_attr(const char *root, const char *path);
/* Sorted (natural order) entry names of a directory, no dot entries; count in *n. */
char **si_list_dir(const char *root, const char *path, size_t *n);
void si_free_names(char **names, size_t n);

#endif
