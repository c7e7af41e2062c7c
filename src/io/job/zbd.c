/*
 * zbd — fio's zonemode=zbd (zbd.h): the zone sets, their write pointers, open zones and
 * resets, and where each I/O goes. One mutex per zone set: every placement and every
 * completed write takes it (only zonemode=zbd jobs pay for it). A zone counts as open
 * from the write that opens it until its last write has completed and filled it, as
 * fio's; a write that finds no zone to take it while writes are in flight waits for
 * them (SB_ZBD_BUSY), as fio quiesces.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/job/zbd.h"

typedef struct zone {
    uint64_t start, wp, cap_end;  /* bytes; cap_end: start + capacity */
    uint32_t pending;             /* writes placed and not completed */
    uint8_t cond;
    bool has_wp, open, reset;
    sb_zbd_thread *opener;        /* whose job_max_open_zones it counts against */
} zone;

struct sb_zbd_set {
    sb_zbd_set *next;
    dev_t dev;                    /* the file's; a device: 0, and ino is its st_rdev */
    ino_t ino;
    unsigned refs;
    int model;
    uint64_t zone_size;
    uint32_t nr_zones;
    zone *zones;                  /* nr_zones + 1: the last's start is the end (a sentinel) */
    unsigned max_open;            /* 0: open zones not tracked */
    unsigned n_open;
    uint32_t *open;               /* the open zones' indexes, in the order they opened */
    uint64_t wp_data, conv_data;  /* bytes below the write pointers; in conventional zones */
    uint32_t write_cnt;           /* zone_reset_frequency's countdown */
    pthread_mutex_t lock;
};

