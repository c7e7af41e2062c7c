/*
 * durability — does data acknowledged by fsync/fdatasync survive a sudden power
 * loss on this software stack? A crash-consistency replay, as the kernel's
 * fstests do it: a filesystem (fs, mount-options) is made on a recorded device
 * (durability_stack.h: dm-log-writes where the kernel has it, else a FUSE file
 * under a loop device), and a writer writes `writes` blocks with verify headers
 * (io/verify.h) at random places in one file, calling the sync call after each and
 * marking every acknowledged sync in the write log.
 *
 * Power cuts: at `cuts` acknowledged syncs sampled at random, and at a random
 * moment between each of them and the next, the log is replayed onto a fresh copy
 * of the device as it was before the writer started, keeping only what a device
 * with a volatile write cache must have kept at that moment (writes before the
 * last FLUSH it had received, and FUA writes: writelog_replay), mounted, and every
 * block checked: each block whose last acknowledged write came before the cut
 * must hold that write (else it is lost: older content, zeros, missing); a block
 * whose write had started but was not acknowledged may hold the old or the new
 * write, never a mixture (torn). A filesystem that does not mount loses all.
 *
 * The figure is the share of cut points at which acknowledged data was lost or
 * torn; the run records writes checked, lost and torn beside it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/rand.h"
#include "core/log.h"
#include "io/verify/verify.h"
#include "workloads/durability/durability_cmd.h"
#include "workloads/durability/durability_guard.h"
#include "workloads/durability/durability_stack.h"
#include "workloads/catalogue.h"
#include "workloads/durability/writelog.h"

#define BS 4096u

static const sb_choice fs_choices[] = {
    {"auto", "Same As Target"}, {"ext4", "ext4"}, {"btrfs", "Btrfs"}, {"xfs", "XFS"}, {NULL, NULL}};
static const sb_choice sync_choices[] = {{"fsync", "fsync"}, {"fdatasync", "fdatasync"}, {NULL, NULL}};
static const sb_choice rec_choices[] = {
    {"auto", "Auto"}, {"dm-log-writes", "dm-log-writes"}, {"fuse", "FUSE"}, {NULL, NULL}};

static const sb_option dur_options[] = {
    {"fs", "Filesystem", "auto", NULL, fs_choices,
     "filesystem made on the recorded device; auto: the target's (ext4, btrfs or xfs)", 0, .kind = SB_VAL_CHOICE},
    {"mount-options", "Mount Options", "auto", NULL, NULL,
     "its mount options, comma-separated (nobarrier: no flushes); auto: the target's that bear "
     "on durability", 0, .kind = SB_VAL_TEXT},
    {"sync", "Sync Call", "fsync", NULL, sync_choices, "the call after each write", 0, .kind = SB_VAL_CHOICE},
    {"writes", "Writes", "200", "40", NULL, "4 KiB writes, each acknowledged by the sync call",
     SB_OPT_IF_CHANGED, .kind = SB_VAL_UINT, .min = 1, .max = 100000},
    {"blocks", "File Blocks", "64", "16", NULL,
     "the file's size in 4 KiB blocks; writes pick one at random, so later ones overwrite",
     SB_OPT_IF_CHANGED, .kind = SB_VAL_UINT, .min = 1, .max = 65536},
    {"cuts", "Cut Points", "40", "8", NULL,
     "acknowledged syncs sampled as power cuts, each also with a random moment after it",
     SB_OPT_IF_CHANGED, .kind = SB_VAL_UINT, .min = 1, .max = 100000},
    {"recorder", "Recorder", "auto", NULL, rec_choices,
     "how writes are recorded: dm-log-writes where the kernel has it, else FUSE", SB_OPT_HIDDEN, .kind = SB_VAL_CHOICE},
    {"seed", "Seed", "1", NULL, NULL, "seed of the block choice and the sample of cut points",
     SB_OPT_HIDDEN, .kind = SB_VAL_UINT, .min = 0, .max = UINT64_MAX},
};

static const sb_measure dur_measures[] = {
    {"Cut Points With Lost Data", "%", SB_LOWER_IS_BETTER},
};

/* The options, resolved once (the strings are the configuration's: declared choices or
 * the user's words, which outlive the run). */
typedef struct dur_params {
    const char *fs, *mount_options, *recorder;
    bool use_fdatasync;
    uint64_t writes, blocks, cuts, seed;
} dur_params;

