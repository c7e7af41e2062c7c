/*
 * job_keys — what the tests on the I/O engine (fio, diskmark) share about their options
 * that are I/O job options: each such key of the test is parsed by its entry of the job's
 * option table (io/options.h), so that a value means what it means to `storbench io`,
 * and the job is checked as `storbench io` checks it. Called from their resolve, once.
 */
#ifndef SB_WORKLOADS_JOB_KEYS_H
#define SB_WORKLOADS_JOB_KEYS_H

#include <stddef.h>

#include "io/job.h"
#include "workloads/workload.h"

/* A test's option key and the io option entry that parses its value. */
typedef struct sb_job_key {
    const char *key, *entry;
} sb_job_key;

/* Parses each key's value in cfg into job by its entry. 0, or -EINVAL with one line in err,
 * "TEST: " and the entry's line, which names the test's key. */
int sb_job_keys_set(sb_io_job *job, const sb_config *cfg, const sb_job_key *keys, size_t n, char *err,
                    size_t errlen);
/* The job's own checks (sb_io_job_check) and that its engine works here ("TEST: " before
 * the engine's line). 0, or -EINVAL with one line in err. */
int sb_job_keys_check(const sb_io_job *job, const sb_config *cfg, char *err, size_t errlen);

#endif