struct sb_zbd_thread {
    sb_zbd_set *s;
    const sb_io_job *job;
    int fd;
    uint64_t start, end, min_bs;  /* the job's region */
    uint32_t min_zone, max_zone;  /* its zones: [min_zone, max_zone) */
    bool random, mixed;
    unsigned n_open;              /* zones it opened that are still open */
    uint64_t pos, pass_bytes;     /* sequential: the next offset, bytes in this pass */
    uint64_t inflight, resets;
    int err;
    char msg[256];
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static sb_zbd_set *registry;

static void set_free(sb_zbd_set *s)
{
    if (!s)
        return;
    pthread_mutex_destroy(&s->lock);
    free(s->zones);
    free(s->open);
    free(s);
}

/* ------------------------------------------------------------ making a set */

/* fio's "none" model: zones of zone_size over size bytes, all sequential, all empty. */
static int emulate(sb_zbd_set *s, const sb_io_job *job, const char *path, uint64_t size, char *err,
                   size_t errlen)
{
    uint64_t zs = job->zonesize, cap = job->zonecapacity ? job->zonecapacity : zs;
    if (size < zs) {
        snprintf(err, errlen, "%s: file/device size %" PRIu64 " is smaller than the zone size %" PRIu64,
                 path, size, zs);
        return -EINVAL;
    }
    s->nr_zones = (uint32_t)((size + zs - 1) / zs);
    s->zones = calloc((size_t)s->nr_zones + 1, sizeof *s->zones);
    if (!s->zones)
        return -ENOMEM;
    for (uint32_t i = 0; i <= s->nr_zones; i++) {
        zone *z = &s->zones[i];
        z->start = z->wp = (uint64_t)i * zs;
        z->cap_end = z->start + cap;
        z->cond = SB_ZBD_COND_EMPTY;
        z->has_wp = i < s->nr_zones;
    }
    s->zone_size = zs;
    return 0;
}

/* The zones of a zoned device, as it reports them. */
static int read_zones(sb_zbd_set *s, const sb_io_job *job, const char *path, int fd, uint64_t size,
                      char *err, size_t errlen)
{
    enum { CHUNK = 4096 };
    sb_zbd_report *rep = calloc(CHUNK, sizeof *rep);
    int n = rep ? sb_zbd_blk_report(fd, 0, rep, CHUNK) : -ENOMEM;
    if (n < 0) {
        snprintf(err, errlen, "%s: report zones: %s", path, strerror(-n));
        free(rep);
        return n;
    }
    uint64_t zs = rep[0].len;
    if (job->zonesize && job->zonesize != zs) {
        snprintf(err, errlen, "%s: zonesize %" PRIu64 " does not match the device's zone size %" PRIu64,
                 path, job->zonesize, zs);
        free(rep);
        return -EINVAL;
    }
    s->zone_size = zs;
    s->nr_zones = (uint32_t)((size + zs - 1) / zs);
    s->zones = calloc((size_t)s->nr_zones + 1, sizeof *s->zones);
    uint32_t j = 0;
    while (s->zones && j < s->nr_zones && n > 0) {
        for (int i = 0; i < n && j < s->nr_zones; i++, j++) {
            zone *z = &s->zones[j];
            z->start = rep[i].start;
            z->cap_end = rep[i].start + rep[i].capacity;
            z->cond = (uint8_t)rep[i].cond;
            z->has_wp = rep[i].type == SB_ZBD_TYPE_SWR; /* fio's: only these have one */
            z->wp = rep[i].cond == SB_ZBD_COND_NOT_WP || rep[i].cond == SB_ZBD_COND_FULL ? z->cap_end
                                                                                        : rep[i].wp;
            if (j > 0 && z->start != s->zones[j - 1].start + zs) {
                snprintf(err, errlen, "%s: zones of different sizes are not supported", path);
                free(rep);
                return -EINVAL;
            }
            if (z->has_wp)
                s->wp_data += z->wp - z->start;
            else
                s->conv_data += z->cap_end - z->start;
        }
        if (j < s->nr_zones && (n = sb_zbd_blk_report(fd, s->zones[j - 1].start + zs, rep, CHUNK)) < 0)
            snprintf(err, errlen, "%s: report zones: %s", path, strerror(-n));
    }
    free(rep);
    if (!s->zones)
        return -ENOMEM;
    if (n < 0)
        return n;
    s->zones[s->nr_zones].start = s->zones[s->nr_zones - 1].start + zs;
    return 0;
}

/* fio's open-zone limit: the job's, the device's for a host-managed one, the smaller
 * when both, and a job's above the device's is refused. */
static int open_limit(sb_zbd_set *s, const sb_io_job *job, const char *path, char *err, size_t errlen)
{
    unsigned lim = job->max_open_zones;
    if (s->model == SB_ZBD_MODEL_HOST_MANAGED && !job->ignore_zone_limits) {
        unsigned dev = sb_zbd_blk_max_open(path);
        if (dev && lim > dev) {
            snprintf(err, errlen, "max_open_zones %u is larger than the device's %u (ignore_zone_limits "
                     "allows it)", lim, dev);
            return -EINVAL;
        }
        if (dev && !lim)
            lim = dev;
    }
    if (lim > SB_ZBD_MAX_OPEN) {
        snprintf(err, errlen, "max_open_zones %u is larger than %u", lim, SB_ZBD_MAX_OPEN);
        return -EINVAL;
    }
    s->max_open = lim;
    s->open = calloc(lim ? lim : 1, sizeof *s->open);
    return s->open ? 0 : -ENOMEM;
}

static int set_new(const sb_io_job *job, const char *path, const struct stat *st, sb_zbd_set **out,
                   char *err, size_t errlen)
{
    sb_zbd_set *s = calloc(1, sizeof *s);
    if (!s)
        return -ENOMEM;
    pthread_mutex_init(&s->lock, NULL);
    int r = 0;
    uint64_t size = (uint64_t)st->st_size;
    int fd = -1;
    if (S_ISBLK(st->st_mode)) {
        s->model = sb_zbd_blk_model(path);
        if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0 || ioctl(fd, BLKGETSIZE64, &size) < 0) {
            r = -errno;
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
        }
    }
    if (r == 0 && s->model == SB_ZBD_MODEL_HOST_MANAGED && sb_rw_writes(job->rw) && !job->direct) {
        snprintf(err, errlen, "%s: writing to a host-managed zoned device needs direct=1 (as fio)", path);
        r = -EINVAL;
    }
    if (r == 0)
        r = s->model == SB_ZBD_MODEL_NONE ? emulate(s, job, path, size, err, errlen)
                                          : read_zones(s, job, path, fd, size, err, errlen);
    if (fd >= 0)
        close(fd);
    if (r == 0)
        r = open_limit(s, job, path, err, errlen);
    if (r < 0) {
        if (r == -ENOMEM)
            snprintf(err, errlen, "out of memory");
        set_free(s);
        return r;
    }
    s->dev = S_ISBLK(st->st_mode) ? 0 : st->st_dev;
    s->ino = S_ISBLK(st->st_mode) ? (ino_t)st->st_rdev : st->st_ino;
    *out = s;
    return 0;
}

