/*
 * internal — what the sysinfo topic files share and nothing else sees: the
 * root-prefixed readers (read.c), one value per hardware key (cpu.c,
 * board.c), the disk model (block.c) and the target's storage stack
 * (stack.c), all assembled by collect.c.
 */
#ifndef SB_SYSINFO_INTERNAL_H
#define SB_SYSINFO_INTERNAL_H

#include <limits.h>
#include <stddef.h>

#define SI_UNKNOWN "Unknown"

/* ---- read.c: everything below root ("" = this machine) ---- */
/* A whole (small) file; NULL when unreadable. Caller frees. */
char *si_slurp(const char *root, const char *path);
/* One trimmed line of a sysfs attribute; NULL when unreadable or empty. Caller frees. */
char *si_slurp_attr(const char *root, const char *path);
/* Sorted (natural order) entry names of a directory, no dot entries; count in *n. */
char **si_list_dir(const char *root, const char *path, size_t *n);
void si_free_names(char **names, size_t n);

/* ---- one hardware value each, into buf ---- */
void si_processor(const char *root, char *buf, size_t len);   /* cpu.c */
void si_memory(const char *root, char *buf, size_t len);      /* cpu.c */
void si_motherboard(const char *root, char *buf, size_t len); /* board.c */
void si_chipset(const char *root, char *buf, size_t len);     /* board.c */
/* The model of a whole disk's root-relative sysfs directory, NULL when none (block.c). */
char *si_disk_model(const char *root, const char *diskdir);

/* ---- stack.c: what we learn about the target's storage stack ---- */
struct si_target {
    char fstype[64];
    char mount_point[PATH_MAX];
    char source[PATH_MAX];
    char options[1024];
    char device[256];
    char model[256];
    char scheduler[64];
    char rotational[16];
};
/* Fills t for the absolute, resolved path; depth is 0 (an overlay's upper directory is
 * described at depth 1). Leaves fields empty when unknown. */
void si_describe_target(const char *root, const char *path, struct si_target *t, int depth);

#endif
