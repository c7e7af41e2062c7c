/*
 * jobfile — fio's job files read into a list of jobs (jobfile.h). A file is read line
 * by line; a section's lines are collected (includes spliced in) and then applied in
 * two rounds, kb_base first, as fio gives kb_base the priority to be parsed before
 * the sizes it governs. [global] applies to the jobs that follow it, and a later
 * [global] changes only the jobs after it, as in fio.
 */
#include "io/options/jobfile.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "core/units.h"
#include "io/options/options.h"

#define LINE_MAX_LEN 8193 /* a line of up to 8191 bytes and its newline: fio reads with an 8 KiB buffer (OPT_LEN_MAX) */
#define MAX_INCLUDE_DEPTH 8

/* ------------------------------------------------------------ the job list */

sb_jobfile_job *sb_jobset_add(sb_jobset *set, const sb_io_job *from, const char *name,
                              const char *where)
{
    if (set->n == set->cap) {
        size_t cap = set->cap ? set->cap * 2 : 8;
        sb_jobfile_job **p = realloc(set->jobs, cap * sizeof *p);
        if (!p)
            return NULL;
        set->jobs = p;
        set->cap = cap;
    }
    sb_jobfile_job *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->job = *from;
    snprintf(j->job.name, sizeof j->job.name, "%s", name);
    snprintf(j->where, sizeof j->where, "%s", where);
    set->jobs[set->n++] = j;
    return j;
}

void sb_jobset_free(sb_jobset *set)
{
    for (size_t i = 0; i < set->n; i++)
        free(set->jobs[i]);
    free(set->jobs);
    memset(set, 0, sizeof *set);
}

/* ------------------------------------------------------------ expansion */

/* A tiny integer expression: + - * / and parentheses, as fio's keyword arithmetic. */
typedef struct expr { const char *p; bool bad; } expr;
static long long expr_sum(expr *e);

static void expr_space(expr *e)
{
    while (isspace((unsigned char)*e->p))
        e->p++;
}

static long long expr_atom(expr *e)
{
    expr_space(e);
    if (*e->p == '(') {
        e->p++;
        long long v = expr_sum(e);
        expr_space(e);
        if (*e->p++ != ')')
            e->bad = true;
        return v;
    }
    if (*e->p == '-') {
        e->p++;
        return -expr_atom(e);
    }
    if (!isdigit((unsigned char)*e->p)) {
        e->bad = true;
        return 0;
    }
    char *end;
    long long v = strtoll(e->p, &end, 10);
    e->p = end;
    return v;
}

static long long expr_product(expr *e)
{
    long long v = expr_atom(e);
    for (;;) {
        expr_space(e);
        char op = *e->p;
        if (op != '*' && op != '/')
            return v;
        e->p++;
        long long r = expr_atom(e);
        if (op == '/' && r == 0) {
            e->bad = true;
            return 0;
        }
        v = op == '*' ? v * r : v / r;
    }
}

static long long expr_sum(expr *e)
{
    long long v = expr_product(e);
    for (;;) {
        expr_space(e);
        char op = *e->p;
        if (op != '+' && op != '-')
            return v;
        e->p++;
        long long r = expr_product(e);
        v = op == '+' ? v + r : v - r;
    }
}

/* The value of fio's reserved keyword at s ("ncpus" ...), its length in *len; -1 if none. */
static long long keyword(const char *s, size_t *len)
{
    static const char *const names[] = {"ncpus", "pagesize", "mb_memory"};
    for (int i = 0; i < 3; i++) {
        size_t n = strlen(names[i]);
        if (strncmp(s, names[i], n) || isalnum((unsigned char)s[n]) || s[n] == '_')
            continue;
        *len = n;
        if (i == 0)
            return sysconf(_SC_NPROCESSORS_ONLN);
        if (i == 1)
            return sysconf(_SC_PAGESIZE);
        struct sysinfo si;
        return sysinfo(&si) == 0 ? (long long)((unsigned long long)si.totalram * si.mem_unit >> 20) : 0;
    }
    return -1;
}