/* What a job asks of a set that other jobs share, as fio checks it per job. */
static int job_fits(const sb_zbd_set *s, const sb_io_job *job, const char *path, char *err, size_t errlen)
{
    if (job->zonesize && job->zonesize != s->zone_size) {
        snprintf(err, errlen, "%s: zonesize %" PRIu64 " does not match the zone size %" PRIu64
                 " of its zones", path, job->zonesize, s->zone_size);
        return -EINVAL;
    }
    if (job->max_open_zones && job->max_open_zones != s->max_open) {
        snprintf(err, errlen, "%s: jobs on one file with different max_open_zones (%u, %u)", path,
                 job->max_open_zones, s->max_open);
        return -EINVAL;
    }
    if (job->job_max_open_zones && !s->max_open) {
        snprintf(err, errlen, "job_max_open_zones needs an open-zone limit (max_open_zones, or the "
                 "device's)");
        return -EINVAL;
    }
    return 0;
}

int sb_zbd_attach(const sb_io_job *job, const char *path, bool created, sb_zbd_set **out,
                  char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -errno;
    }
    dev_t dev = S_ISBLK(st.st_mode) ? 0 : st.st_dev;
    ino_t ino = S_ISBLK(st.st_mode) ? (ino_t)st.st_rdev : st.st_ino;
    pthread_mutex_lock(&registry_lock);
    sb_zbd_set **pp = &registry, *s;
    while (*pp && !((*pp)->dev == dev && (*pp)->ino == ino))
        pp = &(*pp)->next;
    s = *pp;
    if (s && created) { /* a new file on an old inode: its zones start empty */
        *pp = s->next;
        if (!s->refs)
            set_free(s);
        s = NULL;
    }
    int r = 0;
    if (!s && (r = set_new(job, path, &st, &s, err, errlen)) == 0) {
        s->next = registry;
        registry = s;
    }
    if (r == 0 && (r = job_fits(s, job, path, err, errlen)) == 0) {
        s->refs++;
        *out = s;
    }
    pthread_mutex_unlock(&registry_lock);
    return r;
}

void sb_zbd_detach(sb_zbd_set *s, bool forget)
{
    if (!s)
        return;
    pthread_mutex_lock(&registry_lock);
    s->refs--;
    if (forget) {
        sb_zbd_set **pp = &registry;
        while (*pp && *pp != s)
            pp = &(*pp)->next;
        if (*pp)
            *pp = s->next;
        if (!s->refs)
            set_free(s);
    }
    pthread_mutex_unlock(&registry_lock);
}

/* ------------------------------------------------------------ zone states (under s->lock) */

static inline uint32_t zone_of(const sb_zbd_set *s, uint64_t off)
{
    uint64_t i = off / s->zone_size;
    return i < s->nr_zones ? (uint32_t)i : s->nr_zones;
}

static inline bool in_range(const sb_zbd_thread *t, uint32_t zi)
{
    return zi >= t->min_zone && zi < t->max_zone;
}

static void close_zone(sb_zbd_set *s, zone *z)
{
    if (!z->open)
        return;
    uint32_t zi = (uint32_t)(z - s->zones);
    for (unsigned i = 0; i < s->n_open; i++)
        if (s->open[i] == zi) {
            memmove(&s->open[i], &s->open[i + 1], (s->n_open - i - 1) * sizeof *s->open);
            s->n_open--;
            break;
        }
    if (z->opener && z->opener->n_open)
        z->opener->n_open--;
    z->open = false;
    z->opener = NULL;
}

