/*
 * worker_numa — fio's numa_cpu_nodes and numa_mem_policy for one worker thread, applied
 * in the thread before its first I/O. CPUs: the union of /sys/devices/system/node/nodeN/
 * cpulist of the nodes given, set with sched_setaffinity for this thread alone (it
 * replaces cpus_allowed, as fio's numa_cpu_nodes does). Memory: set_mempolicy for what the
 * thread allocates from now on, and mbind with MPOL_MF_MOVE for its I/O buffers, which the
 * controlling thread allocated and filled before the thread started (so the policy holds
 * for the pages the I/O really uses). Raw system calls, as the kernel's uapi defines the
 * modes: no libnuma needed.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <stdlib.h>
#include "io/run/worker.h"

/* linux/mempolicy.h */
enum { MPOL_DEFAULT_ = 0, MPOL_PREFERRED_ = 1, MPOL_BIND_ = 2, MPOL_INTERLEAVE_ = 3,
       MPOL_LOCAL_ = 4 };
#define MPOL_MF_MOVE_ (1 << 1)

/* The CPUs of the nodes in mask. 0 or -errno with the cause in msg. */
static int node_cpus(uint64_t mask, cpu_set_t *out, char *msg, size_t len)
{
    CPU_ZERO(out);
    for (unsigned n = 0; n < 64; n++) {
        if (!(mask >> n & 1))
            continue;
        char path[64], list[4096];
        snprintf(path, sizeof path, "/sys/devices/system/node/node%u/cpulist", n);
        FILE *f = fopen(path, "re");
        if (!f || !fgets(list, sizeof list, f)) {
            int e = f ? EIO : errno;
            if (f)
                fclose(f);
            snprintf(msg, len, "numa_cpu_nodes: %s: %s", path, strerror(e));
            return -e;
        }
        fclose(f);
        list[strcspn(list, "\n")] = '\0';
        /* the kernel's list (0-3,8): the node's CPUs, whatever this process's affinity
         * (as fio's numa_run_on_node_mask; core/cpuset would refuse CPUs outside it) */
        for (char *p = list; *p;) {
            char *end;
            unsigned long lo = strtoul(p, &end, 10), hi = lo;
            if (end == p)
                break;
            if (*end == '-')
                hi = strtoul(end + 1, &end, 10);
            for (unsigned long c = lo; c <= hi && c < CPU_SETSIZE; c++)
                CPU_SET(c, out);
            p = *end == ',' ? end + 1 : end + strlen(end);
        }
    }
    if (!CPU_COUNT(out)) {
        snprintf(msg, len, "numa_cpu_nodes: the nodes given have no CPUs");
        return -EINVAL;
    }
    return 0;
}

int sb_io_numa_apply(worker *w, size_t buflen)
{
    const sb_io_job *job = w->job;
    if (job->numa_cpu_nodes) {
        cpu_set_t cpus;
        int r = node_cpus(job->numa_cpu_nodes, &cpus, w->errmsg, sizeof w->errmsg);
        if (r < 0)
            return w->err = r;
        if (sched_setaffinity(0, sizeof cpus, &cpus) < 0) {
            w->err = -errno;
            snprintf(w->errmsg, sizeof w->errmsg, "numa_cpu_nodes: sched_setaffinity: %s",
                     strerror(errno));
            return w->err;
        }
    }
    if (job->numa_mem_mode == SB_NUMA_MEM_NONE)
        return 0;
    static const int mode[] = {
        [SB_NUMA_MEM_DEFAULT] = MPOL_DEFAULT_, [SB_NUMA_MEM_PREFER] = MPOL_PREFERRED_,
        [SB_NUMA_MEM_BIND] = MPOL_BIND_, [SB_NUMA_MEM_INTERLEAVE] = MPOL_INTERLEAVE_,
        [SB_NUMA_MEM_LOCAL] = MPOL_LOCAL_,
    };
    unsigned long nodes = (unsigned long)job->numa_mem_nodes;
    int m = mode[job->numa_mem_mode];
    /* maxnode counts bits (the kernel reads maxnode - 1 of them); none for default/local */
    unsigned long maxnode = job->numa_mem_nodes ? 65 : 0;
    const char *what = "set_mempolicy";
    long r = syscall(SYS_set_mempolicy, m, maxnode ? &nodes : NULL, maxnode);
    if (r == 0 && w->bufmem && buflen) {
        what = "mbind";
        r = syscall(SYS_mbind, w->bufmem, buflen, m, maxnode ? &nodes : NULL, maxnode,
                    m == MPOL_DEFAULT_ ? 0 : MPOL_MF_MOVE_);
    }
    if (r < 0) {
        w->err = -errno;
        snprintf(w->errmsg, sizeof w->errmsg, "numa_mem_policy: %s: %s", what, strerror(errno));
        return w->err;
    }
    return 0;
}
