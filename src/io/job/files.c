/*
 * files — several files per job, as fio's nrfiles and filename=a:b: how many each
 * thread uses, what they are called (fio's filename_format, $jobname.$jobnum.$filenum
 * by default), how big each is (size divided among them unless filesize says), and
 * which one the next I/O goes to (fio's file_service_type and openfiles).
 *
 * Each file of a thread keeps its own offsets (a sequential position, a random map),
 * as fio's per-file state: the one in use lives in the worker itself (og, seq_pos,
 * pass_bytes), so that a job of one file pays nothing, and a switch swaps it with the
 * file's saved copy. A file whose pass is done leaves the rotation; when every file
 * is done the thread's pass is (fio's nr_done_files), and a time-based job or a
 * further loop starts them all again. With a skewed file choice (zipf, pareto,
 * normal) fio never marks a file done (it resets it): a pass is then the job's bytes
 * over all files.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/run/worker.h"

/* fio's default skews of the file choice (its FIO_DEF_ZIPF, _PARETO, normal's 0 %) */
#define DEF_ZIPF 1.1
#define DEF_PARETO 0.2

unsigned sb_io_files_per_thread(const sb_io_job *job)
{
    if (job->filename[0])
        return sb_opt_list_count(job->filename);
    return job->nrfiles ? job->nrfiles : 1;
}

/* fio: size is the thread's bytes over all its files, each file size / nfiles (a whole
 * number of blocks) unless filesize gives the files' size; filesize alone (which also
 * set size) makes each file that big. From here on job->size is per file. */
void sb_io_files_resolve(sb_io_job *job)
{
    unsigned n = sb_io_files_per_thread(job);
    if (n < 2 || job->filesize_max)
        return;
    if (!(job->filesize && job->filesize == job->size)) {
        job->size /= n;
        job->size -= job->size % job->bs;
    }
}

int sb_io_files_check(const sb_io_job *job, char *err, size_t errlen)
{
    unsigned n = sb_io_files_per_thread(job);
    /* a format may name a file in a directory below the job's ($filenum/$jobnum: fio
     * makes the directories, as prepare.c does), never one above it or elsewhere */
    const char *ff = job->filename_format;
    if (ff[0] == '/' || !strcmp(ff, "..") || !strncmp(ff, "../", 3) || strstr(ff, "/../") ||
        (strlen(ff) >= 3 && !strcmp(ff + strlen(ff) - 3, "/.."))) {
        snprintf(err, errlen, "filename_format '%s': a file above the job's directory or outside it "
                 "is not supported; give a name below it", ff);
        return -EINVAL;
    }
    if (n < 2)
        return 0;
    /* verify keeps a table per file and each I/O its file's (verify_run.c); trims of
     * verified blocks and the tests' plain pattern check are for one file */
    if (job->verify_pattern || job->trim_percentage) {
        snprintf(err, errlen, "%s with %u files per job is not supported (one file)",
                 job->trim_percentage ? "trim_percentage" : "the pattern check", n);
        return -EINVAL;
    }
    const char *one = job->offset_increment || job->offinc_pct ? "offset_increment" : job->zonemode == SB_ZONEMODE_ZBD ?
                      "zonemode=zbd" : job->fill_device ? "fill_device" : NULL;
    if (one) {
        snprintf(err, errlen, "%s with %u files per job is not supported (one file)", one, n);
        return -EINVAL;
    }
    uint64_t per = job->size / n; /* size=N%: known once the files are (sb_io_files_size_pct) */
    if (!(job->filesize && job->filesize == job->size) && !job->filesize_max && !job->size_pct &&
        per - per % job->bs < job->bs) {
        snprintf(err, errlen, "size %" PRIu64 " over %u files leaves less than a block (bs %" PRIu64
                 ") for each", job->size, n, job->bs);
        return -EINVAL;
    }
    return 0;
}

/* The name of thread j's file k in dir by filename_format: $jobname, $jobnum, $filenum
 * (fio's keywords); without a format fio's $jobname.$jobnum.$filenum, and for a job
 * without a name storbench's storbench-io.J (one file) or storbench-io.J.K. */