/* fio's zbd_open_zone: true when z may be written (already open with room, or opened now
 * within the limits); untracked, always. */
static bool try_open(sb_zbd_thread *t, zone *z)
{
    sb_zbd_set *s = t->s;
    if (z->cond == SB_ZBD_COND_OFFLINE)
        return false;
    if (!s->max_open)
        return true;
    if (z->open)
        return z->wp < z->cap_end; /* filled by writes in flight: a full zone */
    if (t->job->job_max_open_zones && t->n_open >= t->job->job_max_open_zones)
        return false;
    if (s->n_open >= s->max_open)
        return false;
    s->open[s->n_open++] = (uint32_t)(z - s->zones);
    z->open = true;
    z->opener = t;
    t->n_open++;
    return true;
}

/* Resets z: SB_ZBD_OK, BUSY while writes to it are in flight, ERR when the device refuses. */
static int reset_zone(sb_zbd_thread *t, zone *z)
{
    sb_zbd_set *s = t->s;
    if (z->wp == z->start)
        return SB_ZBD_OK;
    if (z->pending)
        return SB_ZBD_BUSY;
    if (s->model != SB_ZBD_MODEL_NONE) {
        int r = sb_zbd_blk_reset(t->fd, z->start, (z + 1)->start - z->start);
        if (r < 0) {
            t->err = r;
            snprintf(t->msg, sizeof t->msg, "resetting the zone at %" PRIu64 ": %s", z->start, strerror(-r));
            return SB_ZBD_ERR;
        }
    }
    s->wp_data -= z->wp - z->start;
    z->wp = z->start;
    t->resets++;
    return SB_ZBD_OK;
}

/* fio's zbd_convert_to_open_zone: another zone for a write whose own cannot be opened —
 * an open one of the region with room (the one the offset points at among them), else
 * the next that opens after it; -1 when none. */
static int64_t other_zone(sb_zbd_thread *t, uint64_t off)
{
    sb_zbd_set *s = t->s;
    uint32_t zi = zone_of(s, off);
    zi = zi < t->min_zone ? t->min_zone : zi >= t->max_zone ? t->max_zone - 1 : zi;
    if (s->n_open) {
        /* (off - start) * n_open would overflow 64 bits on a large device */
        unsigned pick = (unsigned)((double)(off - t->start) / (double)(t->end - t->start) * s->n_open);
        pick = pick < s->n_open ? pick : s->n_open - 1;
        for (unsigned i = 0; i < s->n_open; i++) {
            uint32_t c = s->open[(pick + i) % s->n_open];
            if (!in_range(t, c))
                continue;
            if (s->zones[c].wp + t->min_bs <= s->zones[c].cap_end)
                return c;
            zi = c;
            break;
        }
    }
    for (uint32_t i = t->max_zone - t->min_zone; i > 0; i--) {
        zi = zi + 1 >= t->max_zone ? t->min_zone : zi + 1;
        zone *z = &s->zones[zi];
        if (z->has_wp && !z->open && try_open(t, z))
            return zi;
    }
    for (unsigned i = 0; i < s->n_open; i++) {
        uint32_t c = s->open[i];
        if (in_range(t, c) && s->zones[c].wp + t->min_bs <= s->zones[c].cap_end)
            return c;
    }
    return -1;
}

/* Whether a write to the region is in flight (a zone may yet close). */
static bool writes_pending(const sb_zbd_thread *t)
{
    for (uint32_t zi = t->min_zone; zi < t->max_zone; zi++)
        if (t->s->zones[zi].pending)
            return true;
    return false;
}

/* zone_reset_frequency's countdown: true when it ran out (and starts again). */
static bool reset_due(sb_zbd_thread *t)
{
    sb_zbd_set *s = t->s;
    if (s->write_cnt)
        s->write_cnt--;
    if (s->write_cnt)
        return false;
    double f = t->job->zone_reset_frequency;
    s->write_cnt = f > 0 && 1.0 / f < 4294967295.0 ? (uint32_t)(1.0 / f) : UINT32_MAX;
    return true;
}

