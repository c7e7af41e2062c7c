/*
 * devices/model — emulated storage devices: the physics of a disk or an SSD on a
 * virtual clock, and a real-time queue that makes a server (the FUSE file under a
 * loop device, an nbdkit plugin behind QEMU) answer each request when the modeled
 * device would have. One implementation for every place a modeled device is used,
 * so a native scenario and a --vm guest see the same disk (docs/devices.md).
 *
 * A model is made from a spec: a preset name (sb_dev_preset_list) optionally followed
 * by ",key=value" overrides of any of its parameters ("hdd-hua723020,rpm=5400").
 * Every preset's parameters come from a datasheet or a published measurement, cited in
 * docs/devices.md; none is fitted to the seed pages.
 *
 * sb_dev_model_service() is pure and deterministic: given the model's state (head
 * position and rotational angle, write cache contents, the SSD's busy units) and the
 * time a request starts, it returns when the request completes and updates the state.
 * It never reads a clock, so the physics is unit-tested exactly. A model is not
 * thread-safe by itself; the queue serialises the calls.
 */
#ifndef SB_DEV_MODEL_H
#define SB_DEV_MODEL_H

#include <stddef.h>
#include <stdint.h>

typedef enum { SB_DEV_READ, SB_DEV_WRITE, SB_DEV_FLUSH, SB_DEV_DISCARD } sb_dev_op;

/* What kind of device a model is (a preset fixes it; overrides cannot change it). */
typedef enum { SB_DEV_KIND_RAM, SB_DEV_KIND_HDD, SB_DEV_KIND_SSD } sb_dev_kind;

typedef struct sb_dev_model sb_dev_model;
typedef struct sb_dev_queue sb_dev_queue;

/* One preset: its name, what it is, and where its figures come from (one line each). */
typedef struct {
    const char *name;
    sb_dev_kind kind;
    const char *summary;
    const char *source;
} sb_dev_preset;

/* The presets, in the order they are documented; *n receives their count. */
const sb_dev_preset *sb_dev_preset_list(size_t *n);

/* Builds a model of a device of size_bytes (the image it serves: offsets 0..size_bytes
 * of the modeled device, so a small image on a large disk uses its outer tracks, as a
 * small partition at the start of the disk would). size_bytes 0 checks the spec only
 * (out may then be NULL). Bad spec or a size larger than the modeled device: -EINVAL
 * and one line in err naming the cause. */
int sb_dev_model_new(const char *spec, uint64_t size_bytes, sb_dev_model **out, char *err, size_t errlen);
/* The same check without building anything: 0 or -EINVAL with the line. */
int sb_dev_spec_check(const char *spec, char *err, size_t errlen);
void sb_dev_model_free(sb_dev_model *m);

sb_dev_kind sb_dev_model_kind(const sb_dev_model *m);
/* The preset name the model was made from. */
const char *sb_dev_model_preset(const sb_dev_model *m);
/* Capacity of the modeled device (bytes): the preset's, or capacity-gb=. */
uint64_t sb_dev_model_capacity(const sb_dev_model *m);

/* Services one request of len bytes at off that starts at now_ns (virtual time) and
 * returns its completion time (>= now_ns). FLUSH completes when everything the write
 * cache held is on the media; DISCARD drops the range. Calls must come in non-
 * decreasing now_ns. */
uint64_t sb_dev_model_service(sb_dev_model *m, sb_dev_op op, uint64_t off, uint64_t len, uint64_t now_ns);
/* Time from now_ns until the device could start transferring a request at off, without
 * changing any state: the HDD's seek plus rotational wait (0 for what its write cache
 * takes, and for the SSD and RAM models). What the queue orders waiting requests by. */
uint64_t sb_dev_model_position_ns(const sb_dev_model *m, sb_dev_op op, uint64_t off, uint64_t now_ns);
/* Earliest time a new request could start on the device's serial resource (the HDD's
 * arm); now_ns when the device takes requests in parallel (SSD, RAM). */
uint64_t sb_dev_model_ready_ns(const sb_dev_model *m, uint64_t now_ns);

/* HDD geometry, for tests and docs: the seek time for a move between the cylinders that
 * hold byte offsets a and b (ns), and the media rate at offset off (bytes per second).
 * 0 for a model that is not an HDD. */
uint64_t sb_dev_hdd_seek_ns(const sb_dev_model *m, uint64_t a, uint64_t b);
double sb_dev_hdd_media_rate(const sb_dev_model *m, uint64_t off);
/* Where the image's byte off lies on the disk: off, or with span-gb its 128 MiB piece's
 * place in the span (the offsets above are the image's: they go through this). */
uint64_t sb_dev_hdd_disk_offset(const sb_dev_model *m, uint64_t off);
/* Rotational angle of offset off in revolutions [0, 1), and of the platter at time t. */
double sb_dev_hdd_angle_of(const sb_dev_model *m, uint64_t off);
double sb_dev_hdd_angle_at(const sb_dev_model *m, uint64_t t_ns);
/* Bytes the write cache holds now (not yet on the media). */
uint64_t sb_dev_model_dirty_bytes(const sb_dev_model *m);

/* What a model has served since it was made: for the physics' tests and for seeing where a
 * workload's device time goes (docs/devices.md). */
typedef struct {
    uint64_t ops[4], bytes[4]; /* requests and their bytes, by sb_dev_op */
    uint64_t service_ns[4];    /* their modeled time, start to completion, summed */
    uint64_t commits;          /* FTL commits: FLUSHes (flush-us), write-through writes (wt-commit-us) */
    uint64_t slc_bytes;        /* bytes programmed into the SSD's SLC buffer */
    uint64_t tlc_bytes;        /* bytes programmed straight to TLC (the buffer full) */
    uint64_t drained_bytes;    /* bytes the buffer moved to TLC in idle time */
} sb_dev_stats;
void sb_dev_model_stats(const sb_dev_model *m, sb_dev_stats *out);

/* The real-time queue. Requests from any number of threads; each sb_dev_queue_io()
 * returns when the modeled device completes it (CLOCK_MONOTONIC). With several waiting,
 * the next to start is the one with the shortest positioning time among the oldest
 * `depth` (NCQ); depth 1 is first come, first served. sb_dev_queue_io returns 0, or
 * -EINTR when the queue is being freed. sb_dev_queue_free waits for no request: the
 * caller stops its servers first. The queue does not own the model. */
sb_dev_queue *sb_dev_queue_new(sb_dev_model *m, unsigned depth, unsigned flags);
int sb_dev_queue_io(sb_dev_queue *q, sb_dev_op op, uint64_t off, uint64_t len);
void sb_dev_queue_free(sb_dev_queue *q);
/* flags of sb_dev_queue_new. SB_DEV_QUEUE_SLEEP: every wait is slept to its end, none
 * spun. For a queue in a guest that runs in virtual time (QEMU's -icount, sleep=off;
 * docs/scenarios.md): a spinning vCPU is never idle, so the guest's clock only advances
 * by the instructions the spin executes, and the host's speed decides how long it spins. */
#define SB_DEV_QUEUE_SLEEP 1u
/* How many of the queue's waits spun their end (0 under SB_DEV_QUEUE_SLEEP). */
uint64_t sb_dev_queue_spun(sb_dev_queue *q);

#endif
