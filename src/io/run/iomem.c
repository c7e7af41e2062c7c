/*
 * iomem — see iomem.h. A huge-page size rounds the length up to 2 MiB (the x86 default
 * huge page), since MAP_HUGETLB and SHM_HUGETLB want whole pages. Buffers larger than the
 * memory available are refused before any I/O: fio allocates them all the same and its
 * run fails later (bs=256m iodepth=128: its reads end with "Bad address"), storbench's
 * would page the machine out or be killed.
 */
#include "io/run/iomem.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>

#include "io/job.h"

#define HUGE_PAGE (2u << 20)

static size_t rounded(int kind, size_t len)
{
    bool huge = kind == SB_IOMEM_SHMHUGE || kind == SB_IOMEM_MMAPHUGE;
    return huge ? (len + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE : len;
}

/* /proc/meminfo's MemAvailable in bytes, 0 when it cannot be read. */
static unsigned long long mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "re");
    if (!f)
        return 0;
    char line[128];
    unsigned long long kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
            break;
    fclose(f);
    return kb * 1024;
}

static int shm_alloc(int kind, size_t len, void **p, char *err, size_t errlen)
{
    int id = shmget(IPC_PRIVATE, len, IPC_CREAT | 0600 | (kind == SB_IOMEM_SHMHUGE ? SHM_HUGETLB : 0));
    if (id < 0) {
        int e = errno;
        snprintf(err, errlen, "mem=%s: shmget of %zu bytes: %s%s", kind == SB_IOMEM_SHMHUGE ? "shmhuge" : "shm",
                 len, strerror(e), kind == SB_IOMEM_SHMHUGE ? " (are huge pages configured? vm.nr_hugepages)" : "");
        return -e;
    }
    void *a = shmat(id, NULL, 0);
    int e = a == (void *)-1 ? errno : 0;
    shmctl(id, IPC_RMID, NULL); /* gone when detached, or when the process dies */
    if (e) {
        snprintf(err, errlen, "mem=shm: shmat: %s", strerror(e));
        return -e;
    }
    *p = a;
    return 0;
}

int sb_iomem_alloc(int kind, size_t len, void **p, char *err, size_t errlen)
{
    *p = NULL;
    len = rounded(kind, len);
    if (kind == SB_IOMEM_SHM || kind == SB_IOMEM_SHMHUGE)
        return shm_alloc(kind, len, p, err, errlen);
    if (kind == SB_IOMEM_MALLOC) {
        if (posix_memalign(p, 4096, len)) {
            *p = NULL;
            snprintf(err, errlen, "cannot allocate %zu bytes of I/O buffers", len);
            return -ENOMEM;
        }
        return 0;
    }
    int flags = (kind == SB_IOMEM_MMAPSHARED ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS |
                (kind == SB_IOMEM_MMAPHUGE ? MAP_HUGETLB : 0);
    void *a = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, -1, 0);
    if (a == MAP_FAILED) {
        int e = errno;
        snprintf(err, errlen, "mem=%s: mmap of %zu bytes: %s%s", kind == SB_IOMEM_MMAPHUGE ? "mmaphuge" : "mmap",
                 len, strerror(e), kind == SB_IOMEM_MMAPHUGE ? " (are huge pages configured? vm.nr_hugepages)" : "");
        return -e;
    }
    *p = a;
    return 0;
}

int sb_iomem_check(int kind, uint64_t per_thread, unsigned threads, char *err, size_t errlen)
{
    uint64_t all = rounded(kind, per_thread) * threads;
    unsigned long long avail = mem_available();
    if (avail && all > avail) {
        snprintf(err, errlen, "I/O buffers of %" PRIu64 " bytes (numjobs x iodepth x the largest bs) are "
                 "more than the %llu bytes of memory available (fio: \"IO memory too large\", or its I/Os "
                 "fail)", all, avail);
        return -ENOMEM;
    }
    return 0;
}

void sb_iomem_free(int kind, void *p, size_t len)
{
    if (!p)
        return;
    if (kind == SB_IOMEM_MALLOC)
        free(p);
    else if (kind == SB_IOMEM_SHM || kind == SB_IOMEM_SHMHUGE)
        shmdt(p);
    else
        munmap(p, rounded(kind, len));
}