/* A write at the write pointer of off's zone, or of another open zone. */
static int place_write(sb_zbd_thread *t, uint64_t *off, uint32_t *len)
{
    sb_zbd_set *s = t->s;
    uint32_t zi = zone_of(s, *off);
    zone *z = &s->zones[zi];
    if (!z->has_wp) { /* conventional: anywhere, not across into a sequential zone */
        if ((z + 1)->has_wp && *off + *len > (z + 1)->start)
            *off = (z + 1)->start - *len;
        return SB_ZBD_OK;
    }
    if (!try_open(t, z)) {
        int64_t c = other_zone(t, *off);
        if (c < 0)
            return writes_pending(t) ? SB_ZBD_BUSY : SB_ZBD_EOF;
        z = &s->zones[c];
    }
    const sb_io_job *job = t->job;
    if (job->zone_reset_frequency > 0 &&
        (double)s->wp_data >= (double)(t->end - t->start) * job->zone_reset_threshold && reset_due(t))
        z->reset = true;
    if (z->reset || z->wp + t->min_bs > z->cap_end) {
        int r = reset_zone(t, z);
        if (r != SB_ZBD_OK)
            return r;
        z->reset = false;
    }
    *off = z->wp;
    uint64_t room = (z->cap_end - z->wp) / t->min_bs * t->min_bs;
    if (*off < t->start || *off >= t->end || room < t->min_bs) {
        t->err = -EINVAL;
        snprintf(t->msg, sizeof t->msg, "zone at %" PRIu64 ": write pointer %" PRIu64 " outside the job's "
                 "region or too close to the zone's capacity for bs %" PRIu64, z->start, z->wp, t->min_bs);
        return SB_ZBD_ERR;
    }
    if (*len > room)
        *len = (uint32_t)room;
    z->wp += *len;
    s->wp_data += *len;
    z->pending++;
    return SB_ZBD_OK;
}

/* fio's zbd_find_zone: the next zone with need bytes of data after zi (random jobs: the
 * nearest, either side); -1 when none. */
static int64_t zone_with_data(const sb_zbd_thread *t, uint32_t zi, uint64_t need)
{
    const zone *zs = t->s->zones;
    for (int64_t a = (int64_t)zi + 1, b = (int64_t)zi - 1; a < t->max_zone || b >= t->min_zone; a++, b--) {
        if (a < t->max_zone && zs[a].cond != SB_ZBD_COND_OFFLINE) {
            if (zs[a].start + need <= zs[a].wp)
                return a;
        } else if (!t->random) {
            break;
        }
        if (t->random && b >= t->min_zone && zs[b].cond != SB_ZBD_COND_OFFLINE &&
            zs[b].start + need <= zs[b].wp)
            return b;
    }
    return -1;
}

/* A read below the write pointer (unless read_beyond_wp): of off's zone, or of the
 * next zone that holds data. */
static int place_read(sb_zbd_thread *t, uint64_t *off, uint32_t *len)
{
    zone *zs = t->s->zones;
    uint32_t zi = zone_of(t->s, *off);
    zone *z = &zs[zi], *orig = z;
    if (!z->has_wp || (z->cond != SB_ZBD_COND_OFFLINE && t->job->read_beyond_wp))
        return SB_ZBD_OK;
    uint64_t range = z->cond != SB_ZBD_COND_OFFLINE ? z->wp - z->start : 0;
    if (range < t->min_bs || (!t->random && *off + t->min_bs > z->wp)) {
        int64_t c = zone_with_data(t, zi, t->min_bs);
        if (c < 0)
            return SB_ZBD_EOF;
        z = &zs[c];
        range = z->wp - z->start;
        if (!t->random)
            *off = z->start;
    }
    if (range <= *len)
        *off = z->start;
    else if (t->random) /* the offset's place in its zone, folded into the data (fio's) */
        *off = z->start + ((*off - orig->start) % (range - *len)) / t->min_bs * t->min_bs;
    if (z->has_wp && *off + *len > z->wp)
        *len = (uint32_t)((z->wp - *off) / t->min_bs * t->min_bs);
    return SB_ZBD_OK;
}

