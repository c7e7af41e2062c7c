/*
 * dbench_replay — see dbench_replay.h. The check after each parse is what
 * makes the reading part of the replay rather than dead work: the operation
 * run is the one the client has just read.
 */
#include "workloads/dbench/dbench_replay.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int sb_dbench_replay_open(sb_dbench_replay *r, const char *path, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    r->f = fopen(path, "r");
    if (!r->f) {
        int e = errno;
        snprintf(err, errlen, "%s: %s", path, strerror(e));
        return -e;
    }
    /* dbench reads its loadfile through zlib, 16 KiB per read(2) for a plain file;
     * stdio's default would make it 4 KiB, four times the calls. */
    setvbuf(r->f, NULL, _IOFBF, 16384);
    return 0;
}

static bool same_string(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

static bool same_op(const sb_dbench_script *sa, const sb_dbench_op *a, const sb_dbench_script *sb,
                    const sb_dbench_op *b)
{
    return a->verb == b->verb && a->expect_ok == b->expect_ok && a->path_client == b->path_client &&
           a->handle == b->handle && a->a == b->a && a->b == b->b && a->offset == b->offset &&
           a->size == b->size && a->ret_size == b->ret_size && a->line == b->line && a->at == b->at &&
           same_string(sb_dbench_str(sa, a->path), sb_dbench_str(sb, b->path)) &&
           same_string(sb_dbench_str(sa, a->path2), sb_dbench_str(sb, b->path2));
}

int sb_dbench_replay_next(sb_dbench_replay *r, const sb_dbench_script *sc,
                          const sb_dbench_op *want, char *err, size_t errlen)
{
    bool rewound = false;
    for (;;) {
        if (getline(&r->line, &r->cap, r->f) < 0) {
            if (ferror(r->f) || rewound) {
                snprintf(err, errlen, "%s: read error or no operations", r->path);
                return -EIO;
            }
            rewind(r->f); /* dbench's gzrewind: the next loop */
            r->lineno = 0;
            rewound = true;
            continue;
        }
        r->lineno++;
        r->scratch.n = 0;
        r->scratch.slen = 0;
        char msg[256];
        int rc = sb_dbench_parse_line(&r->scratch, r->line, r->lineno, msg, sizeof msg);
        if (rc < 0) {
            snprintf(err, errlen, "%s:%u: %s", r->path, r->lineno, msg);
            return rc;
        }
        if (rc == 1)
            continue; /* blank or comment */
        if (!same_op(&r->scratch, &r->scratch.ops[0], sc, want)) {
            snprintf(err, errlen, "%s:%u: the loadfile changed during the run", r->path, r->lineno);
            return -EINVAL;
        }
        return 0;
    }
}

void sb_dbench_replay_close(sb_dbench_replay *r)
{
    if (r->f)
        fclose(r->f);
    free(r->line);
    sb_dbench_script_free(&r->scratch);
    memset(r, 0, sizeof *r);
}
