/*
 * board — the motherboard (DMI) and chipset (PCI) fields of the system
 * description (board.c), for collect.c.
 */
#ifndef SB_SYSINFO_BOARD_H
#define SB_SYSINFO_BOARD_H

#include <stddef.h>

/* One hardware value each, into buf. */
void si_motherboard(const char *root, char *buf, size_t len);
void si_chipset(const char *root, char *buf, size_t len);

#endif