/* fio's trim under zonemode=zbd (zbd_adjust_block, zbd_do_io_u_trim): a reset of the
 * zone at off, done here, under the lock that chose the zone (no write can slip in
 * between). A random trim of an empty zone takes the nearest zone that holds data; with
 * none, a time_based job waits for other jobs' writes (BUSY), another ends (EOF). A zone
 * with writes in flight waits for them. The trim itself then does nothing more
 * (sb_zbd_trim_is_reset); a zone without a write pointer is trimmed as without zones. */
static int place_trim(sb_zbd_thread *t, uint64_t *off)
{
    uint32_t zi = zone_of(t->s, *off);
    zone *z = &t->s->zones[zi];
    if (!z->has_wp)
        return SB_ZBD_OK;
    if (t->random && z->wp == z->start) {
        int64_t c = zone_with_data(t, zi, 1);
        if (c < 0)
            return t->job->time_based ? SB_ZBD_BUSY : SB_ZBD_EOF;
        z = &t->s->zones[c];
    }
    int r = reset_zone(t, z);
    if (r == SB_ZBD_OK)
        *off = z->start;
    return r;
}

bool sb_zbd_trim_is_reset(const sb_zbd_thread *t, uint64_t off)
{
    return t->s->zones[zone_of(t->s, off)].has_wp; /* fixed when the set was made */
}

/* ------------------------------------------------------------ the workers' calls */

int sb_zbd_thread_new(sb_zbd_set *s, const sb_io_job *job, int fd, sb_zbd_thread **out,
                      char *err, size_t errlen)
{
    sb_zbd_thread *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    t->s = s;
    t->job = job;
    t->fd = fd;
    t->start = t->pos = job->offset;
    t->end = job->offset + job->size;
    t->min_bs = job->bs;
    t->random = sb_rw_is_random(job->rw);
    t->mixed = job->rw == SB_RW_RW || job->rw == SB_RW_RANDRW;
    pthread_mutex_lock(&s->lock);
    t->min_zone = zone_of(s, t->start);
    t->max_zone = zone_of(s, t->end - 1) + 1;
    if (t->max_zone > s->nr_zones)
        t->max_zone = s->nr_zones;
    s->write_cnt = 1; /* the first reset_due() starts the countdown */
    reset_due(t);
    /* a device's zones open before the run: tracked, or reset when over the limits */
    int r = SB_ZBD_OK;
    for (uint32_t zi = t->min_zone; zi < t->max_zone && r == SB_ZBD_OK && sb_rw_writes(job->rw); zi++) {
        zone *z = &s->zones[zi];
        if ((z->cond == SB_ZBD_COND_IMP_OPEN || z->cond == SB_ZBD_COND_EXP_OPEN) && !z->open &&
            !try_open(t, z))
            r = reset_zone(t, z);
    }
    pthread_mutex_unlock(&s->lock);
    if (t->min_zone >= t->max_zone || r != SB_ZBD_OK) {
        snprintf(err, errlen, "%s", r != SB_ZBD_OK ? t->msg : "the job's region holds no zone");
        r = r == SB_ZBD_ERR ? t->err : r == SB_ZBD_BUSY ? -EBUSY : -EINVAL;
        free(t);
        return r;
    }
    *out = t;
    return 0;
}

uint64_t sb_zbd_resets(const sb_zbd_thread *t) { return t ? t->resets : 0; }

void sb_zbd_thread_free(sb_zbd_thread *t)
{
    if (!t)
        return;
    pthread_mutex_lock(&t->s->lock);
    for (uint32_t zi = 0; zi < t->s->nr_zones; zi++)
        if (t->s->zones[zi].opener == t)
            t->s->zones[zi].opener = NULL;
    pthread_mutex_unlock(&t->s->lock);
    free(t);
}

