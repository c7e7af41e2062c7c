/*
 * rankmap — see rankmap.h. The host grouping sorts rank numbers by (name, rank), so
 * that each run of equal names starts with its lowest rank: that one leads the host,
 * and the run's length is the host's rank count. The tree numbers the ranks relative
 * to the root (v = rank - root, modulo size): v's children are v + 2^k for every
 * 2^k > v below size, so v's parent is v less its highest bit, and a message reaches
 * every rank within ceil(log2 size) hops.
 */
#include "core/rankmap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int by_name_then_rank(const void *a, const void *b, void *names)
{
    const char (*n)[SB_RANKMAP_NAME] = names;
    int x = *(const int *)a, y = *(const int *)b;
    int c = strncmp(n[x], n[y], SB_RANKMAP_NAME);
    return c ? c : (x > y) - (x < y);
}

int sb_host_group(const char (*names)[SB_RANKMAP_NAME], int n, int *leader, sb_host_groups *out)
{
    int *order = malloc((size_t)n * sizeof *order);
    if (!order)
        return -ENOMEM;
    for (int i = 0; i < n; i++)
        order[i] = i;
    qsort_r(order, (size_t)n, sizeof *order, by_name_then_rank, (void *)names);
    out->hosts = 0;
    out->min_per_host = n;
    out->max_per_host = 0;
    for (int i = 0; i < n;) {
        int j = i, first = order[i];
        while (j < n && !strncmp(names[order[j]], names[first], SB_RANKMAP_NAME))
            leader[order[j++]] = first;
        int same = j - i;
        out->hosts++;
        out->min_per_host = same < out->min_per_host ? same : out->min_per_host;
        out->max_per_host = same > out->max_per_host ? same : out->max_per_host;
        i = j;
    }
    free(order);
    return 0;
}

int sb_rank_tree_children(int rank, int root, int size, int *out, int max)
{
    if (size < 2 || rank < 0 || rank >= size || root < 0 || root >= size)
        return 0;
    int v = (rank - root + size) % size, n = 0;
    /* the largest step first: the root's first child heads the largest subtree */
    int top = 1;
    while (top <= (size - 1) / 2)
        top <<= 1; /* the largest power of two below size */
    for (int m = top; m >= 1; m >>= 1)
        if (m > v && v + m < size && n < max)
            out[n++] = (v + m + root) % size;
    return n;
}
