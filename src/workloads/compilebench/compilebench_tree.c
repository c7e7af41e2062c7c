/*
 * compilebench_tree — see compilebench_tree.h. Everything is derived from
 * one sb_rand stream seeded with the given seed, so the same seed gives the
 * same tree on every machine.
 */
#include "workloads/compilebench/compilebench_tree.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rand.h"

/* The published size quantiles of the kernel-2.6.20 data set (probability, bytes). */
static const double cb_knots[][2] = {
    {0.00, 6},     {0.10, 390},    {0.25, 1303},  {0.50, 4055},
    {0.75, 11141}, {0.90, 26112},  {0.99, 97228}, {1.00, 873603},
};
#define CB_N_KNOTS (sizeof cb_knots / sizeof cb_knots[0])

/* Geometric interpolation between knots with the position raised to g: g = 1 is
 * log-linear; larger g bends each segment toward its lower knot, lowering the mean
 * while keeping every knot in place. */
static double cb_quantile(double u, double g)
{
    for (size_t k = 1; k < CB_N_KNOTS; k++) {
        if (u <= cb_knots[k][0] || k == CB_N_KNOTS - 1) {
            double p0 = cb_knots[k - 1][0], p1 = cb_knots[k][0];
            double t = (u - p0) / (p1 - p0);
            if (t < 0)
                t = 0;
            if (t > 1)
                t = 1;
            double l0 = log(cb_knots[k - 1][1]), l1 = log(cb_knots[k][1]);
            return exp(l0 + pow(t, g) * (l1 - l0));
        }
    }
    return cb_knots[CB_N_KNOTS - 1][1];
}

static uint64_t cb_sizes(uint32_t *out, size_t n, double g)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        double u = n > 1 ? (double)i / (double)(n - 1) : 0.5;
        out[i] = (uint32_t)llround(cb_quantile(u, g));
        sum += out[i];
    }
    return sum;
}

static const char *const cb_words[] = {
    "arch", "block", "crypto", "drivers", "fs", "include", "init", "ipc", "kernel", "lib", "mm",
    "net", "security", "sound", "usr", "scripts", "acpi", "ata", "base", "char", "input", "md",
    "media", "mtd", "pci", "scsi", "serial", "usb", "video", "ext3", "xfs", "nfs", "ipv4", "ipv6",
    "core", "sched", "timer", "irq", "dma", "power", "sysfs", "proc", "asm", "linux", "mach",
    "boot", "cpu", "mem", "page", "slab", "sock", "tcp", "udp", "route", "filter", "bus", "hid",
};
#define CB_N_WORDS (sizeof cb_words / sizeof cb_words[0])

