/*
 * cpu — the processor and memory fields of the system description (cpu.c),
 * for collect.c.
 */
#ifndef SB_SYSINFO_CPU_H
#define SB_SYSINFO_CPU_H

#include <stddef.h>

/* One hardware value each, into buf. */
void si_processor(const char *root, char *buf, size_t len);
void si_memory(const char *root, char *buf, size_t len);

#endif
