/*
 * job_keys — the I/O job options of the fio and diskmark tests, parsed by the io option
 * table's entries and checked as `storbench io` checks a job (job_keys.h).
 */
#include <errno.h>
#include <stdio.h>

#include "io/engine.h"
#include "io/options/options.h"
#include "workloads/job_keys.h"

int sb_job_keys_set(sb_io_job *job, const sb_config *cfg, const sb_job_key *keys, size_t n, char *err,
                    size_t errlen)
{
    char e[512];
    for (size_t i = 0; i < n; i++)
        if (sb_io_opt_set(job, keys[i].entry, keys[i].key, sb_config_get(cfg, keys[i].key), NULL, e,
                          sizeof e) < 0) {
            snprintf(err, errlen, "%s: %s", cfg->workload->name, e);
            return -EINVAL;
        }
    return 0;
}

int sb_job_keys_check(const sb_io_job *job, const sb_config *cfg, char *err, size_t errlen)
{
    char warn[256], prefix[64];
    int rc = sb_io_job_check(job, err, errlen, warn, sizeof warn);
    if (rc < 0)
        return rc;
    snprintf(prefix, sizeof prefix, "%s: ", cfg->workload->name);
    return sb_engine_check_works(sb_engine_find(job->engine), prefix, err, errlen);
}
