/*
 * run_ranks — `storbench run` on the ranks of an MPI job (docs/mpi.md, "run
 * on ranks"). Only tests flagged SB_WL_RANKS run there: each rank runs the
 * test in its own directory under the target and the runner combines the
 * ranks' figures (runner/rank_figures.c). Rank 0 alone reads and writes the
 * result file (the write under the file's lock, re-read, like every save:
 * cli/save.h); the other ranks learn its verdict. The identifier's system
 * description names the ranks, the hosts and the ranks per host, and where
 * hosts differ it shows each value with the hosts that have it: the first rank
 * of each host sends its description to rank 0, the others nothing (a host's
 * ranks describe one machine), so rank 0 receives one per host, not one per rank.
 */
#include "runner/run_ranks.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/ranks.h"
#include "core/strutil.h"
#include "workloads/registry.h"

#define DESC_MAX 4096 /* one rank's system description, serialised */

int sb_run_ranks_check(const sb_selection *sel, char *err, size_t errlen)
{
    for (size_t k = 0; k < sel->n; k++) {
        const sb_workload *w = sel->cfg[k].workload;
        if (w->flags & SB_WL_RANKS)
            continue;
        char list[256] = "";
        for (size_t i = 0; i < sb_workload_count(); i++)
            if (sb_workload_at(i)->flags & SB_WL_RANKS)
                sb_fmt(list + strlen(list), sizeof list - strlen(list), "%s%s", list[0] ? ", " : "",
                       sb_workload_at(i)->name);
        snprintf(err, errlen, "%s does not run on MPI ranks (these do: %s)", w->name, list);
        return -EINVAL;
    }
    return 0;
}

int sb_run_ranks_settle(int code)
{
    int v = code;
    if (sb_ranks_bcast(&v, sizeof v, 0) < 0)
        return SB_EXIT_RUNTIME;
    return v;
}

int sb_run_ranks_verdict(int code, const char *msg)
{
    char out[1024];
    int r = sb_ranks_agree(code ? -code : 0, msg, out, sizeof out);
    if (r == 0)
        return 0;
    sb_error("run: %s", out);
    return -r;
}

/* "section \x1f key \x1f value \x1e" for every field, truncated at DESC_MAX. */
static void serialise(const sb_system *sys, char *out)
{
    const sb_kvlist *lists[3] = {&sys->hardware, &sys->software, &sys->storage};
    size_t len = 0;
    out[0] = '\0';
    for (int l = 0; l < 3; l++)
        for (size_t i = 0; i < lists[l]->n; i++) {
            int n = snprintf(out + len, DESC_MAX - len, "%d\x1f%s\x1f%s\x1e", l,
                             lists[l]->items[i].key, lists[l]->items[i].value);
            if (n < 0 || (size_t)n >= DESC_MAX - len) {
                out[len] = '\0';
                return;
            }
            len += (size_t)n;
        }
}

/* The value of section l, key in a serialised description, or NULL. */
static const char *lookup(const char *desc, int l, const char *key, char *buf, size_t len)
{
    char head[160];
    snprintf(head, sizeof head, "%d\x1f%s\x1f", l, key);
    for (const char *p = desc; *p;) {
        const char *end = strchr(p, '\x1e');
        if (!end)
            break;
        if (!strncmp(p, head, strlen(head))) {
            const char *v = p + strlen(head);
            snprintf(buf, len, "%.*s", (int)(end - v), v);
            return buf;
        }
        p = end + 1;
    }
    return NULL;
}

/* Where the hosts' values of one field differ: "A (h1, h2); B (h3)". all: the leaders'
 * descriptions, DESC_MAX each, in the order of leaders. */
static void show_differences(sb_kvlist *list, int l, size_t i, const char *all, const int *leaders,
                             int n_leaders)
{
    const char *key = list->items[i].key;
    char vals[8][512], hosts[8][256], v[512];
    int n_vals = 0;
    for (int h = 0; h < n_leaders; h++) {
        if (!lookup(all + (size_t)h * DESC_MAX, l, key, v, sizeof v))
            snprintf(v, sizeof v, "(none)");
        int j = 0;
        while (j < n_vals && strcmp(vals[j], v))
            j++;
        if (j == n_vals) {
            if (n_vals == 8)
                continue; /* more than 8 variants: the first 8 are shown */
            snprintf(vals[n_vals], sizeof vals[0], "%s", v);
            hosts[n_vals++][0] = '\0';
        }
        const char *name = sb_ranks_host_of(leaders[h]);
        sb_fmt(hosts[j] + strlen(hosts[j]), sizeof hosts[0] - strlen(hosts[j]), "%s%s",
               hosts[j][0] ? ", " : "", name);
    }
    if (n_vals < 2)
        return;
    char out[2048] = "";
    for (int j = 0; j < n_vals; j++)
        sb_fmt(out + strlen(out), sizeof out - strlen(out), "%s%s (%s)", j ? "; " : "", vals[j], hosts[j]);
    sb_kvlist_set(list, key, out);
}

/* Ranks, hosts and ranks per host, as the system fields say them. */
static void add_counts(sb_system *sys)
{
    const sb_ranks_info *ri = sb_ranks();
    int lo = ri->min_per_host, hi = ri->max_per_host;
    char v[64];
    snprintf(v, sizeof v, "%d", ri->size);
    sb_kvlist_set(&sys->hardware, "Ranks", v);
    snprintf(v, sizeof v, "%d", ri->hosts);
    sb_kvlist_set(&sys->hardware, "Hosts", v);
    if (lo == hi)
        snprintf(v, sizeof v, "%d", hi);
    else
        snprintf(v, sizeof v, "%d to %d", lo, hi);
    sb_kvlist_set(&sys->hardware, "Ranks Per Host", v);
    sb_kvlist_set(&sys->software, "MPI", sb_ranks_impl_name());
}

int sb_run_ranks_describe(sb_system *sys)
{
    const sb_ranks_info *ri = sb_ranks();
    int n = ri->size;
    bool root = ri->rank == 0, leader = sb_ranks_leader_of(ri->rank) == ri->rank;
    char *mine = sb_xrealloc(NULL, DESC_MAX);
    serialise(sys, mine);
    /* at rank 0: the leaders (the first rank of each host, in rank order) and a slot each */
    int *leaders = NULL, n_leaders = 0;
    size_t *lens = NULL;
    char *all = NULL;
    if (root) {
        leaders = sb_xrealloc(NULL, (size_t)ri->hosts * sizeof *leaders);
        lens = sb_xrealloc(NULL, (size_t)n * sizeof *lens);
        for (int q = 0; q < n; q++) {
            bool first = sb_ranks_leader_of(q) == q;
            lens[q] = first ? DESC_MAX : 0;
            if (first && n_leaders < ri->hosts)
                leaders[n_leaders++] = q;
        }
        all = sb_xrealloc(NULL, (size_t)n_leaders * DESC_MAX);
    }
    int r = sb_ranks_gatherv(mine, leader ? DESC_MAX : 0, all, lens, 0);
    if (r == 0 && root) {
        sb_kvlist *lists[3] = {&sys->hardware, &sys->software, &sys->storage};
        for (int l = 0; l < 3; l++)
            for (size_t i = 0; i < lists[l]->n; i++)
                show_differences(lists[l], l, i, all, leaders, n_leaders);
        add_counts(sys);
    }
    free(leaders);
    free(lens);
    free(mine);
    free(all);
    return r;
}
