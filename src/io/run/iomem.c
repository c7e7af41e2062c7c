/*
 * iomem — see iomem.h. A huge-page size rounds the length up to 2 MiB (the x86 default
 * huge page), since MAP_HUGETLB and SHM_HUGETLB want whole pages.
 */
#include "io/run/iomem.h"

#include <errno.h>
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