typedef struct dur {
    sb_run_ctx *ctx;
    const char *recorder;      /* the recorder= option */
    const char *fs;
    char opts[256];
    bool use_fdatasync;
    uint64_t writes, blocks, cuts, seed;
    char base[PATH_MAX], work[PATH_MAX], log[PATH_MAX], cut[PATH_MAX], mnt[PATH_MAX];
    sb_verify_fmt fmt;
    dur_guard guard;           /* serves the FUSE recorder; takes everything apart if we are killed */
    uint32_t *block_of;        /* [writes + 1]: the block write i went to */
    uint64_t *start, *ack;     /* [writes + 1]: log index of the marks "w-i", "a-i" */
    uint64_t checked, lost, torn, n_cuts, cuts_bad, unmountable;
} dur;

static int dur_resolve(const sb_config *cfg, void *params, char *err, size_t errlen)
{
    dur_params *p = params;
    if (sb_config_check(cfg, err, errlen) < 0)
        return -EINVAL;
    const char *o = sb_config_get(cfg, "mount-options");
    if (strlen(o) >= 200 || strspn(o, "abcdefghijklmnopqrstuvwxyz0123456789=,_-.:") != strlen(o) || !o[0]) {
        snprintf(err, errlen, "mount-options '%s': comma-separated words (letters, digits, = , _ - . :)", o);
        return -EINVAL;
    }
    p->fs = sb_config_get(cfg, "fs");
    p->mount_options = o;
    p->recorder = sb_config_get(cfg, "recorder");
    p->use_fdatasync = !strcmp(sb_config_get(cfg, "sync"), "fdatasync");
    p->writes = sb_config_u(cfg, "writes");
    p->blocks = sb_config_u(cfg, "blocks");
    p->cuts = sb_config_u(cfg, "cuts");
    p->seed = sb_config_u(cfg, "seed");
    return 0;
}

/* fs=auto: the target's filesystem, when it is one that can be made here. */
static const char *target_fs(const char *dir)
{
    struct statfs sf;
    if (statfs(dir, &sf) < 0)
        return NULL;
    switch ((unsigned long)sf.f_type) {
    case EXT4_SUPER_MAGIC: return "ext4";
    case BTRFS_SUPER_MAGIC: return "btrfs";
    case XFS_SUPER_MAGIC: return "xfs";
    default: return NULL;
    }
}

/* mount-options=auto: those of the target's mount that bear on durability. */
static void target_opts(const char *dir, char *out, size_t len)
{
    static const char *const keep[] = {"nobarrier", "barrier=0", "barrier=1", "data=", "commit=",
                                       "journal_async_commit", "flushoncommit", "nodatasum", "nodatacow",
                                       "wsync", NULL};
    out[0] = '\0';
    char real[PATH_MAX], line[4096], best[4096] = "";
    size_t best_len = 0;
    FILE *f = realpath(dir, real) ? fopen("/proc/self/mountinfo", "r") : NULL;
    while (f && fgets(line, sizeof line, f)) {
        char mp[PATH_MAX], *dash = strstr(line, " - ");
        if (!dash || sscanf(line, "%*s %*s %*s %*s %4095s", mp) != 1)
            continue;
        size_t n = strlen(mp);
        if (!strncmp(real, mp, n) && (real[n] == '/' || real[n] == '\0' || n == 1) && n >= best_len) {
            best_len = n;
            snprintf(best, sizeof best, "%s", dash + 3);
        }
    }
    if (f)
        fclose(f);
    char *opts = NULL; /* "fstype source superopts" */
    if (best[0] && (opts = strchr(best, ' ')) && (opts = strchr(opts + 1, ' '))) {
        opts[strcspn(opts, "\n")] = '\0';
        for (char *save, *t = strtok_r(opts + 1, ",", &save); t; t = strtok_r(NULL, ",", &save))
            for (int i = 0; keep[i]; i++)
                if (!strncmp(t, keep[i], strlen(keep[i])) &&
                    (keep[i][strlen(keep[i]) - 1] == '=' || !strcmp(t, keep[i])) &&
                    strlen(out) + strlen(t) + 2 < len) {
                    strcat(out, out[0] ? "," : "");
                    strcat(out, t);
                }
    }
}

/* The image size: a little more than each filesystem's minimum. */
static uint64_t image_size(const char *fs)
{
    return !strcmp(fs, "btrfs") ? 256ull << 20 : !strcmp(fs, "xfs") ? 320ull << 20 : 64ull << 20;
}

