/*
 * iomem — the I/O buffers of a worker thread as fio's mem/iomem makes them: malloc
 * (aligned), a private System V shared-memory segment (shm, shmhuge: removed at once, so
 * nothing of it outlives the process, whatever kills it), or an anonymous mapping (mmap,
 * mmaphuge with MAP_HUGETLB, mmapshared). Huge pages must be configured
 * (vm.nr_hugepages); without them the job fails with one line naming them.
 */
#ifndef SB_IO_RUN_IOMEM_H
#define SB_IO_RUN_IOMEM_H

#include <stddef.h>
#include <stdint.h>

/* len bytes of kind (SB_IOMEM_*, job.h), 4 KiB aligned, into *p. 0, or -errno with one
 * line in err. */
int sb_iomem_alloc(int kind, size_t len, void **p, char *err, size_t errlen);
/* Before any I/O: threads' buffers of per_thread bytes each (iodepth x the largest bs)
 * fit in the memory available. 0, or -ENOMEM with one line in err. */
int sb_iomem_check(int kind, uint64_t per_thread, unsigned threads, char *err, size_t errlen);
/* Gives back what sb_iomem_alloc made (p may be NULL). */
void sb_iomem_free(int kind, void *p, size_t len);

#endif