static int format_name(const sb_io_job *job, const char *dir, unsigned j, unsigned k, unsigned per,
                       char *out, size_t len)
{
    char name[sizeof job->name];
    size_t n = 0;
    for (const char *p = job->name; *p && n + 1 < sizeof name; p++)
        name[n++] = *p == '/' ? '_' : *p;
    name[n] = '\0';
    const char *fmt = job->filename_format[0] ? job->filename_format
                      : n ? "$jobname.$jobnum.$filenum"
                      : per > 1 ? "storbench-io.$jobnum.$filenum" : "storbench-io.$jobnum";
    /* fio's directory=A:B: thread j's files in the (j mod n)-th (dir is their list) */
    unsigned nd = sb_opt_list_count(dir), pick = nd ? j % nd : 0;
    while (pick--)
        dir += strlen(dir) + 1;
    size_t o = (size_t)snprintf(out, len, "%s/", dir);
    for (const char *p = fmt; *p && o < len; ) {
        int w = 0;
        if (!strncmp(p, "$jobname", 8))
            w = snprintf(out + o, len - o, "%s", name), p += 8;
        else if (!strncmp(p, "$jobnum", 7))
            w = snprintf(out + o, len - o, "%u", j), p += 7;
        else if (!strncmp(p, "$filenum", 8))
            w = snprintf(out + o, len - o, "%u", k), p += 8;
        else
            out[o] = *p++, w = 1;
        o += (size_t)w;
    }
    if (o >= len)
        return -ENAMETOOLONG;
    out[o] = '\0';
    return 0;
}

/* The job's files: a --filename list (every thread uses all of them), or per thread
 * nrfiles in dir. Names that come out alike (a filename_format without $jobnum) are one
 * file, shared, as fio's. map[j * per + k] is thread j's file k in files[]. */
int sb_io_files_name(const sb_io_job *job, const char *dir, file_ctx *files, unsigned *nfiles,
                     unsigned *map, char *err, size_t errlen)
{
    const unsigned per = sb_io_files_per_thread(job);
    unsigned n = 0;
    if (job->filename[0]) {
        const char *p = job->filename;
        for (unsigned k = 0; k < per; k++, p += strlen(p) + 1) {
            if (snprintf(files[k].path, sizeof files[k].path, "%s", p) >= (int)sizeof files[k].path)
                goto too_long;
            for (unsigned j = 0; j < job->numjobs; j++)
                map[j * per + k] = k;
        }
        *nfiles = per;
        return 0;
    }
    for (unsigned j = 0; j < job->numjobs; j++)
        for (unsigned k = 0; k < per; k++) {
            if (format_name(job, dir, j, k, per, files[n].path, sizeof files[n].path) < 0)
                goto too_long;
            unsigned same = 0;
            while (same < n && strcmp(files[same].path, files[n].path))
                same++;
            map[j * per + k] = same;
            if (same == n)
                n++;
        }
    *nfiles = n;
    return 0;
too_long:
    snprintf(err, errlen, "%s: %s", job->filename[0] ? job->filename : dir, strerror(ENAMETOOLONG));
    return -ENAMETOOLONG;
}

/* ------------------------------------------------------------ a thread's files */

/* The openfiles window: the first `openfiles` files not done, in order. */
static void window_reset(sb_io_fileset *fs)
{
    fs->nactive = 0;
    fs->next_new = 0;
    while (fs->nactive < fs->open_max && fs->next_new < fs->n)
        fs->active[fs->nactive++] = fs->next_new++;
    fs->rr = 0;
}

