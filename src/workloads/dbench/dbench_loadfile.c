/*
 * dbench_loadfile — see dbench_loadfile.h. The parser reads dbench 4's
 * loadfile syntax: one operation a line, "VERB arg... STATUS", quoted paths
 * with '\' separators, numbers in decimal or 0x hex, an optional leading
 * timestamp, '#' comments. The generator is storbench's own.
 */
#include "workloads/dbench/dbench_loadfile.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/rand.h"

static const char *const verb_names[SB_DBENCH_N_VERBS] = {
    [SB_DBENCH_NTCREATEX] = "NTCreateX",
    [SB_DBENCH_CLOSE] = "Close",
    [SB_DBENCH_READX] = "ReadX",
    [SB_DBENCH_WRITEX] = "WriteX",
    [SB_DBENCH_UNLINK] = "Unlink",
    [SB_DBENCH_RENAME] = "Rename",
    [SB_DBENCH_QPATHINFO] = "QUERY_PATH_INFORMATION",
    [SB_DBENCH_QFILEINFO] = "QUERY_FILE_INFORMATION",
    [SB_DBENCH_SFILEINFO] = "SET_FILE_INFORMATION",
    [SB_DBENCH_QFSINFO] = "QUERY_FS_INFORMATION",
    [SB_DBENCH_FINDFIRST] = "FIND_FIRST",
    [SB_DBENCH_FLUSH] = "Flush",
    [SB_DBENCH_LOCKX] = "LockX",
    [SB_DBENCH_UNLOCKX] = "UnlockX",
    [SB_DBENCH_DELTREE] = "Deltree",
    [SB_DBENCH_MKDIR] = "Mkdir",
    [SB_DBENCH_RMDIR] = "Rmdir",
};

/* Argument layout of each verb between the verb and the status:
 *   p = path, h = handle, o = create options, d = disposition, O = offset, s = size,
 *   r = returned size, m = FIND_FIRST maxcnt, n = an ignored number (level, attr, count). */
static const char *const verb_args[SB_DBENCH_N_VERBS] = {
    [SB_DBENCH_NTCREATEX] = "podh",
    [SB_DBENCH_CLOSE] = "h",
    [SB_DBENCH_READX] = "hOsr",
    [SB_DBENCH_WRITEX] = "hOsr",
    [SB_DBENCH_UNLINK] = "pn",
    [SB_DBENCH_RENAME] = "pp",
    [SB_DBENCH_QPATHINFO] = "pn",
    [SB_DBENCH_QFILEINFO] = "hn",
    [SB_DBENCH_SFILEINFO] = "hn",
    [SB_DBENCH_QFSINFO] = "n",
    [SB_DBENCH_FINDFIRST] = "pnmn",
    [SB_DBENCH_FLUSH] = "h",
    [SB_DBENCH_LOCKX] = "hOs",
    [SB_DBENCH_UNLOCKX] = "hOs",
    [SB_DBENCH_DELTREE] = "p",
    [SB_DBENCH_MKDIR] = "p",
    [SB_DBENCH_RMDIR] = "p",
};

const char *sb_dbench_verb_name(int verb)
{
    return verb >= 0 && verb < SB_DBENCH_N_VERBS ? verb_names[verb] : "?";
}

void sb_dbench_script_free(sb_dbench_script *s)
{
    free(s->ops);
    free(s->strings);
    memset(s, 0, sizeof *s);
}

static sb_dbench_op *push_op(sb_dbench_script *s)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1024;
        sb_dbench_op *n = realloc(s->ops, cap * sizeof *n);
        if (!n)
            return NULL;
        s->ops = n;
        s->cap = cap;
    }
    sb_dbench_op *op = &s->ops[s->n];
    memset(op, 0, sizeof *op);
    op->path = op->path2 = SB_DBENCH_NO_PATH;
    op->handle = -1;
    return op;
}

/* Stores a loadfile path: '\' becomes '/', and "\clients\client1" prefixes are cut
 * off and flagged client-relative. Returns the pool offset or SB_DBENCH_NO_PATH on ENOMEM. */
static uint32_t push_path(sb_dbench_script *s, const char *raw, size_t len, bool *client)
{
    static const char prefix[] = "\\clients\\client1";
    const size_t plen = sizeof prefix - 1;
    *client = false;
    if (len >= plen && strncasecmp(raw, prefix, plen) == 0 && (len == plen || raw[plen] == '\\')) {
        raw += plen;
        len -= plen;
        *client = true;
    }
    if (s->slen + len + 1 > s->scap) {
        size_t cap = s->scap ? s->scap * 2 : 65536;
        while (cap < s->slen + len + 1)
            cap *= 2;
        char *n = realloc(s->strings, cap);
        if (!n)
            return SB_DBENCH_NO_PATH;
        s->strings = n;
        s->scap = cap;
    }
    uint32_t off = (uint32_t)s->slen;
    for (size_t i = 0; i < len; i++)
        s->strings[s->slen++] = raw[i] == '\\' ? '/' : raw[i];
    s->strings[s->slen++] = '\0';
    return off;
}