/* A sequential job's next position: its pointer, past a zone's end of capacity (the
 * bytes skipped count towards the pass's size, as fio's io_skip_bytes). */
static uint64_t seq_offset(sb_zbd_thread *t, int ddir)
{
    if (t->pos >= t->end)
        t->pos = t->start;
    const zone *z = &t->s->zones[zone_of(t->s, t->pos)];
    if (ddir == SB_DDIR_WRITE && z->cap_end < (z + 1)->start && t->pos >= z->cap_end) {
        t->pass_bytes += (z + 1)->start - t->pos;
        t->pos = (z + 1)->start < t->end ? (z + 1)->start : t->start;
    }
    return t->pos;
}

int sb_zbd_place(sb_zbd_thread *t, uint64_t off, int *ddir, uint64_t *offset, uint32_t *len,
                 bool *pass_end)
{
    sb_zbd_set *s = t->s;
    *len = (uint32_t)t->job->bs;
    pthread_mutex_lock(&s->lock);
    /* an empty mixed job writes first: there is nothing to read (fio's) */
    if (*ddir == SB_DDIR_READ && t->mixed && !s->wp_data && !s->conv_data && !t->job->read_beyond_wp)
        *ddir = SB_DDIR_WRITE;
    int r = SB_ZBD_OK;
    if (!t->random && (off = seq_offset(t, *ddir), t->pass_bytes >= t->job->size))
        r = SB_ZBD_EOF; /* the skip made up the pass: it ends here */
    if (r == SB_ZBD_OK)
        r = *ddir == SB_DDIR_WRITE  ? place_write(t, &off, len)
            : *ddir == SB_DDIR_TRIM ? place_trim(t, &off)
                                    : place_read(t, &off, len);
    pthread_mutex_unlock(&s->lock);
    if (r == SB_ZBD_EOF && !t->random && t->pass_bytes) {
        t->pass_bytes = 0; /* read to the last pointer: the next pass starts over */
        t->pos = t->start;
        return SB_ZBD_PASS_END;
    }
    if (r != SB_ZBD_OK)
        return r;
    *offset = off;
    t->inflight++;
    if (!t->random) {
        t->pos = off + *len;
        t->pass_bytes += *len;
        *pass_end = t->pass_bytes >= t->job->size;
        if (*pass_end) {
            t->pass_bytes = 0;
            t->pos = t->start;
        }
    }
    return SB_ZBD_OK;
}

/* An I/O of the thread ended (done or cancelled): one fewer in flight; for a write, its
 * zone, with the set locked (the caller unlocks), else NULL. */
static zone *ended_write_zone(sb_zbd_thread *t, int ddir, uint64_t offset)
{
    if (t->inflight)
        t->inflight--;
    if (ddir != SB_DDIR_WRITE)
        return NULL;
    pthread_mutex_lock(&t->s->lock);
    return &t->s->zones[zone_of(t->s, offset)];
}

void sb_zbd_done(sb_zbd_thread *t, int ddir, uint64_t offset, uint32_t len, bool ok)
{
    zone *z = ended_write_zone(t, ddir, offset);
    if (!z)
        return;
    if (z->has_wp && z->pending && !--z->pending && z->wp >= z->cap_end)
        close_zone(t->s, z); /* full: no longer open */
    pthread_mutex_unlock(&t->s->lock);
}

void sb_zbd_cancel(sb_zbd_thread *t, int ddir, uint64_t offset, uint32_t len)
{
    zone *z = ended_write_zone(t, ddir, offset);
    if (!z)
        return;
    if (z->has_wp && z->wp == offset + len) {
        z->wp = offset;
        t->s->wp_data -= len;
    }
    if (z->has_wp && z->pending)
        z->pending--;
    pthread_mutex_unlock(&t->s->lock);
}

bool sb_zbd_idle(const sb_zbd_thread *t) { return t->inflight == 0; }

int sb_zbd_error(const sb_zbd_thread *t, const char **msg)
{
    *msg = t->msg;
    return t->err ? t->err : -EIO;
}

/* ------------------------------------------------------------ the job's options (job.h) */

