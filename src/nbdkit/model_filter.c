/*
 * model_filter — an nbdkit filter (build/storbench-nbdkit-model.so) that puts
 * a storbench device model (devices/model.h) in front of any nbdkit plugin,
 * in practice `file` over a scratch image: every read, write, flush, trim and
 * zero waits in sb_dev_queue_io() until the model says the modeled device
 * would have completed it, then goes to the plugin. nbdkit serves requests on
 * several threads (-t), so as many requests as the client keeps in flight
 * reach the model's queue together and its reordering (NCQ) has something to
 * reorder. `scenario run --vm` starts one nbdkit with this filter per guest
 * disk that has a `device-model` (scenario/vm_nbd.c).
 *
 *   nbdkit -U SOCK --filter=build/storbench-nbdkit-model.so file IMAGE model=SPEC [depth=N]
 *
 * The image is scratch, thrown away after the guest: its durability on the host
 * is not what is measured, so flush and FUA are the model's (the modeled write
 * cache's cost) and are not passed down to the plugin, whose fdatasync would
 * add this host's disk to every modeled flush.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NBDKIT_API_VERSION 2
#include <nbdkit-filter.h>

#include "devices/model.h"

/* Modeled queue depth when depth= is not given: SATA NCQ's 32 tags. */
#define DEFAULT_DEPTH 32

static char *spec;              /* model=, as given */
static unsigned depth = DEFAULT_DEPTH;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static sb_dev_model *model;     /* made at the first connection, when the size is known */
static sb_dev_queue *queue;

static void model_unload(void)
{
    /* nbdkit has stopped serving: no request is waiting in the queue. */
    if (queue)
        sb_dev_queue_free(queue);
    sb_dev_model_free(model);
    queue = NULL;
    model = NULL;
    free(spec);
}

static int model_config(nbdkit_next_config *next, nbdkit_backend *nxdata, const char *key, const char *value)
{
    if (!strcmp(key, "model")) {
        free(spec);
        spec = strdup(value);
        return spec ? 0 : -1;
    }
    if (!strcmp(key, "depth")) {
        char *end;
        unsigned long d = strtoul(value, &end, 10);
        if (*end || d < 1 || d > 1024) {
            nbdkit_error("depth=%s: expected a queue depth from 1 to 1024", value);
            return -1;
        }
        depth = (unsigned)d;
        return 0;
    }
    return next(nxdata, key, value);
}

static int model_config_complete(nbdkit_next_config_complete *next, nbdkit_backend *nxdata)
{
    if (!spec) {
        nbdkit_error("model=SPEC is required (a preset such as hdd-hua723020, optionally ,key=value)");
        return -1;
    }
    /* A bad spec is refused now, before nbdkit listens (the model itself needs the
     * plugin's size, known at the first connection). */
    char err[256] = "";
    if (sb_dev_spec_check(spec, err, sizeof err) < 0) {
        nbdkit_error("model=%s: %s", spec, err);
        return -1;
    }
    return next(nxdata);
}

#define model_config_help \
    "model=SPEC   (required) device model: a preset (hdd-hua723020, ssd-850evo, ssd-950pro,\n" \
    "             ssd-600p, ram), optionally followed by ,key=value overrides\n" \
    "depth=N      requests the modeled device queues and reorders (default 32)"

/* The model and its queue, made once, for the size of the device behind the filter. */
static int model_prepare(nbdkit_next *next, void *handle, int readonly)
{
    int rc = 0;
    pthread_mutex_lock(&lock);
    if (!queue) {
        int64_t size = next->get_size(next);
        char err[256] = "";
        if (size < 0) {
            rc = -1;
        } else if (sb_dev_model_new(spec, (uint64_t)size, &model, err, sizeof err) < 0) {
            nbdkit_error("model=%s: %s", spec, err);
            rc = -1;
        } else if (!(queue = sb_dev_queue_new(model, depth, 0))) {
            nbdkit_error("model=%s: cannot make its queue", spec);
            rc = -1;
        }
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

/* Waits for the modeled completion of one request. 0, or -1 with *err. */
static int wait_model(sb_dev_op op, uint64_t off, uint64_t len, int *err)
{
    int rc = sb_dev_queue_io(queue, op, off, len);
    if (rc < 0) {
        *err = -rc;
        nbdkit_error("device model: %s", strerror(-rc));
        return -1;
    }
    return 0;
}

/* FUA is the model's: the write, then a flush of the modeled cache. */
static int model_can_fua(nbdkit_next *next, void *handle) { return NBDKIT_FUA_NATIVE; }
static int model_can_flush(nbdkit_next *next, void *handle) { return 1; }

static int model_is_rotational(nbdkit_next *next, void *handle)
{
    return model && sb_dev_model_kind(model) == SB_DEV_KIND_HDD;
}

static int model_pread(nbdkit_next *next, void *handle, void *buf, uint32_t count, uint64_t offset,
                       uint32_t flags, int *err)
{
    if (wait_model(SB_DEV_READ, offset, count, err) < 0)
        return -1;
    return next->pread(next, buf, count, offset, flags, err);
}

static int model_pwrite(nbdkit_next *next, void *handle, const void *buf, uint32_t count, uint64_t offset,
                        uint32_t flags, int *err)
{
    if (wait_model(SB_DEV_WRITE, offset, count, err) < 0 ||
        ((flags & NBDKIT_FLAG_FUA) && wait_model(SB_DEV_FLUSH, 0, 0, err) < 0))
        return -1;
    return next->pwrite(next, buf, count, offset, flags & ~NBDKIT_FLAG_FUA, err);
}

static int model_flush(nbdkit_next *next, void *handle, uint32_t flags, int *err)
{
    return wait_model(SB_DEV_FLUSH, 0, 0, err);
}

static int model_trim(nbdkit_next *next, void *handle, uint32_t count, uint64_t offset, uint32_t flags,
                      int *err)
{
    if (wait_model(SB_DEV_DISCARD, offset, count, err) < 0 ||
        ((flags & NBDKIT_FLAG_FUA) && wait_model(SB_DEV_FLUSH, 0, 0, err) < 0))
        return -1;
    return next->trim(next, count, offset, flags & ~NBDKIT_FLAG_FUA, err);
}

/* A zeroing request costs what writing the zeros costs: a disk writes them (WRITE SAME
 * still moves the heads over every sector). */
static int model_zero(nbdkit_next *next, void *handle, uint32_t count, uint64_t offset, uint32_t flags,
                      int *err)
{
    if (wait_model(SB_DEV_WRITE, offset, count, err) < 0 ||
        ((flags & NBDKIT_FLAG_FUA) && wait_model(SB_DEV_FLUSH, 0, 0, err) < 0))
        return -1;
    return next->zero(next, count, offset, flags & ~NBDKIT_FLAG_FUA, err);
}

static struct nbdkit_filter filter = {
    .name = "storbench-model",
    .longname = "storbench device model filter",
    .unload = model_unload,
    .config = model_config,
    .config_complete = model_config_complete,
    .config_help = model_config_help,
    .prepare = model_prepare,
    .can_fua = model_can_fua,
    .can_flush = model_can_flush,
    .is_rotational = model_is_rotational,
    .pread = model_pread,
    .pwrite = model_pwrite,
    .flush = model_flush,
    .trim = model_trim,
    .zero = model_zero,
};

NBDKIT_REGISTER_FILTER(filter)