/* Splits a line into tokens; quoted tokens keep their spaces. */
static int tokenize(const char *line, const char **tok, size_t *len, int max)
{
    int n = 0;
    const char *p = line;
    for (;;) {
        while (*p && isspace((unsigned char)*p))
            p++;
        if (!*p || n == max)
            break;
        if (*p == '"') {
            const char *e = strchr(p + 1, '"');
            if (!e)
                return -1;
            tok[n] = p + 1;
            len[n] = (size_t)(e - p - 1);
            p = e + 1;
        } else {
            tok[n] = p;
            while (*p && !isspace((unsigned char)*p))
                p++;
            len[n] = (size_t)(p - tok[n]);
        }
        n++;
    }
    return n;
}

static int parse_num(const char *t, size_t len, uint64_t *out)
{
    char buf[40];
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, t, len);
    buf[len] = '\0';
    char *e;
    errno = 0;
    long long v = strtoll(buf, &e, 0);
    if (*e || errno)
        return -1;
    *out = (uint64_t)v;
    return 0;
}

int sb_dbench_parse_line(sb_dbench_script *s, const char *line, uint32_t lineno, char *err, size_t errlen)
{
    const char *tok[12];
    size_t len[12];
    int n = tokenize(line, tok, len, 12);
    if (n < 0) {
        snprintf(err, errlen, "unterminated quote");
        return -EINVAL;
    }
    if (n == 0 || tok[0][0] == '#')
        return 1;
    int t = 0;
    double at = 0;
    /* dbench 4 loadfiles may start each line with a timestamp ("12.345000"): the
     * time into the loop at which dbench issues it. */
    if (isdigit((unsigned char)tok[0][0])) {
        char buf[40], *e;
        size_t l = len[0] < sizeof buf - 1 ? len[0] : sizeof buf - 1;
        memcpy(buf, tok[0], l);
        buf[l] = '\0';
        at = strtod(buf, &e);
        if (*e || !(at >= 0) || at > 1e9) {
            snprintf(err, errlen, "bad timestamp '%.30s'", buf);
            return -EINVAL;
        }
        t = 1;
    }
    if (t >= n) {
        snprintf(err, errlen, "no operation");
        return -EINVAL;
    }
    int verb = -1;
    for (int v = 0; v < SB_DBENCH_N_VERBS && verb < 0; v++)
        if (!strncmp(verb_names[v], tok[t], len[t]) && verb_names[v][len[t]] == '\0')
            verb = v;
    if (verb < 0) {
        snprintf(err, errlen, "unknown operation '%.*s'", (int)(len[t] > 40 ? 40 : len[t]), tok[t]);
        return -EINVAL;
    }
    const char *args = verb_args[verb];
    int want = (int)strlen(args);
    if (n - t - 1 != want + 1) {
        snprintf(err, errlen, "%s takes %d arguments and a status, got %d tokens", verb_names[verb], want,
                 n - t - 1);
        return -EINVAL;
    }
    sb_dbench_op *op = push_op(s);
    if (!op) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    op->verb = (uint8_t)verb;
    op->line = lineno;
    op->at = at;
    int paths = 0;
    for (int i = 0; i < want; i++) {
        const char *tk = tok[t + 1 + i];
        size_t tl = len[t + 1 + i];
        uint64_t v = 0;
        if (args[i] == 'p') {
            bool client;
            uint32_t off = push_path(s, tk, tl, &client);
            if (off == SB_DBENCH_NO_PATH) {
                snprintf(err, errlen, "out of memory");
                return -ENOMEM;
            }
            if (paths == 0) {
                op->path = off;
                op->path_client |= client ? 1 : 0;
            } else {
                op->path2 = off;
                op->path_client |= client ? 2 : 0;
            }
            paths++;
            continue;
        }
        if (parse_num(tk, tl, &v) != 0) {
            snprintf(err, errlen, "%s: argument %d '%.*s' is not a number", verb_names[verb], i + 1,
                     (int)(tl > 30 ? 30 : tl), tk);
            return -EINVAL;
        }
        switch (args[i]) {
        case 'h': op->handle = (int32_t)v; break;
        case 'o': op->a = (uint32_t)v; break;
        case 'd': op->b = (uint32_t)v; break;
        case 'm': op->a = (uint32_t)v; break;
        case 'O': op->offset = v; break;
        case 's': op->size = v; break;
        case 'r': op->ret_size = v; break;
        default: break;
        }
    }
    const char *st = tok[n - 1];
    size_t sl = len[n - 1];
    op->expect_ok = (sl == 12 && !strncmp(st, "NT_STATUS_OK", 12)) ||
                    (sl > 2 && !strncmp(st, "0x", 2) && strtoul(st, NULL, 16) == 0);
    if ((op->verb == SB_DBENCH_READX || op->verb == SB_DBENCH_WRITEX) && op->size > (16u << 20)) {
        snprintf(err, errlen, "%s of %llu bytes is larger than 16 MiB", verb_names[verb],
                 (unsigned long long)op->size);
        return -EINVAL;
    }
    s->n++;
    return 0;
}