int sb_io_files_open(worker *w, const sb_io_job *job, const file_ctx *files, const unsigned *map,
                     char *err, size_t errlen)
{
    const unsigned per = sb_io_files_per_thread(job);
    if (per < 2)
        return 0;
    sb_io_fileset *fs = calloc(1, sizeof *fs);
    if (!fs || !(fs->f = calloc(per, sizeof *fs->f)) || !(fs->active = calloc(per, sizeof *fs->active)) ||
        !(fs->fds = calloc(per, sizeof *fs->fds))) {
        if (fs) {
            free(fs->f);
            free(fs->active);
        }
        free(fs);
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    w->fs = fs;
    fs->n = per;
    for (unsigned k = 0; k < per; k++)
        fs->f[k].fd = -1;
    for (unsigned k = 0; k < per; k++) {
        sb_io_wfile *f = &fs->f[k];
        int r = k == 0 ? (f->fd = w->fd, 0)
                       : sb_io_open_for_io(job, files[map[w->index * per + k]].path, &f->fd, err, errlen);
        if (r < 0)
            return r;
        fs->fds[k] = f->fd;
        f->og = w->og; /* the same layout, keys of its own */
        uint64_t fsz = files[map[w->index * per + k]].size;
        f->size = fsz;
        /* sizes drawn: each file its own random map, as the worker's (worker_draw.c), whose
         * own is file 0's */
        uint64_t fbytes = fsz ? fsz : job->size;
        if (k == 0)
            f->vmap = w->vmap;
        else if (w->vmap.nblocks && fbytes >= w->bs_min &&
                 sb_varmap_init(&f->vmap, (fbytes - w->bs_min) / job->bs + 1) < 0) {
            snprintf(err, errlen, "out of memory");
            return -ENOMEM;
        }
        if (fsz && k) /* filesize=LO-HI: its own number of blocks (offsets of one size: check.c) */
            sb_offgen_init(&f->og, fsz / job->bs, sb_rw_is_random(job->rw), job->norandommap,
                           w->sh->seed + 0x100 * (w->index + 1) + k);
        sb_rand_seed(&f->og.rng, w->sh->seed + 0x10000ull * (k + 1) + w->index);
        sb_offgen_new_pass(&f->og);
        f->og.pass = 0;
    }
    fs->f[0].og = w->og;
    fs->kind = job->file_service;
    fs->nr = job->file_service_nr ? job->file_service_nr : 1;
    fs->open_max = job->openfiles && job->openfiles < per && fs->kind <= SB_FSRV_SEQUENTIAL ? job->openfiles
                                                                                          : per;
    fs->pass_total = job->size * per;
    sb_rand_seed(&fs->rng, w->sh->seed * 31 + w->index + 0xf11e5);
    if (fs->kind >= SB_FSRV_ZIPF) {
        /* fio draws from nfiles << 10 ranks and shifts them down: the same here */
        sb_io_dist d = {0};
        d.kind = fs->kind == SB_FSRV_ZIPF ? SB_DIST_ZIPF : fs->kind == SB_FSRV_PARETO ? SB_DIST_PARETO
                                                                                    : SB_DIST_NORMAL;
        d.param = job->file_service_skew > 0 ? job->file_service_skew
                  : fs->kind == SB_FSRV_ZIPF ? DEF_ZIPF : fs->kind == SB_FSRV_PARETO ? DEF_PARETO : 0;
        sb_distgen_init(&fs->dg, &d, (uint64_t)per << 10, 1, w->sh->seed + w->index + 0xd157);
    }
    window_reset(fs);
    fs->cur = 0;
    w->td.fds = fs->fds; /* the engine's view: every file, the first in use */
    w->td.nfds = per;
    w->td.file = 0;
    w->seqmix.wrap = false; /* randread:N rewinds to 0 in a job of one file only (fio's) */
    fs->left = fs->nr; /* the first file is in use from the start, the next one after it */
    fs->rr = 1;
    return 0;
}

void sb_io_files_close(worker *w)
{
    sb_io_fileset *fs = w->fs;
    if (!fs)
        return;
    for (unsigned k = 1; k < fs->n; k++) /* file 0 is w->fd, closed by its owner */
        if (fs->f[k].fd >= 0)
            close(fs->f[k].fd);
    for (unsigned k = 0; k < fs->n; k++) /* the file in use's map is the worker's (it frees it) */
        if (k != fs->cur)
            sb_varmap_free(&fs->f[k].vmap);
    free(fs->f);
    free(fs->active);
    free(fs->fds);
    free(fs);
    w->fs = NULL;
    w->td.fds = NULL;
    w->td.nfds = w->td.file = 0;
}

/* Makes file k the one in use: the worker's offset state goes back to the file it
 * belongs to and k's comes in. */
static void switch_to(worker *w, unsigned k)
{
    sb_io_fileset *fs = w->fs;
    sb_io_wfile *a = &fs->f[fs->cur], *b = &fs->f[k];
    a->og = w->og;
    a->seq_pos = w->seq_pos;
    a->pass_bytes = w->pass_bytes;
    a->mixpos = w->seqmix.pos;
    w->seqmix.pos = b->mixpos;
    a->vmap = w->vmap;
    w->vmap = b->vmap;
    w->og = b->og;
    w->seq_pos = b->seq_pos;
    w->pass_bytes = b->pass_bytes;
    w->fs_size = b->size; /* next_var's region (sizes drawn, filesize=LO-HI) */
    if (w->vt) /* verify: the file's block table */
        sb_verify_use(w->vt, k);
    fs->cur = k;
    w->td.fd = b->fd;
    w->td.file = k;
}

/* The next file to serve, as fio's __get_next_file: the current one while its ":N"
 * I/Os last (sequential: until it is done), else the next in the window (roundrobin,
 * sequential), one of the window at random, or a skewed draw over all files. */
void sb_io_files_pick(worker *w)
{
    sb_io_fileset *fs = w->fs;
    if (!fs->f[fs->cur].done && (fs->kind == SB_FSRV_SEQUENTIAL || fs->left > 0)) {
        if (fs->kind != SB_FSRV_SEQUENTIAL)
            fs->left--;
        return;
    }
    unsigned k;
    if (fs->kind >= SB_FSRV_ZIPF)
        k = (unsigned)(sb_distgen_next(&fs->dg, &fs->rng) >> 10) % fs->n;
    else if (fs->kind == SB_FSRV_RANDOM)
        k = fs->active[sb_rand_below(&fs->rng, fs->nactive)];
    else if (fs->kind == SB_FSRV_SEQUENTIAL) { /* the lowest file not done: in order */
        k = fs->active[0];
        for (unsigned i = 1; i < fs->nactive; i++)
            k = fs->active[i] < k ? fs->active[i] : k;
    } else
        k = fs->active[fs->rr++ % fs->nactive];
    fs->left = fs->nr - 1;
    if (k != fs->cur)
        switch_to(w, k);
}

/* The I/O just chosen ended its file's pass (file_end) and moved len bytes: true when
 * that ends the thread's pass over all its files (every file is then started again). */
bool sb_io_files_pass_end(worker *w, bool file_end, uint32_t len)
{
    sb_io_fileset *fs = w->fs;
    if (fs->kind >= SB_FSRV_ZIPF) { /* files are never done: a pass is the job's bytes */
        fs->pass_bytes += len;
        if (fs->pass_bytes < fs->pass_total)
            return false;
        fs->pass_bytes = 0;
        return true;
    }
    if (!file_end)
        return false;
    sb_io_wfile *f = &fs->f[fs->cur];
    f->done = true;
    if (++fs->ndone < fs->n) {
        /* it leaves the window; the next file not yet opened takes its place */
        unsigned i = 0;
        while (fs->active[i] != fs->cur)
            i++;
        if (fs->next_new < fs->n)
            fs->active[i] = fs->next_new++;
        else
            fs->active[i] = fs->active[--fs->nactive];
        fs->left = 0; /* the next I/O picks another file */
        return false;
    }
    for (unsigned k = 0; k < fs->n; k++)
        fs->f[k].done = false;
    fs->ndone = 0;
    window_reset(fs);
    fs->left = 0;
    return true;
}

/* The size in bytes of the file or device at path (-1: it cannot be opened). */
static int64_t path_bytes(const char *path)
{
    struct stat st;
    uint64_t bytes = 0;
    int fd = path[0] ? open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) : -1;
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) < 0) {
        close(fd);
        return -1;
    }
    if (S_ISBLK(st.st_mode))
        ioctl(fd, BLKGETSIZE64, &bytes);
    else
        bytes = (uint64_t)st.st_size;
    close(fd);
    return (int64_t)bytes;
}

