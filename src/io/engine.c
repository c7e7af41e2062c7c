/*
 * engine — the registered I/O engines (engine.h's SB_ENGINE_REGISTER: each engine of
 * io/engines/ adds itself), lookup by name, and the list of those that work on this
 * kernel (for the "unknown/unavailable engine" message). Nothing here names an engine.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/engine.h"

/* The linker's bounds of the section SB_ENGINE_REGISTER fills (weak: a program without
 * engines links, with none). */
extern const sb_engine_ops *const __start_sb_engines[] __attribute__((weak));
extern const sb_engine_ops *const __stop_sb_engines[] __attribute__((weak));

size_t sb_engine_count(void)
{
    return __start_sb_engines ? (size_t)(__stop_sb_engines - __start_sb_engines) : 0;
}

/* The i-th by rank: the section holds them in link order, which says nothing. */
const sb_engine_ops *sb_engine_at(size_t i)
{
    size_t n = sb_engine_count();
    for (size_t k = 0; k < n; k++) {
        size_t before = 0;
        for (size_t m = 0; m < n; m++)
            before += __start_sb_engines[m]->rank < __start_sb_engines[k]->rank ||
                      (__start_sb_engines[m]->rank == __start_sb_engines[k]->rank && m < k);
        if (before == i)
            return __start_sb_engines[k];
    }
    return NULL;
}

const sb_engine_ops *sb_engine_find(const char *name)
{
    size_t n = sb_engine_count();
    for (size_t i = 0; i < n; i++) {
        const sb_engine_ops *e = __start_sb_engines[i];
        if (!strcmp(e->name, name))
            return e;
        for (const char *const *a = e->aliases; a && *a; a++)
            if (!strcmp(*a, name))
                return e;
    }
    return NULL;
}

bool sb_engine_can(const char *name, unsigned caps)
{
    const sb_engine_ops *e = sb_engine_find(name);
    return e && (e->caps & caps) == caps;
}

void sb_engine_list_working(char *buf, size_t len)
{
    size_t off = 0;
    if (len)
        buf[0] = '\0';
    for (size_t i = 0; i < sb_engine_count() && off < len; i++) {
        const sb_engine_ops *e = sb_engine_at(i);
        if (e->probe && e->probe() < 0)
            continue;
        int n = snprintf(buf + off, len - off, "%s%s", off ? ", " : "", e->name);
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

int sb_engine_init_none(sb_engine_td *td) { return 0; }

void sb_engine_cleanup_free(sb_engine_td *td)
{
    free(td->data);
    td->data = NULL;
}

int sb_engine_stat_path(int type, const char *path)
{
    struct stat st;
    struct statx sx;
    int r;
    if (type == 2) /* job.h's SB_STAT_LSTAT */
        r = lstat(path, &st);
    else if (type == 3) /* SB_STAT_STATX: fio's, every field asked for */
        r = statx(AT_FDCWD, path, 0, STATX_ALL, &sx);
    else
        r = stat(path, &st);
    return r < 0 ? -errno : 0;
}