static int put(char *out, size_t outlen, size_t *n, const char *s, size_t len)
{
    if (*n + len >= outlen)
        return -EINVAL;
    memcpy(out + *n, s, len);
    *n += len;
    out[*n] = '\0';
    return 0;
}

int sb_jobfile_expand(const char *value, char *out, size_t outlen)
{
    size_t n = 0;
    bool math = false;
    out[0] = '\0';
    for (const char *p = value; *p;) {
        size_t klen;
        long long kv;
        if (p[0] == '$' && p[1] == '{') {
            const char *close = strchr(p, '}');
            char var[256];
            if (!close || (size_t)(close - p - 2) >= sizeof var)
                return -EINVAL;
            memcpy(var, p + 2, (size_t)(close - p - 2));
            var[close - p - 2] = '\0';
            const char *v = var[0] ? getenv(var) : NULL;
            if (v && put(out, outlen, &n, v, strlen(v)) < 0)
                return -EINVAL;
            p = close + 1;
        } else if (p[0] == '$' && (kv = keyword(p + 1, &klen)) >= 0) {
            char num[32];
            snprintf(num, sizeof num, "%lld", kv);
            if (put(out, outlen, &n, num, strlen(num)) < 0)
                return -EINVAL;
            p += 1 + klen;
            math = true;
        } else {
            if (put(out, outlen, &n, p, 1) < 0)
                return -EINVAL;
            p++;
        }
    }
    if (math && strspn(out, "0123456789+-*/() ") == strlen(out)) {
        expr e = {out, false};
        long long v = expr_sum(&e);
        expr_space(&e);
        if (e.bad || *e.p)
            return -EINVAL;
        snprintf(out, outlen, "%lld", v);
    }
    return 0;
}

/* ------------------------------------------------------------ options */

bool sb_jobfile_given_add(sb_jobfile_given *g, const char *key, const char *value)
{
    size_t k = strlen(key) + 1, v = (value ? strlen(value) : 0) + 1;
    if (g->len + k + v > sizeof g->buf)
        return false;
    memcpy(g->buf + g->len, key, k);
    memcpy(g->buf + g->len + k, value ? value : "", v);
    g->len += k + v;
    return true;
}

/* The options of fio's rados and rbd engines (Ceph's object store and block devices): a
 * file naming them needs a Ceph cluster, and is told so rather than "unknown option". */
static bool ceph_option(const char *key)
{
    static const char *const names[] = {"clientname", "pool", "clustername", "rbdname", "busy_poll",
                                        "touch_objects", NULL};
    for (const char *const *n = names; *n; n++)
        if (!strcmp(*n, key))
            return true;
    return false;
}

