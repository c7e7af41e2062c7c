/*
 * devices/make — making a model from its spec, and the calls that dispatch to the
 * physics of its kind (hdd.c with hdd_geometry.c, ssd.c; the ram model answers every
 * request at once).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/strutil.h"
#include "devices/internal.h"

int sb_dev_model_new(const char *spec, uint64_t size_bytes, sb_dev_model **out, char *err, size_t errlen)
{
    sb_dev_model *m = calloc(1, sizeof *m);
    if (!m)
        sb_oom();
    int rc = sb_dev_params_parse(spec, &m->p, m->preset, sizeof m->preset, err, errlen);
    if (rc)
        goto fail;
    m->capacity = (uint64_t)(m->p.capacity_gb * 1e9);
    m->size = size_bytes;
    if (size_bytes > m->capacity) {
        sb_fmt(err, errlen, "device model '%s': %llu bytes do not fit on the modeled %llu-byte device", m->preset,
               (unsigned long long)size_bytes, (unsigned long long)m->capacity);
        rc = -EINVAL;
        goto fail;
    }
    if (m->p.kind == SB_DEV_KIND_HDD)
        rc = sb_dev_hdd_init(m, err, errlen);
    else if (m->p.kind == SB_DEV_KIND_SSD)
        rc = sb_dev_ssd_init(m, err, errlen);
    if (rc)
        goto fail;
    if (out)
        *out = m;
    else
        sb_dev_model_free(m);
    return 0;
fail:
    sb_dev_model_free(m);
    if (out)
        *out = NULL;
    return rc;
}

int sb_dev_spec_check(const char *spec, char *err, size_t errlen)
{
    return sb_dev_model_new(spec, 0, NULL, err, errlen);
}

void sb_dev_model_free(sb_dev_model *m)
{
    if (!m)
        return;
    free(m->dirty_gap.base);
    free(m->age_gap.base);
    free(m);
}

sb_dev_kind sb_dev_model_kind(const sb_dev_model *m)
{
    return m->p.kind;
}

const char *sb_dev_model_preset(const sb_dev_model *m)
{
    return m->preset;
}

uint64_t sb_dev_model_capacity(const sb_dev_model *m)
{
    return m->capacity;
}

uint64_t sb_dev_model_service(sb_dev_model *m, sb_dev_op op, uint64_t off, uint64_t len, uint64_t now_ns)
{
    uint64_t c = now_ns;
    if (m->p.kind == SB_DEV_KIND_HDD)
        c = sb_dev_hdd_service(m, op, off, len, now_ns);
    else if (m->p.kind == SB_DEV_KIND_SSD)
        c = sb_dev_ssd_service(m, op, off, len, now_ns);
    if (c < now_ns)
        c = now_ns;
    if ((unsigned)op < 4) {
        m->st.ops[op]++;
        m->st.bytes[op] += len;
        m->st.service_ns[op] += c - now_ns;
    }
    return c;
}

void sb_dev_model_stats(const sb_dev_model *m, sb_dev_stats *out)
{
    *out = m->st;
}

uint64_t sb_dev_model_position_ns(const sb_dev_model *m, sb_dev_op op, uint64_t off, uint64_t now_ns)
{
    return m->p.kind == SB_DEV_KIND_HDD ? sb_dev_hdd_position(m, op, off, now_ns) : 0;
}

uint64_t sb_dev_model_ready_ns(const sb_dev_model *m, uint64_t now_ns)
{
    if (m->p.kind == SB_DEV_KIND_HDD && m->media_free > now_ns)
        return m->media_free;
    return now_ns;
}

