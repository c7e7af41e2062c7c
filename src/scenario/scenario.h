/*
 * scenario — a scenario file: the storage configurations `storbench scenario
 * run` builds one after another, each under its identifier. The format is a
 * small INI dialect (docs/scenarios.md): an optional [scenario] section with
 * the page's title and description, then one section per configuration whose
 * name is the identifier. Parsing checks everything that can be checked
 * without touching a device (filesystem names, RAID profiles and their device
 * counts, options that only one filesystem has), so that a bad file is refused
 * before anything is built.
 */
#ifndef SB_SCENARIO_H
#define SB_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SB_SCN_MAX_CONFIGS 64
#define SB_SCN_MAX_DEVICES 16

typedef enum sb_cache_mode {
    SB_CACHE_NONE = 0,
    SB_CACHE_WRITETHROUGH,
    SB_CACHE_WRITEBACK,
    SB_CACHE_WRITEAROUND,
} sb_cache_mode;

/* The character an emulated device is given under `scenario run --vm` (docs/scenarios.md,
 * "Emulated devices"): an HDD is throttled and rotational, an SSD unthrottled and
 * non-rotational, a RAM device an image in host memory. */
typedef enum sb_dev_class {
    SB_DEV_SSD = 0, /* the default */
    SB_DEV_HDD,
    SB_DEV_RAM,
} sb_dev_class;

/* Defaults of the HDD class: a 7200 rpm disk's random IOPS and sequential rate. */
#define SB_HDD_IOPS 180
#define SB_HDD_BPS 150000000ull
/* Per-device throttling value meaning "the class's default". */
#define SB_DEV_CLASS_DEFAULT UINT64_MAX

typedef struct sb_scn_device {
    sb_dev_class cls;
    uint64_t iops; /* I/O operations per second; 0 = unthrottled; SB_DEV_CLASS_DEFAULT */
    uint64_t bps;  /* bytes per second; 0 = unthrottled; SB_DEV_CLASS_DEFAULT */
    char model[256]; /* device-model: a devices/model.h spec ("ssd-850evo"); "" = none (the
                      * fields before it may be given by position) */
    bool class_given;  /* the file set device-class for this device */
    bool class_model;  /* model is the class's preset (--vm: sb_vm_class_models), not the file's */
} sb_scn_device;

typedef struct sb_scn_config {
    char identifier[128];
    int line;                  /* where its section starts, for messages */
    char filesystem[16];       /* "ext4", "xfs", "btrfs" */
    unsigned devices;          /* how many devices the configuration uses (with bcache: cache + backing) */
    char data_profile[16];     /* btrfs -d; "" = mkfs.btrfs's default */
    char metadata_profile[16]; /* btrfs -m; "" = mkfs.btrfs's default */
    char mount_options[512];   /* as written: "compress=lzo,noatime" */
    char mkfs_options[256];    /* extra mkfs arguments, split on blanks */
    sb_cache_mode cache;       /* bcache: device 1 caches device 2 */
    bool cache_discard;
    char md[16];               /* md RAID level over the devices ("raid0", "raid1"); "" = none */
    /* Emulated devices (--vm): resolved per device once the file is read, from the
     * section's device-class/device-iops/device-bandwidth, else [scenario]'s. */
    sb_scn_device dev[SB_SCN_MAX_DEVICES];
    bool dev_keys;             /* the file set a device-class/-iops/-bandwidth key for this configuration */
    char dev_lists[4][512];    /* device-class, device-iops, device-bandwidth, device-model as written */
    int dev_lines[4];          /* where each was set */
    /* In a lab guest run with --vm-dilate K (scenario/lab_dilate.h): K, for the layout's
     * bcache timers; 0 or 1 elsewhere (never read from the file). */
    unsigned time_dilate;
} sb_scn_config;

/* host-bound-check (docs/scenarios.md): how a modeled configuration's host-bound figures
 * are found. */
typedef enum sb_scn_host_bound {
    SB_SCN_HB_NO = 0,   /* no: none marked */
    SB_SCN_HB_YES,      /* yes: busy where the configuration's guest ran in the device lab, else twin */
    SB_SCN_HB_TWIN,     /* twin: the configuration again on ram models, its ram twin */
    SB_SCN_HB_BUSY,     /* busy: the device lab's vCPU busy share in each test's window, no twin */
} sb_scn_host_bound;

typedef struct sb_scenario {
    char title[256];
    char description[1024];
    char dev_lists[4][512];    /* [scenario]'s device-class, device-iops, device-bandwidth, device-model */
    int dev_lines[4];
    sb_scn_host_bound host_bound_check; /* host-bound-check = no, yes, twin, busy */
    size_t n;
    sb_scn_config configs[SB_SCN_MAX_CONFIGS];
} sb_scenario;

/* Parses text (name is used in messages: "NAME:LINE: ..."). 0, or -EINVAL with one line
 * in err. */
int sb_scenario_parse(const char *text, const char *name, sb_scenario *s, char *err, size_t errlen);
/* Reads and parses a file. 0, -errno (unreadable) or -EINVAL, one line in err. */
int sb_scenario_load(const char *path, sb_scenario *s, char *err, size_t errlen);

const char *sb_cache_mode_name(sb_cache_mode m);
const char *sb_dev_class_name(sb_dev_class c);
/* A device's throttling after class defaults: iops and bytes per second, 0 = none. */
uint64_t sb_scn_device_iops(const sb_scn_device *d);
uint64_t sb_scn_device_bps(const sb_scn_device *d);
/* Minimum number of devices a btrfs profile needs (1 for single/dup/""), 0 if unknown. */
unsigned sb_btrfs_profile_min_devices(const char *profile);

#endif