static uint64_t dur_space_needed(const void *params)
{
    /* base, recorded and cut images (sparse, but bounded by their size) and the log */
    const dur_params *p = params;
    return 3 * image_size(strcmp(p->fs, "auto") ? p->fs : "xfs") + p->writes * 64 * 1024;
}

static int make_fs(dur *d, char *err, size_t errlen)
{
    int fd = open(d->base, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0 || ftruncate(fd, (off_t)image_size(d->fs)) < 0) {
        snprintf(err, errlen, "%s: %s", d->base, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -errno;
    }
    close(fd);
    char mkfs[32];
    snprintf(mkfs, sizeof mkfs, "mkfs.%s", d->fs);
    const char *argv[] = {mkfs, !strcmp(d->fs, "ext4") ? "-F" : "-f", "-q", d->base, NULL};
    return dur_run(argv, err, errlen);
}

/* ------------------------------------------------------------ recording */

/* The writer on the mounted filesystem: write i (1..writes) to a random block,
 * the sync call, then the mark "a-i" (a mark "w-i" goes before the write). */
static int write_acked(dur *d, dur_recorder *r, char *err, size_t errlen)
{
    char path[PATH_MAX + 8], mark[32];
    snprintf(path, sizeof path, "%s/data", d->mnt);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -errno;
    }
    void *buf = NULL;
    if (posix_memalign(&buf, 4096, BS)) {
        close(fd);
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    sb_rand rng;
    sb_rand_seed(&rng, d->seed);
    int rc = 0;
    for (uint64_t i = 1; i <= d->writes && rc == 0; i++) {
        if (sb_ctx_interrupted(d->ctx)) {
            rc = -EINTR;
            break;
        }
        uint32_t b = (uint32_t)sb_rand_below(&rng, d->blocks);
        d->block_of[i] = b;
        sb_verify_format(&d->fmt, buf, (uint64_t)b * BS, 0, i);
        snprintf(mark, sizeof mark, "w-%" PRIu64, i); /* one word: dmsetup splits a mark at blanks */
        if ((rc = dur_rec_mark(r, mark)) < 0)
            break;
        if (pwrite(fd, buf, BS, (off_t)b * BS) != (ssize_t)BS ||
            (d->use_fdatasync ? fdatasync(fd) : fsync(fd)) < 0) {
            rc = errno ? -errno : -EIO;
            snprintf(err, errlen, "%s: write %" PRIu64 ": %s", path, i, strerror(-rc));
            break;
        }
        snprintf(mark, sizeof mark, "a-%" PRIu64, i);
        rc = dur_rec_mark(r, mark);
        sb_ctx_progress(d->ctx, 0.3 * (double)i / (double)d->writes);
    }
    if (rc < 0 && rc != -EINTR && !err[0])
        snprintf(err, errlen, "marking the write log: %s", strerror(-rc));
    free(buf);
    close(fd);
    return rc;
}

/* Records the writer: recorder, mount, writer, unmount, recorder stopped. */
static int record(dur *d, dur_rec_kind kind, char *err, size_t errlen)
{
    int rc = dur_copy_image(d->base, d->work, err, errlen);
    if (rc < 0)
        return rc;
    dur_recorder r;
    rc = dur_rec_start(&r, kind, &d->guard, d->work, d->log, d->ctx->dir, err, errlen);
    bool mounted = false;
    if (rc == 0) {
        if (mount(r.dev, d->mnt, d->fs, 0, d->opts) < 0) {
            rc = -errno;
            snprintf(err, errlen, "mount -t %s -o %s %s: %s", d->fs, d->opts[0] ? d->opts : "defaults",
                     r.dev, strerror(errno));
        } else {
            mounted = true;
            rc = write_acked(d, &r, err, errlen);
        }
    }
    if (mounted)
        dur_umount(d->mnt);
    char e2[256];
    int rs = dur_rec_stop(&r, e2, sizeof e2);
    if (rc == 0 && rs < 0) {
        snprintf(err, errlen, "%s", e2);
        rc = rs;
    }
    unlink(d->work);
    return rc;
}

/* ------------------------------------------------------------ power cuts */

/* Where each write's marks ("w-i", "a-i") are in the log. */
static int index_marks(dur *d, const writelog *lg, char *err, size_t errlen)
{
    for (uint64_t i = 0; i < lg->n; i++) {
        const writelog_entry *e = &lg->e[i];
        char kind;
        uint64_t k;
        if ((e->flags & WRITELOG_MARK) && sscanf(e->mark, "%c-%" SCNu64, &kind, &k) == 2 &&
            k >= 1 && k <= d->writes)
            (kind == 'w' ? d->start : d->ack)[k] = i;
    }
    for (uint64_t k = 1; k <= d->writes; k++)
        if (d->ack[k] <= d->start[k]) {
            snprintf(err, errlen, "the write log lacks the marks of write %" PRIu64, k);
            return -EILSEQ;
        }
    return 0;
}

typedef struct cut_state {
    uint64_t *acked;    /* [blocks]: sequence of the last acknowledged write, 0 = none */
    uint64_t *pending;  /* [blocks]: sequence of a write started, not acknowledged */
} cut_state;

/* What the blocks must hold after a cut before log entry p. */
static void expected_at(const dur *d, uint64_t p, cut_state *cs)
{
    memset(cs->acked, 0, d->blocks * sizeof *cs->acked);
    memset(cs->pending, 0, d->blocks * sizeof *cs->pending);
    for (uint64_t i = 1; i <= d->writes; i++) {
        if (d->ack[i] < p)
            cs->acked[d->block_of[i]] = i;
        else if (d->start[i] < p)
            cs->pending[d->block_of[i]] = i;
    }
}

static bool all_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return false;
    return true;
}

