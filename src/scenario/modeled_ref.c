/*
 * modeled_ref — host-bound figures of modeled devices (docs/devices.md, "Host-bound
 * figures"). A figure through a modeled device is the model's only when the host's own
 * cost (the FUSE round trip, the loop driver, the CPU) is small beside it. The test is the
 * configuration's ram twin: the same configuration, every device modeled as `ram` (the
 * same path with no device behind it), running the same tests. A figure whose twin does
 * no better than 20 % beyond it (or worse) is bound by the host: it is marked so in the
 * result file (entries[].host_bound), every page shows the mark, and comparisons leave it
 * out. `host-bound-check = yes` in [scenario] asks for the twins (scenario/run.c); under the
 * device lab `host-bound-check = busy` judges from the guest's vCPU busy share instead, with
 * no twin (sb_modeled_mark_busy, below).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scenario/modeled.h"

/* A ram twin that does no better than this ratio (in the better direction) marks the figure. */
#define HOST_BOUND_RATIO 1.2

int sb_modeled_twin(const sb_scn_config *c, sb_scn_config *twin)
{
    int modeled = 0;
    for (unsigned i = 0; i < c->devices; i++)
        if (c->dev[i].model[0] && strncmp(c->dev[i].model, "ram", 3) != 0)
            modeled = 1;
    if (!modeled)
        return 0;
    *twin = *c;
    for (unsigned i = 0; i < c->devices; i++)
        snprintf(twin->dev[i].model, sizeof twin->dev[i].model, "ram");
    return 1;
}

static const sb_result *same_result(const sb_resultfile *ref, const sb_result *r)
{
    for (size_t i = 0; i < ref->n_results; i++) {
        const sb_result *q = &ref->results[i];
        if (!strcmp(q->test, r->test) && !strcmp(q->description, r->description) && !strcmp(q->unit, r->unit) &&
            q->direction == r->direction)
            return q;
    }
    return NULL;
}

bool sb_modeled_host_bound(double modeled, double ram, sb_direction dir)
{
    if (!(modeled > 0) || !(ram > 0) || !isfinite(modeled) || !isfinite(ram))
        return false;
    double better = dir == SB_LOWER_IS_BETTER ? modeled / ram : ram / modeled;
    return better < HOST_BOUND_RATIO;
}

size_t sb_modeled_mark(sb_resultfile *fresh, const sb_resultfile *ref)
{
    size_t marked = 0;
    for (size_t i = 0; i < fresh->n_results; i++) {
        sb_result *r = &fresh->results[i];
        const sb_result *q = same_result(ref, r);
        for (size_t j = 0; q && j < r->n_entries; j++) {
            sb_entry *e = &r->entries[j];
            const sb_entry *t = sb_result_find_entry(q, e->identifier);
            if (!t)
                continue;
            e->host_bound = sb_modeled_host_bound(e->mean, t->mean, r->direction);
            e->host_ref = t->mean;
            marked += e->host_bound;
        }
    }
    return marked;
}

/* The lab's rule without a twin (host-bound-check = busy). A test's vCPU busy share b is the
 * part of its measured window the guest's one emulated CPU spent executing; the rest it
 * waited, halted, for the modeled disks (under icount nothing else passes virtual time). A
 * twin whose devices answered at once could at best turn all that waiting into work at the
 * same pace: its figure at most 1/b times the modeled one. The twin rule marks a figure when
 * the twin does less than 1.2 times better, so b above 1/1.2 (83.3 %) marks the figures the
 * twin could not have beaten by 20 %. */
#define HOST_BOUND_BUSY_PCT (100.0 / HOST_BOUND_RATIO)

bool sb_modeled_busy_bound(double busy_pct)
{
    return isfinite(busy_pct) && busy_pct >= HOST_BOUND_BUSY_PCT;
}

double sb_modeled_busy_threshold(void) { return HOST_BOUND_BUSY_PCT; }

size_t sb_modeled_mark_busy(sb_resultfile *fresh)
{
    size_t marked = 0;
    for (size_t i = 0; i < fresh->n_results; i++)
        for (size_t j = 0; j < fresh->results[i].n_entries; j++) {
            sb_entry *e = &fresh->results[i].entries[j];
            if (!e->has_cpu_busy || !sb_modeled_busy_bound(e->cpu_busy_pct))
                continue;
            e->host_bound = true;
            e->host_ref = NAN; /* no twin's figure (resultfile.c writes the vcpu busy mark) */
            marked++;
        }
    return marked;
}
