/*
 * scenario_vm — the parts of `storbench scenario` that concern --vm (see
 * scenario_vm.c): the options and what `check --vm` shows; what can be built
 * where is scenario/plan.h's. The guest's internal `scenario vm-guest DIR` is
 * scenario.c's, since it runs `scenario run` there.
 */
#ifndef SB_CLI_SCENARIO_VM_H
#define SB_CLI_SCENARIO_VM_H

#include <stdbool.h>
#include <stddef.h>

#include "scenario/scenario.h"
#include "scenario/vm.h"

/* The --vm-* options of run (getopt values) and their help lines. */
enum { SB_OPT_VM = 0x2000, SB_OPT_VM_KERNEL, SB_OPT_VM_ACCEL, SB_OPT_VM_CPUS, SB_OPT_VM_MEMORY,
       SB_OPT_VM_KVM_TIMEOUT, SB_OPT_VM_BOOT_TIMEOUT, SB_OPT_VM_TIME, SB_OPT_VM_EXACT, SB_OPT_VM_DILATE };
/* The last of them: the scenario commands take SB_OPT_VM..SB_OPT_VM_LAST as VM options. */
#define SB_OPT_VM_LAST SB_OPT_VM_DILATE
#define SB_SCENARIO_VM_LONGOPTS                                                              \
    {"vm", no_argument, NULL, SB_OPT_VM}, {"vm-kernel", required_argument, NULL, SB_OPT_VM_KERNEL}, \
        {"vm-accel", required_argument, NULL, SB_OPT_VM_ACCEL},                              \
        {"vm-cpus", required_argument, NULL, SB_OPT_VM_CPUS},                                \
        {"vm-memory", required_argument, NULL, SB_OPT_VM_MEMORY},                            \
        {"vm-kvm-timeout", required_argument, NULL, SB_OPT_VM_KVM_TIMEOUT},                  \
        {"vm-boot-timeout", required_argument, NULL, SB_OPT_VM_BOOT_TIMEOUT},                \
        {"vm-time", required_argument, NULL, SB_OPT_VM_TIME},                                \
        {"vm-exact", no_argument, NULL, SB_OPT_VM_EXACT},                                   \
        {"vm-dilate", required_argument, NULL, SB_OPT_VM_DILATE}
extern const char sb_scenario_vm_help[];

/* Defaults of the VM options. */
void sb_scenario_vm_defaults(sb_vm_opts *o);
/* Takes one --vm-* option (c a SB_OPT_VM_* value, *vm set by --vm): 0, or the usage error
 * (exit 2) after the one line. */
int sb_scenario_vm_option(int c, const char *arg, bool *vm, sb_vm_opts *o);
/* After the options: --vm-time virtual with --vm-accel kvm, or with --vm-cpus above 1, is
 * refused (exit 2, after the one line), and --vm-time's default settled where it can be
 * (sb_vm_resolve_time). 0 or the exit code. */
int sb_scenario_vm_settle(sb_vm_opts *o);

/* `check --vm`: the emulated devices of each configuration, the kernel that will boot,
 * and what is missing for a guest. */
void sb_scenario_vm_plan(const sb_scn_config *c, bool lab);
void sb_scenario_vm_plan_footer(const sb_vm_opts *o);

#endif