/* fio's percentages of "the file": offset=N% and offset_increment=N% of the first file
 * (aligned up to offset_align, default bs: fio's get_start_offset), size=N% of each file
 * of filename=a:b (fio applies it file by file: the job's size is their sum; storbench
 * divides that evenly among the files, so they must be of one size). */
int sb_io_files_size_pct(sb_io_job *job, char *err, size_t errlen)
{
    if (!job->size_pct && !job->offset_pct && !job->offinc_pct)
        return 0;
    const char *path = job->filename;
    int64_t first = path_bytes(path);
    if (first < 0) {
        const char *what = job->size_pct ? "size" : job->offset_pct ? "offset" : "offset_increment";
        unsigned pct = job->size_pct ? job->size_pct : job->offset_pct ? job->offset_pct - 1 : job->offinc_pct - 1;
        snprintf(err, errlen, "%s=%u%%: a percentage is of an existing file or device, and %s%s", what, pct,
                 path[0] ? path : "the job names none (directory=)", path[0] ? " does not exist" : "");
        return -EINVAL;
    }
    uint64_t bytes = (uint64_t)first, a = job->offset_align ? job->offset_align : job->bs;
    if (job->offset_pct) {
        uint64_t off = bytes / 100 * (job->offset_pct - 1) + bytes % 100 * (job->offset_pct - 1) / 100;
        job->offset = (off + a - 1) / a * a;
    }
    if (job->offinc_pct) { /* each thread's offset aligned up too (jobctl.c) */
        job->offset_increment = bytes / 100 * (job->offinc_pct - 1) + bytes % 100 * (job->offinc_pct - 1) / 100;
        job->offinc_align = a;
    }
    if (!job->size_pct)
        return 0;
    uint64_t total = 0;
    unsigned n = sb_io_files_per_thread(job);
    for (unsigned k = 0; k < n; k++, path += strlen(path) + 1) {
        int64_t b = k ? path_bytes(path) : first;
        if (b < 0) {
            snprintf(err, errlen, "size=%u%%: a percentage is of an existing file or device, and %s does not exist",
                     job->size_pct, path);
            return -EINVAL;
        }
        if ((uint64_t)b != bytes) { /* storbench divides the job's size evenly among its files */
            snprintf(err, errlen, "size=%u%% over files of different sizes (%s: %" PRIu64 " bytes, %s: %" PRIu64
                     " bytes) is not supported: fio takes %u %% of each", job->size_pct, job->filename, bytes, path,
                     (uint64_t)b, job->size_pct);
            return -EINVAL;
        }
        uint64_t room = (uint64_t)b > job->offset ? (uint64_t)b - job->offset : 0;
        uint64_t size = (uint64_t)b / 100 * job->size_pct + (uint64_t)b % 100 * job->size_pct / 100;
        size = size > room ? room : size;
        total += size - size % job->bs;
    }
    job->size = total;
    if (job->size < job->bs) {
        snprintf(err, errlen, "size=%u%% of %s (%" PRIu64 " bytes) is less than a block", job->size_pct,
                 job->filename, bytes);
        return -EINVAL;
    }
    return 0;
}

/* fio's filesize=LO-HI: each file's size, a whole number of blocks: one that exists with a
 * size in the range keeps it (as fio's), else one drawn in [LO, HI) from the job's seed
 * and the file's place (never less than a block). */
void sb_io_files_sizes(const sb_io_job *job, file_ctx *files, unsigned nfiles, uint64_t seed)
{
    sb_rand r;
    sb_rand_seed(&r, seed ^ 0xf11e512eull);
    for (unsigned i = 0; i < nfiles; i++) {
        struct stat st;
        uint64_t sz = sb_rand_below(&r, job->filesize_max - job->filesize) + job->filesize;
        if (stat(files[i].path, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size >= job->filesize &&
            (uint64_t)st.st_size <= job->filesize_max)
            sz = (uint64_t)st.st_size;
        sz -= sz % job->bs;
        files[i].size = sz < job->bs ? job->bs : sz;
    }
}