int sb_jobfile_apply(sb_jobfile_job *j, const char *key, const char *value, unsigned ctx_kb,
                     char *err, size_t errlen)
{
    if (!strcmp(key, "stonewall") || !strcmp(key, "wait_for_previous") || !strcmp(key, "new_group")) {
        int b = 1;
        if (value && sb_parse_bool(value, &b) < 0 && sb_parse_set_value(value, &b) < 0) {
            snprintf(err, errlen, "%s: '%s' is not 0 or 1", key, value);
            return -EINVAL;
        }
        if (!strcmp(key, "new_group"))
            j->new_group = b;
        else
            j->stonewall = b;
        /* in fio's "job options" and --showcmd too (its JSON leaves a bare one out) */
        sb_jobfile_given_add(&j->given, !strcmp(key, "new_group") ? "new_group" : "stonewall", value);
        return 0;
    }
    if (!strcmp(key, "wait_for")) {
        if (!value || !*value || strlen(value) >= sizeof j->wait_for) {
            snprintf(err, errlen, "wait_for: needs a job's name");
            return -EINVAL;
        }
        snprintf(j->wait_for, sizeof j->wait_for, "%s", value);
        sb_jobfile_given_add(&j->given, key, value);
        return 0;
    }
    if (!strcmp(key, "profile")) { /* fio 3.33 stores it and nothing reads it */
        snprintf(err, errlen, "profile: in a job file fio keeps the name and loads no profile "
                 "from it (only its command line's --profile does); give --profile=%s", value ? value : "NAME");
        return -EINVAL;
    }
    if (!strcmp(key, "description")) { /* text about the job, which fio only prints */
        sb_jobfile_given_add(&j->given, key, value);
        snprintf(j->given.description, sizeof j->given.description, "%s", value ? value : "");
        return 0;
    }
    const sb_opt *o = sb_opt_find(sb_io_options, sb_io_n_options, key);
    if (!o && ceph_option(key)) {
        snprintf(err, errlen, "%s: an option of fio's rados and rbd engines, which need a Ceph "
                 "cluster (librados); storbench has no such engine", key);
        return -ENOENT;
    }
    if (!o) {
        snprintf(err, errlen, "unknown option '%s'", key);
        return -ENOENT;
    }
    const sb_opt_ctx ctx = {j->job.kb_base ? j->job.kb_base : ctx_kb};
    int r = sb_opt_parse(o, &j->job, key, value, &ctx, err, errlen);
    if (r == 0) /* as given, under the option's own name (fio's "job options" and --showcmd
                 * print readwrite= as rw, blocksize= as bs) */
        sb_jobfile_given_add(&j->given, o->name, value);
    return r;
}

/* ------------------------------------------------------------ reading */

/* One option line of a section: its text and place. */
typedef struct optline {
    char *text;
    char where[300];
    bool included;             /* from an `include`d file, not the one named on the command line */
} optline;

typedef struct section {
    optline *lines;
    size_t n, cap;
} section;

static void section_clear(section *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->lines[i].text);
    s->n = 0;
}

static int section_add(section *s, const char *text, const char *file, unsigned line)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        optline *p = realloc(s->lines, cap * sizeof *p);
        if (!p)
            return -ENOMEM;
        s->lines = p;
        s->cap = cap;
    }
    optline *l = &s->lines[s->n];
    if (!(l->text = strdup(text)))
        return -ENOMEM;
    snprintf(l->where, sizeof l->where, "%s:%u", file, line);
    s->n++;
    return 0;
}

/* The line without its comment (fio's: from the first ; or #) and surrounding blanks. */
static char *trim(char *p)
{
    p[strcspn(p, ";#\r\n")] = '\0';
    while (isspace((unsigned char)*p))
        p++;
    size_t n = strlen(p);
    while (n && isspace((unsigned char)p[n - 1]))
        p[--n] = '\0';
    return p;
}

/* `key=value` or `key` into j, with place in any error. */
static int apply_line(sb_jobfile_job *j, const optline *l, char *err, size_t errlen)
{
    char buf[LINE_MAX_LEN], val[LINE_MAX_LEN], why[1024];
    snprintf(buf, sizeof buf, "%s", l->text);
    char *eq = strchr(buf, '=');
    const char *value = NULL;
    if (eq) {
        *eq = '\0';
        char *v = eq + 1;
        while (isspace((unsigned char)*v))
            v++;
        if (sb_jobfile_expand(v, val, sizeof val) < 0) {
            snprintf(err, errlen, "%s: %s: cannot expand '%s'", l->where, trim(buf), v);
            return -EINVAL;
        }
        value = val;
    }
    char *key = trim(buf);
    /* the safety rule: a command runs only from a file the user named on the command line */
    if (l->included && !strncmp(key, "exec_", 5)) {
        snprintf(err, errlen, "%s: %s: an included file may not run commands (only the job file "
                 "named on the command line may)", l->where, key);
        return -EINVAL;
    }
    int r = sb_jobfile_apply(j, key, value, 1024, why, sizeof why);
    if (r < 0)
        snprintf(err, errlen, "%s: %s", l->where, why);
    return r;
}

