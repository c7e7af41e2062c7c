/*
 * sprandom — see sprandom.h for the model. Memory: two lists of one region's writes
 * (8 bytes a block), fio's "proportional to the region size"; more regions, less memory.
 */
#include "io/loop/sprandom.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The validity of each of n equal-sized regions, lowest first (sprandom.h). */
static void validities(double op, unsigned n, double *out)
{
    double wa = 0.5 / op + 0.7, v_gc = 1.0 - 1.0 / wa;
    double *v = malloc(n * sizeof *v), *x = malloc(n * sizeof *x);
    if (!v || !x || n == 1) {
        for (unsigned i = 0; i < n; i++)
            out[i] = n == 1 ? 1.0 : 1.0 - (1.0 - v_gc) * i / (n - 1);
        free(v);
        free(x);
        return;
    }
    double acc = 0;
    for (unsigned i = 0; i < n; i++) {
        v[i] = 1.0 + (v_gc - 1.0) * i / (n - 1); /* 1 .. v_gc, evenly */
        acc += 1.0 / v[i];                        /* space ~ 1 / validity */
        x[i] = acc;
    }
    /* resample at n evenly spaced x (linear interpolation), then lowest validity first */
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++) {
        double xi = x[0] + (x[n - 1] - x[0]) * i / (n - 1), y;
        while (k + 1 < n - 1 && x[k + 1] < xi)
            k++;
        double span = x[k + 1] - x[k];
        y = span > 1e-12 ? v[k] + (v[k + 1] - v[k]) * (xi - x[k]) / span : v[k];
        out[n - 1 - i] = y;
    }
    free(v);
    free(x);
}

int sb_spr_init(sb_spr *s, uint64_t nblocks, double op, unsigned regions, uint64_t seed,
                char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    uint64_t physical = nblocks + (uint64_t)ceil((double)nblocks * op);
    if (!regions || physical / regions < 1) {
        snprintf(err, errlen, "sprandom: %u regions of %llu blocks leave a region empty "
                 "(fewer spr_num_regions, or a larger size)", regions, (unsigned long long)physical);
        return -EINVAL;
    }
    s->regions = regions;
    s->nblocks = nblocks;
    s->region_writes = s->remaining = physical / regions;
    s->invalid = malloc(regions * sizeof *s->invalid);
    s->replay = malloc(s->region_writes * sizeof *s->replay);
    s->save = malloc(s->region_writes * sizeof *s->save);
    if (!s->invalid || !s->replay || !s->save) {
        sb_spr_free(s);
        snprintf(err, errlen, "sprandom: %s", strerror(ENOMEM));
        return -ENOMEM;
    }
    validities(op, regions, s->invalid);
    for (unsigned i = 0; i < regions; i++)
        s->invalid[i] = 1.0 - s->invalid[i];
    sb_rand_seed(&s->rng, seed ^ 0x5b12a9d0ull);
    return 0;
}

/* A block written in this region is written again in the next with its invalid share. */
static inline void maybe_save(sb_spr *s, uint64_t b)
{
    if (s->n_save < s->region_writes && sb_rand_double(&s->rng) < s->invalid[s->region])
        s->save[s->n_save++] = b;
}

bool sb_spr_next(sb_spr *s, sb_offgen *g, uint64_t *block)
{
    for (;;) {
        if (s->pos_replay < s->n_replay) {
            *block = s->replay[s->pos_replay++];
            break;
        }
        if (!s->remaining) {
            if (s->region + 1 >= s->regions) {
                if (s->fresh >= s->nblocks)
                    return false;
                /* rounding left blocks without their fresh write: the last region takes them */
                s->remaining = s->nblocks - s->fresh;
                continue;
            }
            s->region++;
            /* the last region's remembered blocks are written first in this one */
            uint64_t *t = s->replay;
            s->replay = s->save;
            s->save = t;
            s->n_replay = s->n_save;
            s->pos_replay = s->n_save = 0;
            s->remaining = s->region_writes > s->n_replay ? s->region_writes - s->n_replay : 0;
            continue;
        }
        if (s->fresh >= s->nblocks)
            return false; /* the LFSR's cycle is done: every block had its fresh write */
        *block = sb_offgen_lfsr_next(g);
        s->fresh++;
        s->remaining--;
        break;
    }
    maybe_save(s, *block);
    s->writes++;
    return true;
}

void sb_spr_validity(const sb_spr *s, double *out)
{
    for (unsigned i = 0; i < s->regions; i++)
        out[i] = 1.0 - s->invalid[i];
}

void sb_spr_free(sb_spr *s)
{
    free(s->invalid);
    free(s->replay);
    free(s->save);
    s->invalid = NULL;
    s->replay = s->save = NULL;
}
