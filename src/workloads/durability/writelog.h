/*
 * writelog — the write log of a block device in the format of the kernel's
 * dm-log-writes target (Documentation/admin-guide/device-mapper/log-writes.rst,
 * drivers/md/dm-log-writes.c): a super block (magic, version, entry count,
 * sector size) in the first sector, then one sector per entry (sector, sector
 * count, flags FLUSH/FUA/DISCARD/MARK, data length; a mark's text follows the
 * entry) and, for a write, its data. storbench writes such logs itself (the FUSE
 * recorder of the durability test) and reads both its own and the kernel's, and
 * replays a prefix of one onto a copy of the device as a power cut would have
 * left it (writelog_replay).
 */
#ifndef SB_WRITELOG_H
#define SB_WRITELOG_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WRITELOG_MAGIC 0x6a736677736872ull
#define WRITELOG_FLUSH (1u << 0)
#define WRITELOG_FUA (1u << 1)
#define WRITELOG_DISCARD (1u << 2)
#define WRITELOG_MARK (1u << 3)

/* ---- writing (the FUSE recorder) ---- */

typedef struct writelog_writer {
    int fd;
    uint32_t sectorsize;     /* 512 */
    uint64_t pos;            /* where the next entry goes */
    uint64_t nr_entries;
    pthread_mutex_t mu;      /* entries come from the FUSE thread and the marker */
} writelog_writer;

int writelog_create(writelog_writer *w, const char *path);
/* Appends one entry; data (nr_sectors * sectorsize bytes) for a write, the mark's
 * text for a mark. -errno on failure. */
int writelog_append(writelog_writer *w, uint64_t sector, uint64_t nr_sectors, uint32_t flags,
                    const void *data, size_t data_len);
/* Writes the super block (entry count) and closes. */
int writelog_close(writelog_writer *w);

/* ---- reading and replaying ---- */

typedef struct writelog_entry {
    uint64_t sector, nr_sectors;
    uint32_t flags;
    uint64_t data_off;       /* where its data is in the log file */
    char mark[48];           /* a mark's text, NUL-terminated */
} writelog_entry;

typedef struct writelog {
    int fd;
    uint32_t sectorsize;
    uint64_t n;
    writelog_entry *e;
} writelog;

/* Reads a whole log's index. -errno (-EILSEQ: not a log) with one line in err. */
int writelog_open(writelog *lg, const char *path, char *err, size_t errlen);
void writelog_free(writelog *lg);
/* The index of the first mark entry whose text is mark, or -1. */
int64_t writelog_find_mark(const writelog *lg, const char *mark);

/* A power cut after the first `upto` entries reached the device: applies to the
 * device copy at fd exactly what a device with a volatile write cache must have
 * kept — every write (and discard) before the last FLUSH among them, and FUA
 * writes after it — and nothing else. Returns the number of entries applied, or
 * -errno with one line in err. */
int64_t writelog_replay(const writelog *lg, uint64_t upto, int fd, char *err, size_t errlen);

#endif