void sb_cb_tree_free(sb_cb_tree *t)
{
    if (t->dirs)
        for (size_t i = 0; i < t->n_dirs; i++)
            free(t->dirs[i]);
    free(t->dirs);
    free(t->files);
    memset(t, 0, sizeof *t);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

uint64_t sb_cb_tree_percentile(const sb_cb_tree *t, double p)
{
    if (t->n_files == 0)
        return 0;
    uint32_t *s = malloc(t->n_files * sizeof *s);
    if (!s)
        return 0;
    for (size_t i = 0; i < t->n_files; i++)
        s[i] = t->files[i].size;
    qsort(s, t->n_files, sizeof *s, cmp_u32);
    size_t idx = (size_t)floor(p / 100.0 * (double)(t->n_files - 1));
    uint64_t v = s[idx];
    free(s);
    return v;
}

/* Puts the directories in depth-first pre-order (a directory, then each of its
 * sub-directories in index order, recursively) and the files grouped by directory
 * in that order, keeping their order within a directory. That is how compilebench
 * writes a tree: it lists its data set in the order os.walk visits a copy of the
 * tree, so each directory's files are written together, right after the directory
 * is made. parent[d] < d for d > 0. 0 or -ENOMEM. */
static int cb_walk_order(sb_cb_tree *t, const uint32_t *parent)
{
    size_t nd = t->n_dirs, nf = t->n_files;
    size_t *first = calloc(nd + 1, sizeof *first), *kids = malloc(nd * sizeof *kids);
    size_t *seq = malloc(nd * sizeof *seq), *rank = malloc(nd * sizeof *rank);
    size_t *count = calloc(nd + 1, sizeof *count);
    char **dirs = malloc(nd * sizeof *dirs);
    sb_cb_file *files = malloc((nf ? nf : 1) * sizeof *files);
    int rc = -ENOMEM;
    if (!first || !kids || !seq || !rank || !count || !dirs || !files)
        goto out;
    /* Children of each directory, in index order (counting sort on the parent). */
    for (size_t d = 1; d < nd; d++)
        first[parent[d] + 1]++;
    for (size_t d = 0; d < nd; d++)
        first[d + 1] += first[d];
    for (size_t d = 1; d < nd; d++)
        kids[first[parent[d]] + count[parent[d]]++] = d;
    /* Pre-order walk; rank is the stack here (children pushed in reverse). */
    size_t sp = 0, n = 0;
    rank[sp++] = 0;
    while (sp) {
        size_t d = rank[--sp];
        seq[n++] = d;
        for (size_t k = first[d + 1]; k-- > first[d];)
            rank[sp++] = kids[k];
    }
    for (size_t i = 0; i < nd; i++) {
        rank[seq[i]] = i;
        dirs[i] = t->dirs[seq[i]];
    }
    /* Files: a stable counting sort by their directory's rank. */
    memset(count, 0, (nd + 1) * sizeof *count);
    for (size_t i = 0; i < nf; i++)
        count[rank[t->files[i].dir] + 1]++;
    for (size_t d = 0; d < nd; d++)
        count[d + 1] += count[d];
    for (size_t i = 0; i < nf; i++) {
        sb_cb_file f = t->files[i];
        f.dir = (uint32_t)rank[f.dir];
        files[count[f.dir]++] = f;
    }
    memcpy(t->dirs, dirs, nd * sizeof *dirs);
    if (nf)
        memcpy(t->files, files, nf * sizeof *files);
    rc = 0;
out:
    free(first);
    free(kids);
    free(seq);
    free(rank);
    free(count);
    free(dirs);
    free(files);
    return rc;
}

/* Directories: a random recursive tree, each new directory under an earlier one no
 * deeper than 8 levels, so the shape resembles a source tree (wide, a few deep). */
static int cb_make_dirs(sb_cb_tree *t, sb_rand *r, unsigned char *depth, uint32_t *parents)
{
    t->dirs[0] = strdup("");
    if (!t->dirs[0])
        return -ENOMEM;
    for (size_t d = 1; d < t->n_dirs; d++) {
        size_t parent;
        do
            parent = (size_t)sb_rand_below(r, d);
        while (depth[parent] >= 7);
        depth[d] = (unsigned char)(depth[parent] + 1);
        parents[d] = (uint32_t)parent;
        const char *w = cb_words[sb_rand_below(r, CB_N_WORDS)];
        size_t len = strlen(t->dirs[parent]) + strlen(w) + 16;
        t->dirs[d] = malloc(len);
        if (!t->dirs[d])
            return -ENOMEM;
        snprintf(t->dirs[d], len, "%s%s%s%zu", t->dirs[parent], parent ? "/" : "", w, d);
    }
    return 0;
}

/* Sizes: find the shape exponent whose total is just at or under the target, then
 * give the missing bytes to the largest files below the maximum; shuffled (Fisher-Yates)
 * so sizes land on files at random. */
static void cb_fit_sizes(uint32_t *sizes, sb_rand *r)
{
    double lo = 0.5, hi = 6.0;
    for (int it = 0; it < 60; it++) {
        double mid = (lo + hi) / 2;
        if (cb_sizes(sizes, SB_CB_FILES, mid) > SB_CB_BYTES)
            lo = mid;
        else
            hi = mid;
    }
    uint64_t sum = cb_sizes(sizes, SB_CB_FILES, hi);
    for (size_t i = SB_CB_FILES - 2; sum < SB_CB_BYTES; i--) {
        uint64_t room = sizes[i + 1] - sizes[i];
        uint64_t add = SB_CB_BYTES - sum < room ? SB_CB_BYTES - sum : room;
        sizes[i] += (uint32_t)add;
        sum += add;
        if (i == (size_t)(SB_CB_FILES * 0.995))
            break;
    }
    for (size_t i = SB_CB_FILES - 1; i > 0; i--) {
        size_t j = (size_t)sb_rand_below(r, i + 1);
        uint32_t tmp = sizes[i];
        sizes[i] = sizes[j];
        sizes[j] = tmp;
    }
}

/* Files: a directory each, a kernel-like name; about half are .c, a third .h. The first
 * 3,263 .c files are the ones the compile phase builds: their objects are proportional to
 * their sources, scaled to 680.6 MiB in all. */
static void cb_make_files(sb_cb_file *all, const uint32_t *sizes, size_t n_dirs, sb_rand *r)
{
    uint64_t c_bytes = 0;
    size_t n_c = 0;
    for (size_t i = 0; i < SB_CB_FILES; i++) {
        sb_cb_file *f = &all[i];
        f->dir = (uint32_t)sb_rand_below(r, n_dirs);
        f->size = sizes[i];
        uint64_t kind = sb_rand_below(r, 100);
        const char *ext = kind < 48 ? ".c" : kind < 85 ? ".h" : kind < 90 ? ".S" : kind < 95 ? ".txt" : "";
        snprintf(f->name, sizeof f->name, "%s%zu%s", cb_words[sb_rand_below(r, CB_N_WORDS)], i, ext);
        if (kind < 48 && n_c < SB_CB_OBJECTS) {
            f->obj_size = 1; /* marked; sized below */
            c_bytes += f->size;
            n_c++;
        }
    }
    uint64_t obj_sum = 0;
    size_t last_obj = 0;
    for (size_t i = 0; i < SB_CB_FILES; i++) {
        if (!all[i].obj_size)
            continue;
        double share = (double)all[i].size / (double)c_bytes;
        all[i].obj_size = (uint32_t)(share * (double)SB_CB_OBJECT_BYTES);
        if (all[i].obj_size == 0)
            all[i].obj_size = 1;
        obj_sum += all[i].obj_size;
        last_obj = i;
    }
    if (n_c > 0 && obj_sum < SB_CB_OBJECT_BYTES)
        all[last_obj].obj_size += (uint32_t)(SB_CB_OBJECT_BYTES - obj_sum);
}

/* Scale: keep every file whose index falls in the first scale_pct of each 100. */
static void cb_scale(sb_cb_tree *t, unsigned scale_pct)
{
    size_t kept = 0;
    for (size_t i = 0; i < SB_CB_FILES; i++) {
        if (i % 100 >= scale_pct)
            continue;
        t->files[kept++] = t->files[i];
    }
    t->n_files = kept;
    for (size_t i = 0; i < kept; i++) {
        t->total_bytes += t->files[i].size;
        if (t->files[i].obj_size) {
            t->n_objects++;
            t->object_bytes += t->files[i].obj_size;
        }
    }
}

int sb_cb_tree_generate(sb_cb_tree *t, uint64_t seed, unsigned scale_pct)
{
    memset(t, 0, sizeof *t);
    if (scale_pct < 1)
        scale_pct = 1;
    if (scale_pct > 100)
        scale_pct = 100;
    sb_rand r;
    sb_rand_seed(&r, seed);
    t->n_dirs = SB_CB_DIRS;
    t->dirs = calloc(t->n_dirs, sizeof *t->dirs);
    unsigned char *depth = calloc(t->n_dirs, 1);
    uint32_t *parents = calloc(t->n_dirs, sizeof *parents);
    uint32_t *sizes = malloc(SB_CB_FILES * sizeof *sizes);
    sb_cb_file *all = calloc(SB_CB_FILES, sizeof *all);
    if (!t->dirs || !depth || !parents || !sizes || !all || cb_make_dirs(t, &r, depth, parents) < 0) {
        free(depth);
        free(parents);
        free(sizes);
        free(all);
        sb_cb_tree_free(t);
        return -ENOMEM;
    }
    /* The draws in this order: directories, sizes, files. */
    cb_fit_sizes(sizes, &r);
    cb_make_files(all, sizes, t->n_dirs, &r);
    t->files = all;
    cb_scale(t, scale_pct);
    free(depth);
    free(sizes);
    int rc = cb_walk_order(t, parents);
    free(parents);
    if (rc < 0)
        sb_cb_tree_free(t);
    return rc;
}
