/*
 * fuzz_options — libFuzzer harness for size, duration and option parsing
 * (core/units.c, workloads/config.c): the first byte picks a workload, the
 * rest is "KEY=VALUE" lines. Each value also goes through the bare parsers.
 * A value the parsers accept must describe itself without overflow.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "workloads/registry.h"
#include "workloads/workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || !sb_workload_count())
        return 0;
    const sb_workload *w = sb_workload_at(data[0] % sb_workload_count());
    char *text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    sb_config cfg;
    sb_config_init(&cfg, w, data[0] & 0x80);
    char err[512];
    for (char *line = text, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        uint64_t u;
        double d;
        int b;
        if (sb_parse_duration(line, &d) == 0 && !(isfinite(d) && d >= 0))
            abort();
        sb_parse_size(line, &u);
        sb_parse_uint(line, 1, 1000, &u);
        sb_parse_bool(line, &b);
        char *eq = strchr(line, '=');
        if (!eq)
            continue;
        *eq = '\0';
        if (sb_config_set(&cfg, line, eq + 1, err, sizeof err) < 0 && (!err[0] || strchr(err, '\n')))
            abort();
    }
    /* resolve parses every value; dbench's also reads its loadfile, which a fuzzer must
     * not point at arbitrary files. */
    const char *lf = sb_config_get(&cfg, "loadfile");
    if (!(lf && *lf))
        sb_config_resolve(&cfg, err, sizeof err);
    char desc[2048];
    sb_config_describe(&cfg, NULL, desc, sizeof desc);
    free(text);
    return 0;
}
