/*
 * engine — the table of I/O engines, lookup by name, and the list of those
 * that work on this kernel (for the "unknown/unavailable engine" message).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "io/engine.h"

static const sb_engine_ops *const engines[] = {
    &sb_engine_psync, &sb_engine_sync, &sb_engine_posixaio,
    &sb_engine_libaio, &sb_engine_io_uring, &sb_engine_mmap, &sb_engine_pvsync,
    &sb_engine_pvsync2, &sb_engine_null,
};
#define N_ENGINES (sizeof engines / sizeof engines[0])

size_t sb_engine_count(void) { return N_ENGINES; }

const sb_engine_ops *sb_engine_at(size_t i) { return i < N_ENGINES ? engines[i] : NULL; }

const sb_engine_ops *sb_engine_find(const char *name)
{
    for (size_t i = 0; i < N_ENGINES; i++)
        if (!strcmp(engines[i]->name, name))
            return engines[i];
    /* fio's spelling of the same engines */
    if (!strcmp(name, "pread"))
        return &sb_engine_psync;
    if (!strcmp(name, "uring") || !strcmp(name, "iouring"))
        return &sb_engine_io_uring;
    return NULL;
}

void sb_engine_list_working(char *buf, size_t len)
{
    size_t off = 0;
    if (len)
        buf[0] = '\0';
    for (size_t i = 0; i < N_ENGINES && off < len; i++) {
        if (engines[i]->probe && engines[i]->probe() < 0)
            continue;
        int n = snprintf(buf + off, len - off, "%s%s", off ? ", " : "", engines[i]->name);
        if (n < 0)
            break;
        off += (size_t)n;
    }
}

int sb_engine_check_works(const sb_engine_ops *ops, const char *prefix, char *err, size_t errlen)
{
    int rc;
    if (!ops->probe || (rc = ops->probe()) >= 0)
        return 0;
    char list[256];
    sb_engine_list_working(list, sizeof list);
    snprintf(err, errlen, "%sI/O engine %s does not work on this kernel (%s); engines that work "
             "here: %s", prefix, ops->name, strerror(-rc), list);
    return rc;
}

int sb_engine_fsync_fd(sb_engine_td *td)
{
    return (td->datasync ? fdatasync(td->fd) : fsync(td->fd)) < 0 ? -errno : 0;
}
