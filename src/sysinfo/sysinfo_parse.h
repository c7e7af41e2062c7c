/*
 * sysinfo_parse — the pieces of src/sysinfo/ that turn text into facts, exposed
 * (internally, not part of the public interface) so that the unit tests can
 * feed them fixture text and a fake root directory instead of this machine's
 * /proc and /sys. Every function here is pure or reads only below `root`.
 */
#ifndef SB_SYSINFO_PARSE_H
#define SB_SYSINFO_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "results/result.h"

/* ---- /proc/cpuinfo ---- */
/* The first "model name" (or "Processor"/"cpu model"/"Hardware" on other architectures), tidied
 * like the seed pages: no "(R)", "(TM)", "CPU", trailing "Processor" or "@ 3.70GHz". NULL when
 * absent. Caller frees. */
char *sb_sysinfo_cpu_model(const char *cpuinfo);
/* In-place tidy of a model name (the rules above). */
void sb_sysinfo_tidy_cpu_model(char *s);
/* Number of "processor" entries (logical CPUs), 0 when none. */
int sb_sysinfo_cpu_count(const char *cpuinfo);
/* Highest "cpu MHz" over all processors, 0 when none. */
double sb_sysinfo_cpu_mhz(const char *cpuinfo);
/* "Intel Core i7-5960X @ 3.50GHz (16 Cores)"; mhz <= 0 leaves out the frequency, ncpu <= 0 the
 * count; model NULL gives "Unknown". */
void sb_sysinfo_format_processor(char *buf, size_t len, const char *model, double mhz, int ncpu);

/* ---- /proc/meminfo, /etc/os-release ---- */
/* Value of "KEY:  N kB" in kB, -1 when absent. */
long long sb_sysinfo_meminfo_kb(const char *meminfo, const char *key);
/* Value of KEY=... with shell quoting removed, NULL when absent. Caller frees. */
char *sb_sysinfo_os_release_value(const char *text, const char *key);

/* ---- /proc/self/mountinfo ---- */
typedef struct sb_sysinfo_mount {
    int id, parent;    /* mount IDs: the tree of mounts */
    unsigned major, minor;
    char *root;        /* the mount's root within its filesystem */
    char *mount_point;
    char *mount_opts;  /* per-mount options ("rw,relatime") */
    char *fstype;
    char *source;
    char *super_opts;  /* per-superblock options */
} sb_sysinfo_mount;

/* The mount containing path (an absolute, already resolved path), found as path lookup does:
 * from the root mount down the tree of parent IDs, crossing at each level into the child whose
 * mount point is met first along the path; a mount stacked on another is its child, so the top
 * one wins. Without a root mount ("/" whose parent is not listed) the longest containing mount
 * point, the last of equals. 0, or -ENOENT when none matches or the text has no valid line. */
int sb_sysinfo_mountinfo_find(const char *mountinfo, const char *path, sb_sysinfo_mount *out);
void sb_sysinfo_mount_free(sb_sysinfo_mount *m);
/* Per-mount options then the superblock options not already listed, as findmnt shows them.
 * Caller frees. */
char *sb_sysinfo_merge_options(const char *mount_opts, const char *super_opts);

/* ---- block devices ---- */
/* The active scheduler in a queue/scheduler file: the bracketed word ("none [mq-deadline] bfq"
 * -> "mq-deadline"), or the only word when there is no bracket ("none"). NULL when empty.
 * Caller frees. */
char *sb_sysinfo_scheduler(const char *text);

typedef struct sb_sysinfo_disk {
    uint64_t bytes;
    const char *model; /* may be NULL or "" */
} sb_sysinfo_disk;

/* One disk as on the seed pages: "120GB Samsung SSD 850" (decimal GB, rounded), or the model
 * alone when it already names its size ("Samsung SSD 950 PRO 256GB"). */
void sb_sysinfo_disk_label(char *buf, size_t len, uint64_t bytes, const char *model);
/* Disks joined with " + ", identical ones grouped as "2 x 120GB Samsung SSD 850" in order of
 * first appearance. "Unknown" when n == 0. */
void sb_sysinfo_format_disks(char *buf, size_t len, const sb_sysinfo_disk *d, size_t n);
/* The Disk string from <root>/sys/block (see docs/sysinfo.md for which devices count). */
void sb_sysinfo_read_disks(const char *root, char *buf, size_t len);

/* statfs f_type -> "ext4", "xfs" ...; NULL when unknown. */
const char *sb_sysinfo_fs_magic_name(unsigned long magic);

/* Everything, reading /proc, /sys, /etc below root ("" = this machine). uname, statfs and the
 * compiler are always this machine's. */
int sb_sysinfo_collect_at(sb_system *sys, const char *target, const char *root);

#endif
