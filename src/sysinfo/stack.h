/*
 * stack — what we learn about the target's storage stack (stack.c): its
 * filesystem, mount, device, model, scheduler, for collect.c.
 */
#ifndef SB_SYSINFO_STACK_H
#define SB_SYSINFO_STACK_H

#include <limits.h>

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
