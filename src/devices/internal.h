/*
 * devices/internal — what the files of src/devices/ share: the parameter set (one
 * table of keys in params.c), the model's state, and the HDD and SSD physics entry
 * points that model.c dispatches to. Not for other layers: they use model.h.
 */
#ifndef SB_DEV_INTERNAL_H
#define SB_DEV_INTERNAL_H

#include <stdint.h>

#include "devices/model.h"

/* Every parameter of every kind; a key that does not apply to a kind is refused. */
typedef struct {
    sb_dev_kind kind;
    double capacity_gb;     /* modeled device size, 10^9 bytes */
    double iface_mbps;      /* host interface, 10^6 bytes/s */
    double cache_mb;        /* volatile write cache (HDD) / write buffer (SSD), 2^20 bytes */
    double wce;             /* write cache enabled (1) or write-through (0) */
    /* HDD */
    double rpm;
    double heads;           /* recording surfaces: tracks per cylinder */
    double seek_t2t_ms, seek_avg_ms, seek_full_ms;
    double write_settle_ms; /* extra settling before a write (write seek - read seek) */
    double rate_outer_mbps, rate_inner_mbps; /* media rate, outermost and innermost zone */
    double cmd_us;          /* per-command overhead (HDD: controller; SSD: firmware path) */
    double span_gb;         /* HDD: the image spread over this much of the disk (0: its first bytes) */
    /* SSD */
    double units;           /* independent flash units (dies) */
    double page_kb;         /* flash page: the unit of a program */
    double ctrl_us;         /* controller time per command, serial (1 / QD32 IOPS) */
    double read_us;         /* flash read of a page, including its channel transfer */
    double prog_us;         /* page program (SLC cache) */
    double slc_gb;          /* SLC write buffer; when it is full pages program at tlc_mbps */
    double tlc_mbps;        /* write straight to TLC (buffer full), and the buffer's drain */
    double slc_fill;        /* share of the SLC buffer in use at the start (preconditioning) */
    double slc_idle_ms;     /* idle time before the drive moves the buffer to TLC */
    double discard_us;      /* a discard command (non-queued on SATA: drains the queue) */
    double flush_us;        /* FTL commit a FLUSH costs after writes (mapping table, no PLP) */
    double wt_commit_us;    /* FTL commit of every write-through write (wce=0 or cache-mb=0) */
} sb_dev_params;

/* One extent the write cache holds (HDD). */
typedef struct {
    uint64_t off, len;
    uint64_t at; /* when the newest of its data arrived (it cannot be destaged before) */
} sb_dev_extent;

/* An extent by age: its arrival and its offset (which names it: extents never overlap). */
typedef struct {
    uint64_t at, off;
} sb_dev_age;

/* An array kept with room on both sides (hdd_cache.c): its elements are base[lo .. lo + n),
 * so inserting or removing one moves only those between it and the nearer end. */
typedef struct {
    char *base;
    size_t lo, cap;
} sb_dev_gap;

#define SB_DEV_MAX_UNITS 256

struct sb_dev_model {
    char preset[32];
    sb_dev_params p;
    uint64_t size;         /* bytes served (the image) */
    uint64_t capacity;     /* bytes of the modeled device */
    uint64_t iface_free;   /* the host link is free from (ns) */
    /* HDD geometry, derived once */
    double rev_ns;         /* one revolution */
    double rho;            /* inner / outer radius */
    double tracks;         /* tracks over all surfaces */
    double seek_a, seek_k; /* the seek curve: t2t + a*sqrt(d) up to d = k, then linear */
    uint64_t stride;       /* span-gb: piece i of the image starts at i * stride on the disk (0: none) */
    /* HDD state */
    uint64_t head_off;     /* offset under the head after the last media transfer */
    uint64_t media_free;   /* the arm is free from (ns) */
    uint64_t ra_off, ra_time; /* read-ahead: media kept reading from ra_off since ra_time */
    int ra_valid;
    sb_dev_extent *dirty;  /* write cache, sorted by offset, merged: the first of ndirty */
    size_t ndirty;
    sb_dev_gap dirty_gap;  /* where they are kept */
    /* The same extents by (at, off), oldest first: a destage chooses among the oldest
     * without scanning the whole cache (hdd_cache.c). */
    sb_dev_age *age;       /* the first of nage */
    size_t nage;
    sb_dev_gap age_gap;
    uint64_t dirty_bytes;
    /* SSD state */
    uint64_t ctrl_free;    /* the controller is free from (ns) */
    uint64_t unit_free[SB_DEV_MAX_UNITS];
    uint64_t buf_pending;  /* bytes of a page being filled (not yet programmed) */
    double slc_used;       /* bytes the SLC buffer holds, not yet moved to TLC */
    uint64_t busy_until;   /* the device's last work ends then (the start of idle time) */
    int unflushed;         /* a write arrived since the last FLUSH (its FTL commit is due) */
    sb_dev_stats st;
};

/* params.c: presets and the spec parser. */
int sb_dev_params_parse(const char *spec, sb_dev_params *p, char *preset, size_t presetlen, char *err,
                        size_t errlen);

/* hdd_geometry.c: the zones, rotation, seek curve and placement (set by init) */
int sb_dev_hdd_init(sb_dev_model *m, char *err, size_t errlen);
/* Seek, settle (write) and rotational wait from the head's position at time t to off. */
uint64_t sb_dev_hdd_reach(const sb_dev_model *m, int write, uint64_t off, uint64_t t);
/* Media time of the image's bytes [off, end): the revolutions they span. */
uint64_t sb_dev_hdd_media_ns(const sb_dev_model *m, uint64_t off, uint64_t end);
/* hdd.c: the commands */
uint64_t sb_dev_hdd_service(sb_dev_model *m, sb_dev_op op, uint64_t off, uint64_t len, uint64_t now);
uint64_t sb_dev_hdd_position(const sb_dev_model *m, sb_dev_op op, uint64_t off, uint64_t now);
/* hdd_cache.c: the write cache's extents */
void sb_dev_cache_add(sb_dev_model *m, uint64_t off, uint64_t len, uint64_t at);
void sb_dev_cache_drop(sb_dev_model *m, uint64_t off, uint64_t len);
int sb_dev_cache_covers(const sb_dev_model *m, uint64_t off, uint64_t len);
/* The next extent to destage from the head's position (elevator, then the shortest
 * positioning among the next few); removes it into *e. 0 when the cache is empty. */
int sb_dev_cache_take(sb_dev_model *m, uint64_t now, sb_dev_extent *e);

/* ssd.c */
int sb_dev_ssd_init(sb_dev_model *m, char *err, size_t errlen);
uint64_t sb_dev_ssd_service(sb_dev_model *m, sb_dev_op op, uint64_t off, uint64_t len, uint64_t now);

#endif