/* Checks the blocks of the mounted copy (fd < 0: the file is missing). */
static void check_blocks(dur *d, int fd, const cut_state *cs, unsigned char *buf, uint64_t *lost,
                         uint64_t *torn)
{
    for (uint64_t b = 0; b < d->blocks; b++) {
        uint64_t want = cs->acked[b], maybe = cs->pending[b];
        if (!want && !maybe)
            continue;
        d->checked += want != 0;
        ssize_t k = fd < 0 ? 0 : pread(fd, buf, BS, (off_t)(b * BS));
        bool missing = k < (ssize_t)BS || all_zero(buf, BS);
        char why[192];
        uint64_t seq = 0;
        bool garbled = false;
        if (!missing) {
            if (sb_verify_check(&d->fmt, buf, b * BS, SB_VERIFY_UNKNOWN, 1, why, sizeof why) == 0)
                seq = ((const sb_verify_hdr *)buf)->seq;
            else
                garbled = true;
        }
        if (garbled)
            (*torn)++;           /* neither the old nor the new write: a mixture */
        else if (seq && (seq == want || seq == maybe))
            continue;            /* the last acknowledged write, or the one in flight */
        else if (want)
            (*lost)++;           /* older content, zeros or nothing */
    }
}

/* One power cut before log entry p: replay, mount, check, take apart. */
static int check_cut(dur *d, const writelog *lg, uint64_t p, cut_state *cs, unsigned char *buf,
                     char *err, size_t errlen)
{
    int rc = dur_copy_image(d->base, d->cut, err, errlen);
    if (rc < 0)
        return rc;
    int fd = open(d->cut, O_RDWR | O_CLOEXEC);
    if (fd < 0 || (rc = (int)writelog_replay(lg, p, fd, err, errlen)) < 0) {
        rc = fd < 0 ? -errno : rc;
        if (fd >= 0)
            close(fd);
        unlink(d->cut);
        return rc;
    }
    close(fd);
    expected_at(d, p, cs);
    char dev[64];
    int lfd = -1;
    if ((rc = dur_loop_attach(d->cut, dev, sizeof dev, &lfd, err, errlen)) < 0) {
        unlink(d->cut);
        return rc;
    }
    uint64_t lost = 0, torn = 0;
    if (mount(dev, d->mnt, d->fs, 0, "") < 0) {
        d->unmountable++;
        check_blocks(d, -1, cs, buf, &lost, &torn);
    } else {
        char path[PATH_MAX + 8];
        snprintf(path, sizeof path, "%s/data", d->mnt);
        int dfd = open(path, O_RDONLY | O_CLOEXEC);
        check_blocks(d, dfd, cs, buf, &lost, &torn);
        if (dfd >= 0)
            close(dfd);
        dur_umount(d->mnt);
    }
    dur_loop_detach(&lfd);
    unlink(d->cut);
    d->lost += lost;
    d->torn += torn;
    d->n_cuts++;
    d->cuts_bad += lost + torn > 0;
    return 0;
}

/* The cut points: after `cuts` acknowledged syncs drawn at random (all of them when
 * there are fewer), and at a random moment between each and the next sync's
 * acknowledgement. Sorted, so the progress line moves forward. */
