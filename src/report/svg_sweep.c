/*
 * svg_sweep — what the charts say about a sweep (svg_chart.h): which recorded options a
 * page's results vary (the parameters a `storbench sweep` listed, or any page whose
 * results of one test differ in their options), which of them go on the x axis and which
 * make the lines, and the short label of one configuration ("iodepth=4 numjobs=2") that
 * the percentile and time-series charts name their rows and lines by. Options that only
 * mirror another (the fio test's Buffered is Direct's opposite) are not counted.
 */
#include <stdio.h>
#include <string.h>

#include "report/svg_chart.h"

/* The order in which varying options are taken for the axes: the parameters fio-plot
 * puts on x first (a doubling queue depth, then jobs), words last. */
static const char *const preferred[] = {"iodepth", "numjobs", "bs", "rwmixread", "type", "engine", "direct"};
static const char *const mirrors[] = {"buffered"};

/* Does option key take more than one value among rf's results of the first result's test? */
static bool varies(const sb_resultfile *rf, const char *key)
{
    const char *first = NULL;
    for (size_t i = 0; i < rf->n_results; i++) {
        const sb_result *r = &rf->results[i];
        if (strcmp(r->test, rf->results[0].test))
            continue;
        const char *v = sb_kvlist_get(&r->options, key);
        if (!v)
            continue;
        if (!first)
            first = v;
        else if (strcmp(first, v))
            return true;
    }
    return false;
}

static bool is_mirror(const char *key)
{
    for (size_t i = 0; i < sizeof mirrors / sizeof mirrors[0]; i++)
        if (!strcmp(key, mirrors[i]))
            return true;
    return false;
}

/* The varying options in the order above, then the others in the first result's order. */
static size_t varying(const sb_resultfile *rf, const char **keys, size_t max)
{
    size_t n = 0;
    if (!rf->n_results)
        return 0;
    for (size_t i = 0; i < sizeof preferred / sizeof preferred[0] && n < max; i++)
        if (varies(rf, preferred[i]))
            keys[n++] = preferred[i];
    const sb_kvlist *o = &rf->results[0].options;
    for (size_t k = 0; k < o->n && n < max; k++) {
        const char *key = o->items[k].key;
        bool known = is_mirror(key);
        for (size_t i = 0; !known && i < n; i++)
            known = !strcmp(keys[i], key);
        if (!known && varies(rf, key))
            keys[n++] = key;
    }
    return n;
}

bool sb_svg_sweep_axes(const sb_resultfile *rf, const char **x, const char **series)
{
    const char *keys[2];
    size_t n = varying(rf, keys, 2);
    *x = n ? keys[0] : NULL;
    *series = n > 1 ? keys[1] : NULL;
    return n > 0;
}

void sb_svg_config_label(const sb_resultfile *rf, const sb_result *r, const sb_entry *e, char *buf,
                         size_t len)
{
    const char *keys[16];
    size_t n = varying(rf, keys, 16), used = 0;
    buf[0] = '\0';
    if (rf->n_systems > 1) {
        int w = snprintf(buf, len, "%s", e->identifier);
        used = w > 0 ? (size_t)w : 0;
    }
    for (size_t i = 0; i < n && used < len; i++) {
        const char *v = sb_kvlist_get(&r->options, keys[i]);
        if (!v)
            continue;
        int w = snprintf(buf + used, len - used, "%s%s=%s", used ? ", " : "", keys[i], v);
        used += w > 0 ? (size_t)w : 0;
    }
    if (!buf[0]) /* not a sweep: the option line names the configuration */
        snprintf(buf, len, "%s", r->description && *r->description ? r->description : r->test);
}