int sb_dbench_parse_file(sb_dbench_script *s, const char *path, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    FILE *f = fopen(path, "r");
    if (!f) {
        int e = errno;
        snprintf(err, errlen, "%s: %s", path, strerror(e));
        return -e;
    }
    char *line = NULL;
    size_t cap = 0;
    uint32_t lineno = 0;
    int rc = 0;
    while (getline(&line, &cap, f) >= 0) {
        lineno++;
        char msg[256];
        int r = sb_dbench_parse_line(s, line, lineno, msg, sizeof msg);
        if (r < 0) {
            rc = r;
            if (r == -ENOMEM)
                snprintf(err, errlen, "%s: out of memory", path);
            else
                snprintf(err, errlen, "%s:%u: %s", path, lineno, msg);
            break;
        }
    }
    if (rc == 0 && ferror(f)) {
        rc = -EIO;
        snprintf(err, errlen, "%s: read error", path);
    }
    free(line);
    fclose(f);
    if (rc == 0 && s->n == 0) {
        rc = -EINVAL;
        snprintf(err, errlen, "%s: no operations", path);
    }
    if (rc)
        sb_dbench_script_free(s);
    return rc;
}

/* ---- the built-in generator ---------------------------------------------
 *
 * A NetBench client works on documents in a handful of application folders.
 * The stream is a random sequence of scenes; each scene is what an office
 * application does to open, save, replace, browse or delete a document, and
 * the scene weights are set so that the operation mix comes out close to
 * client.txt's (docs/workloads.md gives both). The generator tracks which
 * files exist and how large they are, so every operation's expected status
 * is what the replay will see. The stream starts from an empty client
 * directory and ends by deleting it, so it can be looped.
 */

#define GEN_MAX_FILES 160
#define GEN_CHUNK 65536u

static const char *const gen_dirs[] = {"ACCESS", "COREL", "EXCEL", "PARADOX", "PM", "PWRPNT", "SEED", "WORD"};
#define GEN_N_DIRS (sizeof gen_dirs / sizeof gen_dirs[0])

typedef struct gen_file {
    uint32_t name;   /* number in the file name */
    uint8_t dir;
    uint64_t size;
} gen_file;

typedef struct gen {
    sb_dbench_script *s;
    sb_rand r;
    gen_file files[GEN_MAX_FILES];
    size_t n_files;
    uint32_t next_name;
    int32_t next_handle;
    int err;
} gen;

static void gen_name(char *out, size_t len, unsigned dir, uint32_t name, const char *ext)
{
    snprintf(out, len, "\\clients\\client1\\~dmtmp\\%s\\F%05u.%s", gen_dirs[dir], name, ext);
}

static sb_dbench_op *gen_op(gen *g, int verb, const char *path, const char *path2, bool ok)
{
    sb_dbench_op *op = push_op(g->s);
    if (!op) {
        g->err = -ENOMEM;
        return NULL;
    }
    op->verb = (uint8_t)verb;
    op->expect_ok = ok;
    op->line = (uint32_t)g->s->n + 1;
    bool c;
    if (path) {
        op->path = push_path(g->s, path, strlen(path), &c);
        op->path_client |= c ? 1 : 0;
    }
    if (path2) {
        op->path2 = push_path(g->s, path2, strlen(path2), &c);
        op->path_client |= c ? 2 : 0;
    }
    if ((path && op->path == SB_DBENCH_NO_PATH) || (path2 && op->path2 == SB_DBENCH_NO_PATH)) {
        g->err = -ENOMEM;
        return NULL;
    }
    g->s->n++;
    return op;
}