/* Which round of apply_section a line belongs to, by its key: kb_base 0, filename 2 (fio
 * parses it after the rest, directory's prefix in place), the others 1. */
static int line_round(const char *text)
{
    size_t n = strcspn(text, "= \t");
    if (n == 7 && !strncmp(text, "kb_base", 7))
        return 0;
    return n == 8 && !strncmp(text, "filename", 8) ? 2 : 1;
}

/* Applies a section's lines: kb_base first (it governs how the sizes read), then the rest,
 * then filename (each line adds files named below the section's directory, as in fio). */
static int apply_section(sb_jobfile_job *j, const section *s, char *err, size_t errlen)
{
    int r;
    for (int round = 0; round < 3; round++)
        for (size_t i = 0; i < s->n; i++)
            if (line_round(s->lines[i].text) == round && (r = apply_line(j, &s->lines[i], err, errlen)) < 0)
                return r;
    return 0;
}

static int read_lines(const char *path, int depth, section *s, char *name, size_t namelen,
                      bool *got_section, FILE *f, unsigned *lineno, char *err, size_t errlen);

/* `include FILE`: its lines into s (no sections in it), FILE relative to the including
 * file when it is not found as given, as fio. */
static int include(const char *from, const char *arg, int depth, section *s, char *err, size_t errlen)
{
    char path[4096];
    const char *slash = strrchr(from, '/');
    if (access(arg, F_OK) < 0 && slash && arg[0] != '/')
        snprintf(path, sizeof path, "%.*s%s", (int)(slash - from + 1), from, arg);
    else
        snprintf(path, sizeof path, "%s", arg);
    if (depth >= MAX_INCLUDE_DEPTH) {
        snprintf(err, errlen, "%s: includes nested more than %d deep", path, MAX_INCLUDE_DEPTH);
        return -ELOOP;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        int e = errno;
        snprintf(err, errlen, "%s: %s", path, strerror(e));
        return -e;
    }
    unsigned lineno = 0;
    bool got = false;
    char name[256];
    int r = read_lines(path, depth + 1, s, name, sizeof name, &got, f, &lineno, err, errlen);
    fclose(f);
    if (r == 0 && got) {
        snprintf(err, errlen, "%s:%u: an included file has no sections", path, lineno);
        return -EINVAL;
    }
    return r;
}

/* Lines of f into s until the next [section] (its name into name, *got_section set) or
 * the end. */
static int read_lines(const char *path, int depth, section *s, char *name, size_t namelen,
                      bool *got_section, FILE *f, unsigned *lineno, char *err, size_t errlen)
{
    char buf[LINE_MAX_LEN];
    *got_section = false;
    while (fgets(buf, sizeof buf, f)) {
        ++*lineno;
        if (!strchr(buf, '\n') && !feof(f)) {
            snprintf(err, errlen, "%s:%u: line longer than %d bytes", path, *lineno, LINE_MAX_LEN - 2);
            return -EINVAL;
        }
        char *p = trim(buf);
        if (!*p)
            continue;
        if (*p == '[') {
            char *close = strchr(p, ']');
            /* fio 3.33 takes a header without its ']' and drops the line's last character
             * as though it were one: "[bs=64K" is the job "bs=64" */
            if (!close && strlen(p) > 2)
                close = p + strlen(p) - 1;
            if (!close || close == p + 1 || (size_t)(close - p - 1) >= namelen) {
                snprintf(err, errlen, "%s:%u: '%s' is not a [section]", path, *lineno, p);
                return -EINVAL;
            }
            *close = '\0';
            snprintf(name, namelen, "%s", p + 1);
            *got_section = true;
            return 0;
        }
        if (!strncmp(p, "include", 7) && isspace((unsigned char)p[7])) {
            const char *arg = p + 8;
            while (isspace((unsigned char)*arg))
                arg++;
            int r = include(path, arg, depth, s, err, errlen);
            if (r < 0)
                return r;
            continue;
        }
        int r = section_add(s, p, path, *lineno);
        if (r < 0) {
            snprintf(err, errlen, "out of memory");
            return r;
        }
        s->lines[s->n - 1].included = depth > 0;
    }
    return 0;
}

