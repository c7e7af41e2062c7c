/*
 * writelog — reading, writing and replaying dm-log-writes logs (writelog.h). All
 * fields are little-endian, as the kernel writes them; sector and nr_sectors count
 * the log's sector size (the kernel converts from 512-byte sectors).
 */
#include "workloads/durability/writelog.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/fileio.h"

typedef struct disk_super {
    uint64_t magic, version, nr_entries;
    uint32_t sectorsize;
} __attribute__((packed)) disk_super;

typedef struct disk_entry {
    uint64_t sector, nr_sectors, flags, data_len;
} disk_entry;

/* ------------------------------------------------------------ writing */

int writelog_create(writelog_writer *w, const char *path)
{
    memset(w, 0, sizeof *w);
    w->fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (w->fd < 0)
        return -errno;
    w->sectorsize = 512;
    w->pos = w->sectorsize;
    pthread_mutex_init(&w->mu, NULL);
    return 0;
}

int writelog_append(writelog_writer *w, uint64_t sector, uint64_t nr_sectors, uint32_t flags,
                    const void *data, size_t data_len)
{
    char block[512] = {0};
    disk_entry e = {htole64(sector), htole64(nr_sectors), htole64(flags), 0};
    size_t extra = 0;
    if (flags & WRITELOG_MARK) {
        extra = data_len < sizeof block - sizeof e - 1 ? data_len : sizeof block - sizeof e - 1;
        memcpy(block + sizeof e, data, extra);
        e.data_len = htole64(extra);
    }
    memcpy(block, &e, sizeof e);
    pthread_mutex_lock(&w->mu);
    int r = sb_pwrite_all(w->fd, block, sizeof block, w->pos);
    uint64_t bytes = (flags & (WRITELOG_MARK | WRITELOG_DISCARD)) ? 0 : nr_sectors * w->sectorsize;
    if (r == 0 && bytes)
        r = sb_pwrite_all(w->fd, data, bytes, w->pos + w->sectorsize);
    if (r == 0) {
        w->pos += w->sectorsize + bytes;
        w->nr_entries++;
    }
    pthread_mutex_unlock(&w->mu);
    return r;
}

int writelog_close(writelog_writer *w)
{
    if (w->fd < 0)
        return 0;
    char block[512] = {0};
    disk_super s = {htole64(WRITELOG_MAGIC), htole64(1), htole64(w->nr_entries), htole32(w->sectorsize)};
    memcpy(block, &s, sizeof s);
    int r = sb_pwrite_all(w->fd, block, sizeof block, 0);
    if (close(w->fd) < 0 && r == 0)
        r = -errno;
    w->fd = -1;
    pthread_mutex_destroy(&w->mu);
    return r;
}

/* ------------------------------------------------------------ reading */