static int32_t gen_open(gen *g, const char *path, uint32_t options, uint32_t disposition, bool ok)
{
    int32_t h = g->next_handle;
    g->next_handle = g->next_handle >= 60000 ? 10000 : g->next_handle + 1;
    sb_dbench_op *op = gen_op(g, SB_DBENCH_NTCREATEX, path, NULL, ok);
    if (op) {
        op->a = options;
        op->b = disposition;
        op->handle = h;
    }
    return h;
}

static void gen_hop(gen *g, int verb, int32_t h, uint64_t off, uint64_t size, uint64_t ret)
{
    sb_dbench_op *op = gen_op(g, verb, NULL, NULL, true);
    if (op) {
        op->handle = h;
        op->offset = off;
        op->size = size;
        op->ret_size = ret;
    }
}

/* Size of a new document: 1..6 chunks of 64 KiB, the last one partial, or a small
 * file of a few KiB one time in three. */
static uint64_t gen_size(gen *g)
{
    if (sb_rand_below(&g->r, 3) == 0)
        return 512 + sb_rand_below(&g->r, 8192);
    return (uint64_t)sb_rand_below(&g->r, 4) * GEN_CHUNK + 4096 + sb_rand_below(&g->r, GEN_CHUNK - 4096);
}

static void gen_write_body(gen *g, int32_t h, uint64_t size)
{
    for (uint64_t off = 0; off < size; off += GEN_CHUNK) {
        uint64_t n = size - off < GEN_CHUNK ? size - off : GEN_CHUNK;
        gen_hop(g, SB_DBENCH_WRITEX, h, off, n, n);
    }
}

/* Open a document and read parts of it. */
static void scene_read(gen *g)
{
    if (g->n_files == 0)
        return;
    gen_file *f = &g->files[sb_rand_below(&g->r, g->n_files)];
    char p[160];
    gen_name(p, sizeof p, f->dir, f->name, "DOC");
    gen_op(g, SB_DBENCH_QPATHINFO, p, NULL, true);
    int32_t h = gen_open(g, p, 0x40, SB_DBENCH_OPEN, true);
    if (sb_rand_below(&g->r, 100) < 22)
        gen_hop(g, SB_DBENCH_QFILEINFO, h, 0, 0, 0);
    bool lock = sb_rand_below(&g->r, 100) == 0;
    if (lock)
        gen_hop(g, SB_DBENCH_LOCKX, h, 2147483538u, 1, 0);
    unsigned reads = 1 + (unsigned)sb_rand_below(&g->r, 5);
    for (unsigned i = 0; i < reads; i++) {
        uint64_t bs = sb_rand_below(&g->r, 2) ? GEN_CHUNK : 4096;
        uint64_t off = f->size > bs ? sb_rand_below(&g->r, f->size - bs + 1) & ~4095ull : 0;
        uint64_t ret = f->size - off < bs ? f->size - off : bs;
        gen_hop(g, SB_DBENCH_READX, h, off, bs, ret);
    }
    if (lock)
        gen_hop(g, SB_DBENCH_UNLOCKX, h, 2147483538u, 1, 0);
    gen_hop(g, SB_DBENCH_CLOSE, h, 0, 0, 0);
}

/* Save a new document (or overwrite one when the folder is full). */
static void scene_write(gen *g)
{
    gen_file *f;
    bool fresh = g->n_files < GEN_MAX_FILES;
    if (fresh) {
        f = &g->files[g->n_files++];
        f->dir = (uint8_t)sb_rand_below(&g->r, GEN_N_DIRS);
        f->name = g->next_name++;
    } else {
        f = &g->files[sb_rand_below(&g->r, g->n_files)];
    }
    f->size = gen_size(g);
    char p[160];
    gen_name(p, sizeof p, f->dir, f->name, "DOC");
    gen_op(g, SB_DBENCH_QPATHINFO, p, NULL, !fresh);
    int32_t h = gen_open(g, p, 0x40, SB_DBENCH_OVERWRITE_IF, true);
    gen_write_body(g, h, f->size);
    if (sb_rand_below(&g->r, 100) < 22)
        gen_hop(g, SB_DBENCH_QFILEINFO, h, 0, 0, 0);
    if (sb_rand_below(&g->r, 10) < 4)
        gen_hop(g, SB_DBENCH_SFILEINFO, h, 0, 0, 0);
    if (sb_rand_below(&g->r, 100) < 34)
        gen_hop(g, SB_DBENCH_FLUSH, h, 0, 0, 0);
    gen_hop(g, SB_DBENCH_CLOSE, h, 0, 0, 0);
}