static bool wanted(const char *name, const char *const *sections, size_t n)
{
    if (!n)
        return true;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(sections[i], name))
            return true;
    return false;
}

int sb_jobfile_read(const char *path, const sb_io_job *defaults, const char *const *sections,
                    size_t nsections, bool stonewall, sb_jobset *set, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        int e = errno;
        snprintf(err, errlen, "%s: %s", path, strerror(e));
        return -e;
    }
    sb_jobfile_job *global = calloc(1, sizeof *global);
    section s = {0};
    char name[256], next[256];
    unsigned lineno = 0, at = 0;
    bool got;
    int r = global ? 0 : -ENOMEM;
    if (global) {
        global->job = *defaults;
        /* lines before any section: fio refuses them */
        r = read_lines(path, 0, &s, next, sizeof next, &got, f, &lineno, err, errlen);
        if (r == 0 && s.n) {
            snprintf(err, errlen, "%s: option '%s' outside of a [section]", s.lines[0].where,
                     s.lines[0].text);
            r = -EINVAL;
        }
    }
    while (r == 0 && got) {
        snprintf(name, sizeof name, "%s", next);
        at = lineno;
        section_clear(&s);
        if ((r = read_lines(path, 0, &s, next, sizeof next, &got, f, &lineno, err, errlen)) < 0)
            break;
        if (!strncmp(name, "global", 6)) {
            r = apply_section(global, &s, err, errlen);
            continue;
        }
        if (!wanted(name, sections, nsections))
            continue;
        char where[300];
        snprintf(where, sizeof where, "%s:%u", path, at);
        sb_jobfile_job *j = sb_jobset_add(set, &global->job, name, where);
        if (!j) {
            r = -ENOMEM;
            break;
        }
        /* fio's kb_base in job files: 1024 unless set */
        if (!j->job.kb_base)
            j->job.kb_base = 1024;
        j->stonewall = global->stonewall || stonewall;
        j->new_group = global->new_group;
        snprintf(j->wait_for, sizeof j->wait_for, "%s", global->wait_for);
        memcpy(j->given.description, global->given.description, sizeof j->given.description);
        stonewall = false;
        r = apply_section(j, &s, err, errlen);
        if (r == 0)
            sb_io_job_resolve(&j->job);
    }
    if (r == -ENOMEM)
        snprintf(err, errlen, "out of memory");
    section_clear(&s);
    free(s.lines);
    /* the [global] options as given, for fio's "global options" */
    if (global && set->global.len + global->given.len <= sizeof set->global.buf) {
        memcpy(set->global.buf + set->global.len, global->given.buf, global->given.len);
        set->global.len += global->given.len;
    }
    free(global);
    fclose(f);
    return r;
}

int sb_jobset_order(sb_jobset *set, char *err, size_t errlen)
{
    unsigned phase = 0, group = 0;
    size_t phase_start = 0;
    for (size_t i = 0; i < set->n; i++) {
        sb_jobfile_job *j = set->jobs[i];
        bool barrier = i > 0 && j->stonewall;
        if (j->wait_for[0]) {
            size_t k = 0;
            while (k < i && strcmp(set->jobs[k]->job.name, j->wait_for))
                k++;
            /* fio's --parse-only takes it; its run fails ("waitee job X unknown") */
            if (k == i)
                snprintf(j->job.run_fail, sizeof j->job.run_fail, "wait_for=%s names no job before it",
                         j->wait_for);
            else
                barrier |= k >= phase_start;
        }
        if (barrier) {
            phase++;
            phase_start = i;
        }
        /* fio: a stonewall also starts a new group, as new_group does */
        if (i > 0 && (j->new_group || j->stonewall))
            group++;
        j->phase = phase;
        j->group = group;
    }
    return 0;
}
