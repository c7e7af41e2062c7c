/*
 * fuzz_scenario — libFuzzer harness for the scenario INI parser
 * (scenario/scenario.c): any bytes as a scenario file.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    static sb_scenario s; /* large: not on the stack */
    memset(&s, 0, sizeof s);
    char err[512];
    if (sb_scenario_parse(text, "fuzz.ini", &s, err, sizeof err) != 0 &&
        (!err[0] || strchr(err, '\n')))
        abort(); /* a refusal is one line */
    free(text);
    return 0;
}
