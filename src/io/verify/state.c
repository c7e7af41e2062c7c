/*
 * state — fio's verify_state_save and verify_state_load, in storbench's own file format:
 * a verifying write job can leave, per file, its block table (which write each block
 * last received: verify.h) in local-JOBNAME-INDEX-verify.state, in the working directory
 * or fio's --aux-path, as fio names its state files; a later check run that loads it
 * (verify_only, or a read job with verify) then checks exactly the blocks that write run
 * completed, each against the write it must hold, so a run cut short (Ctrl-C, a trigger)
 * is checked as far as it went. fio's files hold its own completion lists and cannot be
 * read here, nor ours by fio.
 *
 * The file: a 64-byte header ("SBVSTATE", version 2 since identities keep a 16-bit thread;
 * bs, the region's offset and block count, the job seed, the algorithm), then one
 * little-endian 64-bit identity per block.
 * It is written to a new temporary name (O_EXCL) and renamed over the old one; read back,
 * every field must match the job and every identity be one this job could have written.
 */
#include "io/verify/verify.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define STATE_MAGIC "SBVSTATE"
#define CHUNK 8192 /* identities per read or write */

typedef struct state_hdr {
    char magic[8];
    uint32_t version, bs;
    uint64_t offset, nblocks, seed;
    uint32_t algo, pad;
    uint8_t reserved[16];
} state_hdr;

void sb_verify_state_path(char *out, size_t n, const char *dir, const char *job, unsigned index)
{
    snprintf(out, n, "%s%slocal-%s-%u-verify.state", dir && dir[0] ? dir : "", dir && dir[0] ? "/" : "",
             job[0] ? job : "job", index);
}

static int write_all(int fd, const void *p, size_t n)
{
    for (size_t done = 0; done < n;) {
        ssize_t k = write(fd, (const char *)p + done, n - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return k < 0 ? -errno : -EIO;
        done += (size_t)k;
    }
    return 0;
}

int sb_verify_state_save(const sb_verify_fmt *f, const sb_verify_table *t, const char *path,
                         char *err, size_t errlen)
{
    char tmp[PATH_MAX + 16];
    snprintf(tmp, sizeof tmp, "%s.XXXXXX", path);
    int fd = mkstemp(tmp); /* O_EXCL: a new file of ours */
    if (fd < 0) {
        int e = errno;
        snprintf(err, errlen, "verify_state_save: %s: %s", path, strerror(e));
        return -e;
    }
    state_hdr h = {.version = 2, .bs = f->bs, .offset = t->first_block_off, .nblocks = t->nblocks,
                   .seed = f->job_seed, .algo = (uint32_t)f->algo};
    memcpy(h.magic, STATE_MAGIC, 8);
    int r = write_all(fd, &h, sizeof h);
    uint64_t *buf = malloc(CHUNK * sizeof *buf);
    if (!buf)
        r = -ENOMEM;
    for (uint64_t b = 0; b < t->nblocks && r == 0; b += CHUNK) {
        uint64_t n = t->nblocks - b < CHUNK ? t->nblocks - b : CHUNK;
        for (uint64_t i = 0; i < n; i++) /* the busy bit is the run's, not the block's */
            buf[i] = atomic_load_explicit(&t->w[b + i], memory_order_acquire) >> 1;
        r = write_all(fd, buf, n * sizeof *buf);
    }
    free(buf);
    if (close(fd) < 0 && r == 0)
        r = -errno;
    if (r == 0 && rename(tmp, path) < 0)
        r = -errno;
    if (r < 0) {
        unlink(tmp);
        snprintf(err, errlen, "verify_state_save: %s: %s", path, strerror(-r));
    }
    return r;
}

/* Whether ident is one a run of this job could leave in its table. */
static bool ident_ok(uint64_t ident, unsigned njobs)
{
    return ident == 0 || ident == SB_VERIFY_UNKNOWN || ident == SB_VERIFY_TRIMMED ||
           SB_VERIFY_IDENT_JOB(ident) < njobs;
}

int sb_verify_state_load(const sb_verify_fmt *f, sb_verify_table *t, unsigned njobs, const char *path,
                         char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        snprintf(err, errlen, "verify_state_load: %s: %s", path, strerror(e));
        return -e;
    }
    state_hdr h;
    const char *bad = NULL;
    if (read(fd, &h, sizeof h) != (ssize_t)sizeof h || memcmp(h.magic, STATE_MAGIC, 8) || h.version != 2)
        bad = "not a storbench verify state file of this version (2)";
    else if (h.bs != f->bs || h.offset != t->first_block_off || h.nblocks != t->nblocks)
        bad = "written by a job of another bs, offset or size";
    else if (h.seed != f->job_seed || h.algo != (uint32_t)f->algo)
        bad = "written by a job of another seed or verify algorithm";
    uint64_t *buf = bad ? NULL : malloc(CHUNK * sizeof *buf);
    if (!bad && !buf)
        bad = strerror(ENOMEM);
    for (uint64_t b = 0; !bad && b < t->nblocks; b += CHUNK) {
        uint64_t n = t->nblocks - b < CHUNK ? t->nblocks - b : CHUNK;
        if (read(fd, buf, n * sizeof *buf) != (ssize_t)(n * sizeof *buf)) {
            bad = "shorter than its header says";
            break;
        }
        for (uint64_t i = 0; i < n && !bad; i++) {
            if (!ident_ok(buf[i], njobs))
                bad = "a block names a job this one does not have (numjobs)";
            /* 0 (laid out, never written by that run) is content this run cannot vouch for */
            atomic_store_explicit(&t->w[b + i], (buf[i] ? buf[i] : SB_VERIFY_UNKNOWN) << 1,
                                  memory_order_relaxed);
        }
    }
    free(buf);
    close(fd);
    if (bad) {
        snprintf(err, errlen, "verify_state_load: %s: %s", path, bad);
        return -EINVAL;
    }
    return 0;
}