static uint64_t pick_cuts(const dur *d, const writelog *lg, uint64_t *out)
{
    sb_rand rng;
    sb_rand_seed(&rng, d->seed ^ 0xc075ull);
    uint64_t n = 0, want = d->cuts < d->writes ? d->cuts : d->writes;
    unsigned char *chosen = calloc(d->writes + 1, 1);
    if (!chosen)
        return 0;
    for (uint64_t got = 0; got < want;) { /* a draw without replacement */
        uint64_t i = 1 + sb_rand_below(&rng, d->writes);
        if (!chosen[i]) {
            chosen[i] = 1;
            got++;
        }
    }
    for (uint64_t i = 1; i <= d->writes; i++) {
        if (!chosen[i])
            continue;
        out[n++] = d->ack[i] + 1;
        uint64_t next = i < d->writes ? d->ack[i + 1] : lg->n;
        if (next > d->ack[i] + 1)
            out[n++] = d->ack[i] + 1 + sb_rand_below(&rng, next - d->ack[i]);
    }
    free(chosen);
    return n;
}

static int replay_cuts(dur *d, char *err, size_t errlen)
{
    writelog lg;
    int rc = writelog_open(&lg, d->log, err, errlen);
    if (rc < 0)
        return rc;
    cut_state cs = {calloc(d->blocks, sizeof *cs.acked), calloc(d->blocks, sizeof *cs.pending)};
    uint64_t *cuts = calloc(2 * d->writes + 2, sizeof *cuts);
    unsigned char *buf = malloc(BS);
    if (!cs.acked || !cs.pending || !cuts || !buf) {
        snprintf(err, errlen, "out of memory");
        rc = -ENOMEM;
    }
    if (rc == 0)
        rc = index_marks(d, &lg, err, errlen);
    uint64_t n = rc == 0 ? pick_cuts(d, &lg, cuts) : 0;
    for (uint64_t i = 0; i < n && rc == 0; i++) {
        if (sb_ctx_interrupted(d->ctx))
            rc = -EINTR;
        else
            rc = check_cut(d, &lg, cuts[i], &cs, buf, err, errlen);
        sb_ctx_progress(d->ctx, 0.3 + 0.7 * (double)(i + 1) / (double)n);
    }
    free(cs.acked);
    free(cs.pending);
    free(cuts);
    free(buf);
    writelog_free(&lg);
    return rc;
}

/* ------------------------------------------------------------ the run */

static int choose_recorder(dur *d, dur_rec_kind *kind)
{
    const char *want = d->recorder;
    char dm_why[160], fuse_why[160];
    dur_rec_probe(DUR_REC_DM, dm_why, sizeof dm_why);
    if (!dm_why[0] && strcmp(want, "fuse")) {
        *kind = DUR_REC_DM;
        return 0;
    }
    if (!strcmp(want, "dm-log-writes"))
        return sb_ctx_fail(d->ctx, ENOTSUP, "%s", dm_why);
    dur_rec_probe(DUR_REC_FUSE, fuse_why, sizeof fuse_why);
    if (fuse_why[0])
        return sb_ctx_fail(d->ctx, ENOTSUP, "cannot record writes here: %s; %s",
                           dm_why, fuse_why);
    *kind = DUR_REC_FUSE;
    return 0;
}

static int dur_setup(dur *d, sb_run_ctx *ctx, const dur_params *p)
{
    memset(d, 0, sizeof *d);
    d->ctx = ctx;
    d->guard.sock = d->guard.state_fd = -1;
    d->recorder = p->recorder;
    d->fs = p->fs;
    if (!strcmp(d->fs, "auto") && !(d->fs = target_fs(ctx->dir)))
        return sb_ctx_fail(ctx, ENOTSUP, "the target's filesystem is not ext4, "
                           "btrfs or xfs (choose one with fs=)");
    const char *o = p->mount_options;
    if (!strcmp(o, "auto"))
        target_opts(ctx->dir, d->opts, sizeof d->opts);
    else
        snprintf(d->opts, sizeof d->opts, "%s", strcmp(o, "defaults") ? o : "");
    d->use_fdatasync = p->use_fdatasync;
    d->writes = p->writes;
    d->blocks = p->blocks;
    d->cuts = p->cuts;
    d->seed = p->seed;
    snprintf(d->base, sizeof d->base, "%s/base.img", ctx->dir);
    snprintf(d->work, sizeof d->work, "%s/recorded.img", ctx->dir);
    snprintf(d->cut, sizeof d->cut, "%s/cut.img", ctx->dir);
    snprintf(d->log, sizeof d->log, "%s/writes.log", ctx->dir);
    snprintf(d->mnt, sizeof d->mnt, "%s/mnt", ctx->dir);
    d->block_of = calloc(d->writes + 1, sizeof *d->block_of);
    d->start = calloc(d->writes + 1, sizeof *d->start);
    d->ack = calloc(d->writes + 1, sizeof *d->ack);
    if (!d->block_of || !d->start || !d->ack || sb_verify_fmt_init(&d->fmt, SB_VERIFY_CRC32C, BS, d->seed) < 0)
        return sb_ctx_fail(ctx, ENOMEM, "durability: out of memory");
    if (mkdir(d->mnt, 0700) < 0)
        return sb_ctx_fail(ctx, errno, "durability: %s: %s", d->mnt, strerror(errno));
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(ctx->software, sizeof ctx->software, "Linux %s", u.release);
    return 0;
}