/* Save through a temporary file: write it, delete the old version, rename. */
static void scene_replace(gen *g)
{
    if (g->n_files == 0)
        return;
    gen_file *f = &g->files[sb_rand_below(&g->r, g->n_files)];
    char p[160], tmp[160];
    gen_name(p, sizeof p, f->dir, f->name, "DOC");
    gen_name(tmp, sizeof tmp, f->dir, g->next_name++, "TMP");
    f->size = gen_size(g);
    int32_t h = gen_open(g, tmp, 0x40, SB_DBENCH_CREATE, true);
    gen_write_body(g, h, f->size);
    gen_hop(g, SB_DBENCH_CLOSE, h, 0, 0, 0);
    gen_op(g, SB_DBENCH_UNLINK, p, NULL, true);
    gen_op(g, SB_DBENCH_RENAME, tmp, p, true);
}

/* Browse a folder: list it, probe for files that are not there, ask for free space. */
static void scene_browse(gen *g)
{
    unsigned d = (unsigned)sb_rand_below(&g->r, GEN_N_DIRS);
    char p[160];
    snprintf(p, sizeof p, "\\clients\\client1\\~dmtmp\\%s\\<.JNK", gen_dirs[d]);
    sb_dbench_op *op = gen_op(g, SB_DBENCH_FINDFIRST, p, NULL, true);
    if (op)
        op->a = 1366;
    if (sb_rand_below(&g->r, 3) != 0) {
        gen_name(p, sizeof p, d, 90000 + (uint32_t)sb_rand_below(&g->r, 9999), "BAK");
        gen_open(g, p, 0x40, SB_DBENCH_OPEN, false);
    }
    if (sb_rand_below(&g->r, 6) == 0 && g->n_files > 0) {
        gen_file *f = &g->files[sb_rand_below(&g->r, g->n_files)];
        gen_name(p, sizeof p, f->dir, f->name, "DOC");
        gen_op(g, SB_DBENCH_QPATHINFO, p, NULL, true);
    }
    if (sb_rand_below(&g->r, 2) == 0)
        gen_op(g, SB_DBENCH_QFSINFO, NULL, NULL, true);
}

static void scene_delete(gen *g)
{
    if (g->n_files < 8)
        return;
    size_t i = (size_t)sb_rand_below(&g->r, g->n_files);
    char p[160];
    gen_name(p, sizeof p, g->files[i].dir, g->files[i].name, "DOC");
    gen_op(g, SB_DBENCH_QPATHINFO, p, NULL, true);
    gen_op(g, SB_DBENCH_UNLINK, p, NULL, true);
    g->files[i] = g->files[--g->n_files];
}

int sb_dbench_generate(sb_dbench_script *s, uint64_t seed, size_t n_ops)
{
    memset(s, 0, sizeof *s);
    gen g = {.s = s, .next_handle = 10000};
    sb_rand_seed(&g.r, seed);

    /* Set-up: a fresh client directory and its folders, as client.txt begins. */
    gen_op(&g, SB_DBENCH_DELTREE, "\\clients\\client1", NULL, true);
    gen_op(&g, SB_DBENCH_MKDIR, "\\clients", NULL, true);
    int32_t h = gen_open(&g, "\\clients\\client1", SB_DBENCH_FILE_DIRECTORY_FILE, SB_DBENCH_CREATE, true);
    gen_hop(&g, SB_DBENCH_CLOSE, h, 0, 0, 0);
    h = gen_open(&g, "\\clients\\client1\\~dmtmp", SB_DBENCH_FILE_DIRECTORY_FILE, SB_DBENCH_CREATE, true);
    gen_hop(&g, SB_DBENCH_CLOSE, h, 0, 0, 0);
    for (unsigned d = 0; d < GEN_N_DIRS; d++) {
        char p[160];
        snprintf(p, sizeof p, "\\clients\\client1\\~dmtmp\\%s", gen_dirs[d]);
        h = gen_open(&g, p, SB_DBENCH_FILE_DIRECTORY_FILE, SB_DBENCH_CREATE, true);
        gen_hop(&g, SB_DBENCH_CLOSE, h, 0, 0, 0);
    }
    for (int i = 0; i < 24; i++)
        scene_write(&g);

    /* Scene weights per 1000: tuned so the operation mix follows client.txt's. */
    while (s->n < n_ops && g.err == 0) {
        uint64_t x = sb_rand_below(&g.r, 1000);
        if (x < 404)
            scene_read(&g);
        else if (x < 565)
            scene_write(&g);
        else if (x < 597)
            scene_replace(&g);
        else if (x < 725)
            scene_delete(&g);
        else
            scene_browse(&g);
    }
    gen_op(&g, SB_DBENCH_DELTREE, "\\clients\\client1", NULL, true);
    if (g.err)
        sb_dbench_script_free(s);
    return g.err;
}
