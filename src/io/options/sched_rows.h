/*
 * options_fiob_rows — the entries of the I/O option table for fio's submission mode, random
 * generator, NUMA placement, SPRandom and steady-state check interval (issue 27). They are
 * rows of the one table, sb_io_options (options.c), which expands SB_IO_OPTIONS_FIOB at
 * its end; kept here, with their parsers in options_fiob.c, so that options.c stays under
 * the size limit and each group of fio options can be changed on its own.
 */
#ifndef SB_IO_OPTIONS_FIOB_ROWS_H
#define SB_IO_OPTIONS_FIOB_ROWS_H

/* Nothing included: options.c includes this inside its own declarations, and options_fiob.c
 * (which includes options.h) defines what is declared here, so no include circle. */
#include <stddef.h>

struct sb_opt;
struct sb_opt_ctx;
struct sb_opt_choice;
#define SB_FIOB_PARSER(name)                                                                  \
    int name(const struct sb_opt *o, void *base, const char *v, const struct sb_opt_ctx *ctx, \
             char *err, size_t errlen)
SB_FIOB_PARSER(sb_opt_parse_numa_cpus);
SB_FIOB_PARSER(sb_opt_parse_numa_mem);
SB_FIOB_PARSER(sb_opt_parse_spr_op);
SB_FIOB_PARSER(sb_opt_parse_prioclass);
SB_FIOB_PARSER(sb_opt_parse_cmdprio);
/* cmdprio's values (fio's HOWTO): "V" or "R,W" into two ints in lo .. hi; cmdprio_bssplit's
 * "BS/PCT[/CLASS/LEVEL[/HINT]]:...[,...]" per direction into c. 0 or -EINVAL with err. */
struct sb_cmdprio;
int sb_cmdprio_parse_pair(const char *v, int lo, int hi, int out[2], char *err, size_t errlen);
int sb_cmdprio_parse_bssplit(const char *v, unsigned kb_base, struct sb_cmdprio *c, char *err,
                             size_t errlen);
#ifdef SB_IO_OPTIONS_TABLE /* options.c, where the rows are expanded and sb_opt is known */
static const sb_opt_choice sb_opt_submit_mode_choices[] = {{"inline", 0}, {"offload", 1}, {NULL, 0}};
static const sb_opt_choice sb_opt_rng_choices[] = {
    {"tausworthe", 0}, {"lfsr", 1}, {"tausworthe64", 2}, {NULL, 0}, /* SB_RNG_* (job.h) */
};
static const char *const sb_opt_a_ss_interval[] = {"ss_interval", NULL};
#endif