static void dur_free(dur *d)
{
    sb_verify_fmt_free(&d->fmt);
    free(d->block_of);
    free(d->start);
    free(d->ack);
}

static void say_cleaned(void *arg, const char *line)
{
    sb_warn("durability: %s", line);
}

static int dur_run_wl(sb_run_ctx *ctx, const void *params, sb_sample *s)
{
    dur d;
    dur_rec_kind kind = DUR_REC_FUSE;
    int rc = dur_setup(&d, ctx, params);
    if (rc == 0)
        rc = choose_recorder(&d, &kind);
    char err[2 * PATH_MAX + 256] = "";
    if (rc == 0) {
        /* what killed runs left (their guardians killed too), before we make more */
        dur_cleanup_stale(say_cleaned, NULL);
        rc = dur_guard_start(&d.guard, ctx->dir, err, sizeof err);
    }
    uint64_t t0 = sb_now_ns();
    if (rc == 0 && (rc = make_fs(&d, err, sizeof err)) == 0 && (rc = record(&d, kind, err, sizeof err)) == 0)
        rc = replay_cuts(&d, err, sizeof err);
    dur_guard_end(&d.guard);
    if (rc == -EINTR)
        rc = sb_ctx_fail(ctx, EINTR, "durability: interrupted");
    else if (rc < 0 && err[0])
        rc = sb_ctx_fail(ctx, -rc, "durability: %s", err);
    if (rc == 0) {
        s[0].value = d.n_cuts ? 100.0 * (double)d.cuts_bad / (double)d.n_cuts : 0;
        s[0].valid = d.n_cuts > 0;
        s[0].seconds = (double)(sb_now_ns() - t0) / 1e9;
        sb_sample_add(&s[0], "acked_checked", "writes", (double)d.checked);
        sb_sample_add(&s[0], "acked_lost", "writes", (double)d.lost);
        sb_sample_add(&s[0], "torn", "writes", (double)d.torn);
        sb_sample_add(&s[0], "cut_points", "cuts", (double)d.n_cuts);
        sb_sample_add(&s[0], "unmountable", "cuts", (double)d.unmountable);
        sb_sample_add(&s[0], "lost_pct", "%", d.checked ? 100.0 * (double)(d.lost + d.torn) / (double)d.checked : 0);
        snprintf(ctx->software + strlen(ctx->software), sizeof ctx->software - strlen(ctx->software),
                 ", %s -o %s, %s recorder", d.fs, d.opts[0] ? d.opts : "defaults",
                 kind == DUR_REC_DM ? "dm-log-writes" : "FUSE");
    }
    unlink(d.base);
    unlink(d.log);
    rmdir(d.mnt);
    dur_free(&d);
    return rc;
}

static double dur_estimate(const void *params)
{
    const dur_params *p = params;
    double writes = (double)p->writes, cuts = (double)p->cuts;
    return writes * 0.005 + 2 * (cuts < writes ? cuts : writes) * 0.3;
}

const sb_workload sb_wl_durability = {
    .name = "durability",
    .title = "Durability",
    .version = "", /* no seed profile */
    .summary = "power cuts replayed from a write log: acknowledged fsyncs lost or torn (% of cut points)",
    .options = dur_options,
    .n_options = sizeof dur_options / sizeof dur_options[0],
    .measures = dur_measures,
    .n_measures = 1,
    .params_size = sizeof(dur_params),
    .resolve = dur_resolve,
    .space_needed = dur_space_needed,
    .estimate_seconds = dur_estimate,
    .run = dur_run_wl,
};