int writelog_open(writelog *lg, const char *path, char *err, size_t errlen)
{
    memset(lg, 0, sizeof *lg);
    lg->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (lg->fd < 0) {
        int e = errno;
        snprintf(err, errlen, "%s: %s", path, strerror(e));
        return -e;
    }
    disk_super s;
    if (sb_pread_all(lg->fd, &s, sizeof s, 0) < 0 || le64toh(s.magic) != WRITELOG_MAGIC ||
        le64toh(s.version) != 1 || le32toh(s.sectorsize) < sizeof(disk_entry) ||
        le32toh(s.sectorsize) > 65536) {
        snprintf(err, errlen, "%s: not a dm-log-writes log (magic, version 1, sector size)", path);
        writelog_free(lg);
        return -EILSEQ;
    }
    lg->sectorsize = le32toh(s.sectorsize);
    uint64_t n = le64toh(s.nr_entries), pos = lg->sectorsize;
    lg->e = calloc(n ? n : 1, sizeof *lg->e);
    if (!lg->e) {
        snprintf(err, errlen, "%s: out of memory for %" PRIu64 " entries", path, n);
        writelog_free(lg);
        return -ENOMEM;
    }
    char *block = malloc(lg->sectorsize);
    for (uint64_t i = 0; i < n && block; i++) {
        disk_entry d;
        if (sb_pread_all(lg->fd, block, lg->sectorsize, pos) < 0) {
            snprintf(err, errlen, "%s: entry %" PRIu64 " of %" PRIu64 " is missing (log cut short)",
                     path, i, n);
            free(block);
            writelog_free(lg);
            return -EILSEQ;
        }
        memcpy(&d, block, sizeof d);
        writelog_entry *e = &lg->e[i];
        e->sector = le64toh(d.sector);
        e->nr_sectors = le64toh(d.nr_sectors);
        e->flags = (uint32_t)le64toh(d.flags);
        uint64_t dl = le64toh(d.data_len);
        if (e->flags & WRITELOG_MARK) {
            size_t m = dl < sizeof e->mark - 1 ? (size_t)dl : sizeof e->mark - 1;
            if (m > lg->sectorsize - sizeof d)
                m = lg->sectorsize - sizeof d;
            memcpy(e->mark, block + sizeof d, m);
        }
        e->data_off = pos + lg->sectorsize;
        pos = e->data_off;
        if (!(e->flags & (WRITELOG_DISCARD | WRITELOG_MARK)))
            pos += e->nr_sectors * lg->sectorsize;
        lg->n++;
    }
    free(block);
    return 0;
}

void writelog_free(writelog *lg)
{
    if (lg->fd >= 0)
        close(lg->fd);
    free(lg->e);
    memset(lg, 0, sizeof *lg);
    lg->fd = -1;
}

int64_t writelog_find_mark(const writelog *lg, const char *mark)
{
    for (uint64_t i = 0; i < lg->n; i++)
        if ((lg->e[i].flags & WRITELOG_MARK) && !strcmp(lg->e[i].mark, mark))
            return (int64_t)i;
    return -1;
}

/* ------------------------------------------------------------ replay */

static int apply(const writelog *lg, const writelog_entry *e, int fd, char **buf, size_t *cap)
{
    uint64_t bytes = e->nr_sectors * lg->sectorsize, off = e->sector * lg->sectorsize;
    if (!bytes)
        return 0;
    if (*cap < bytes) {
        char *nb = realloc(*buf, bytes);
        if (!nb)
            return -ENOMEM;
        *buf = nb;
        *cap = bytes;
    }
    int r;
    if (e->flags & WRITELOG_DISCARD)
        memset(*buf, 0, bytes); /* what a discarded range reads back on most devices */
    else if ((r = sb_pread_all(lg->fd, *buf, bytes, e->data_off)) < 0)
        return r;
    return sb_pwrite_all(fd, *buf, bytes, off);
}

int64_t writelog_replay(const writelog *lg, uint64_t upto, int fd, char *err, size_t errlen)
{
    if (upto > lg->n)
        upto = lg->n;
    /* Entries before the last FLUSH are durable; a FLUSH entry's own data (a
     * PREFLUSH write) came after its flush, and is durable only with FUA. */
    uint64_t last_flush = 0;
    for (uint64_t i = 0; i < upto; i++)
        if (lg->e[i].flags & WRITELOG_FLUSH)
            last_flush = i;
    char *buf = NULL;
    size_t cap = 0;
    int64_t applied = 0;
    int r = 0;
    for (uint64_t i = 0; i < upto && r == 0; i++) {
        const writelog_entry *e = &lg->e[i];
        if (e->flags & WRITELOG_MARK)
            continue;
        if (i < last_flush || (e->flags & WRITELOG_FUA)) {
            r = apply(lg, e, fd, &buf, &cap);
            applied++;
        }
    }
    free(buf);
    if (r < 0) {
        snprintf(err, errlen, "replaying the write log: %s", strerror(-r));
        return r;
    }
    return applied;
}