/* The rows (J is options.c's field macro). */
#define SB_IO_OPTIONS_FIOB                                                                        \
    {"io_submit_mode", NULL, SB_OPT_CHOICE, J(submit_offload), 0, 0, "inline", "MODE",            \
     "inline: the job's thread submits and reaps (ahead of rate_iops/rate it waits for what is "  \
     "in flight, as fio's); offload: it paces and hands each I/O to one of iodepth submit "       \
     "threads with engines of their own, so submission keeps the rate whatever the "              \
     "completions, as fio's offload", SB_OPTC_ENGINE, 0, sb_opt_submit_mode_choices, NULL},       \
    {"random_generator", NULL, SB_OPT_CHOICE, J(random_generator), 0, 0, "tausworthe", "GEN",     \
     "tausworthe | tausworthe64: storbench's generator (a seeded permutation with the random "    \
     "map); lfsr: a maximal-length LFSR, every block once per pass even with norandommap, as "    \
     "fio's", SB_OPTC_OFFSETS, 0, sb_opt_rng_choices, NULL},                                       \
    {"numa_cpu_nodes", NULL, SB_OPT_FUNC, J(numa_cpu_nodes), 0, 0, "unset", "NODES",              \
     "run the job's threads on the CPUs of these NUMA nodes (0-1,3; from "                        \
     "/sys/devices/system/node/nodeN/cpulist); a node this machine lacks is refused",             \
     SB_OPTC_CPU, SB_OPTF_DEF_DOC, NULL, sb_opt_parse_numa_cpus},                                  \
    {"numa_mem_policy", NULL, SB_OPT_FUNC, J(numa_mem_mode), 0, 0, "unset", "POLICY",             \
     "the threads' memory policy (set_mempolicy): default | prefer:N | bind:NODES | "             \
     "interleave:NODES | local, as fio's", SB_OPTC_CPU, SB_OPTF_DEF_DOC, NULL,                     \
     sb_opt_parse_numa_mem},                                                                       \
    {"sprandom", NULL, SB_OPT_BOOL, J(sprandom), 0, 0, "0", NULL,                                 \
     "fio 3.41's SPRandom SSD preconditioning: a randwrite job writes the physical capacity "     \
     "(size x (1 + spr_op)) once, in spr_num_regions regions whose invalid blocks follow the "    \
     "steady-state distribution; sets random_generator=lfsr and norandommap", SB_OPTC_OFFSETS,    \
     SB_OPTF_SWITCH, NULL, NULL},                                                                  \
    {"spr_op", NULL, SB_OPT_FUNC, J(spr_op), 0, 0, "0.15", "RATIO",                               \
     "sprandom: the over-provisioning ratio, 0 .. 1 exclusive", SB_OPTC_OFFSETS, 0, NULL,         \
     sb_opt_parse_spr_op},                                                                         \
    {"spr_num_regions", NULL, SB_OPT_INT, J(spr_num_regions), 1, 1000000, "100", "N",             \
     "sprandom: the number of regions", SB_OPTC_OFFSETS, 0, NULL, NULL},                           \
    {"steadystate_check_interval", sb_opt_a_ss_interval, SB_OPT_DURATION, J(steady.interval_s),   \
     0, 0, "1s", "DURATION", "the length of one steady-state sample: ss_dur / this many "         \
     "samples make the window, as fio's ss_interval", SB_OPTC_SERIES, SB_OPTF_POSITIVE, NULL,     \
     NULL},                                                                                        \
    {"prioclass", NULL, SB_OPT_FUNC, J(prioclass), 0, 0, "unset", "N",                           \
     "the threads' I/O priority class: 1 realtime, 2 best effort, 3 idle (with prio its "         \
     "level); also the priority of the I/Os cmdprio does not pick", SB_OPTC_CPU,                  \
     SB_OPTF_DEF_DOC, NULL, sb_opt_parse_prioclass},                                              \
    {"cmdprio_percentage", NULL, SB_OPT_FUNC, J(cmdprio.pct), 0, 0, "0", "PCT[,PCT]",            \
     "libaio, io_uring: this % of the I/Os (reads,writes) carry the priority cmdprio_class/"     \
     "cmdprio; the latency of each priority is reported apart, as fio's", SB_OPTC_ENGINE, 0,      \
     NULL, sb_opt_parse_cmdprio},                                                                  \
    {"cmdprio_class", NULL, SB_OPT_FUNC, J(cmdprio.cls), 0, 0, "1", "N[,N]",                    \
     "the class of the I/Os cmdprio picks: 1 realtime, 2 best effort, 3 idle", SB_OPTC_ENGINE,    \
     SB_OPTF_DEF_DOC, NULL, sb_opt_parse_cmdprio},                                                               \
    {"cmdprio", NULL, SB_OPT_FUNC, J(cmdprio.level), 0, 0, "0", "N[,N]",                        \
     "the level of the I/Os cmdprio picks, 0 (highest) .. 7", SB_OPTC_ENGINE, SB_OPTF_DEF_DOC, NULL, \
     sb_opt_parse_cmdprio},                                                                        \
    {"cmdprio_bssplit", NULL, SB_OPT_FUNC, J(cmdprio.n), 0, 0, NULL, "SPLIT[,SPLIT]",            \
     "libaio, io_uring: per block size, the share of its I/Os with a priority: "                 \
     "BS/PCT[/CLASS/LEVEL[/HINT]]:..., for reads[,writes]; not with cmdprio_percentage",          \
     SB_OPTC_ENGINE, 0, NULL, sb_opt_parse_cmdprio},                                               \
    {"log_prio", NULL, SB_OPT_BOOL, J(log_prio), 0, 0, "0", NULL,                                 \
     "the log files' prio column is each I/O's priority value (0x2000: class 1 level 0), as "     \
     "fio's; else 1 for an I/O cmdprio picked", SB_OPTC_SERIES, SB_OPTF_SWITCH, NULL, NULL},

#endif