void sb_io_zbd_resolve(sb_io_job *job)
{
    if (job->zonemode == SB_ZONEMODE_ZBD && !job->zonesize && job->filename[0])
        job->zonesize = sb_zbd_blk_zone_size(job->filename);
    uint64_t zs = job->zonesize;
    /* fio's --parse-only takes zonemode=zbd on what it cannot open or is not zoned; its
     * run stops before any I/O ("Specifying the zone size is mandatory for regular
     * file/block device"): so does storbench's (job.h's run_fail) */
    if (!zs && job->zonemode == SB_ZONEMODE_ZBD && !job->run_fail[0])
        snprintf(job->run_fail, sizeof job->run_fail, "zonemode=zbd: %.48s: not a zoned device here: "
                 "give zonesize (zones emulated)", job->filename[0] ? job->filename : "the job's files");
    if (!zs)
        return;
    if (job->size_zones)
        job->size = job->size_zones * zs;
    if (job->offset_zones)
        job->offset = job->offset_zones * zs;
    if (job->offinc_zones)
        job->offset_increment = job->offinc_zones * zs;
    /* fio: a job that is not a sequential read gets whole zones, offset up, end down */
    if (job->zonemode != SB_ZONEMODE_ZBD || job->rw == SB_RW_READ)
        return;
    uint64_t off = (job->offset + zs - 1) / zs * zs, end = (job->offset + job->size) / zs * zs;
    if (off == job->offset && end == job->offset + job->size)
        return;
    if (!job->zbd_rounded) {
        job->zbd_rounded = true;
        job->zbd_given_offset = job->offset;
        job->zbd_given_size = job->size;
    }
    job->offset = off;
    job->size = end > off ? end - off : 0;
}

int sb_io_zbd_check(const sb_io_job *job, char *err, size_t errlen, char *warn, size_t warnlen)
{
    uint64_t zs = job->zonesize;
    if (job->zonemode == SB_ZONEMODE_ZBD && !zs)
        return 0; /* no zones known here: the run fails (sb_io_zbd_resolve's run_fail) */
    if ((job->size_zones || job->offset_zones || job->offinc_zones) && !zs) {
        snprintf(err, errlen, "%s=%uz counts zones: give zonesize (or zonemode=zbd on a zoned device)",
                 job->size_zones ? "size" : job->offset_zones ? "offset" : "offset_increment",
                 job->size_zones ? job->size_zones : job->offset_zones ? job->offset_zones : job->offinc_zones);
        return -EINVAL;
    }
    if (job->zonemode != SB_ZONEMODE_ZBD)
        return 0;
    const char *why = NULL;
    if (zs < 512 || zs % 512)
        why = "zonesize must be a multiple of 512 bytes";
    else if (job->zonecapacity > zs)
        why = "zonecapacity is larger than zonesize";
    else if (job->zoneskip)
        why = "zoneskip must be 0";
    else if (job->bs_max > job->bs || job->bssplit.n || job->rw_skip)
        why = "bsrange, bssplit and rw's skip are not supported (one block size)";
    else if (job->verify || job->verify_pattern || job->verify_only)
        why = "verify is not supported";
    else if (job->bs > (job->zonecapacity ? job->zonecapacity : zs) && !(sb_rw_trims(job->rw) && job->bs == zs))
        why = "bs is larger than the zone's capacity";
    else if (job->size < job->bs)
        why = "offset and size hold no whole zone (fio: io_size must be at least one zone)";
    if (why) {
        snprintf(err, errlen, "zonemode=zbd: %s (zonesize %" PRIu64 ", bs %" PRIu64 ", offset %" PRIu64
                 ", size %" PRIu64 ")", why, zs, job->bs, job->offset, job->size);
        return -EINVAL;
    }
    if (job->zbd_rounded && warn && warnlen)
        snprintf(warn, warnlen, "zonemode=zbd: offset %" PRIu64 " and size %" PRIu64 " rounded to whole "
                 "zones: offset %" PRIu64 ", size %" PRIu64, job->zbd_given_offset, job->zbd_given_size,
                 job->offset, job->size);
    return 0;
}
