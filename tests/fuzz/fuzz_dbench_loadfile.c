/*
 * fuzz_dbench_loadfile — libFuzzer harness for the dbench loadfile parser
 * (workloads/dbench_loadfile.c): any bytes, split into lines as the file
 * reader does, each parsed into one script.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/dbench/dbench_loadfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    sb_dbench_script s;
    memset(&s, 0, sizeof s);
    char err[512];
    uint32_t lineno = 0;
    for (char *line = text, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        err[0] = '\0'; /* a refusal must write its own message, not leave an old one */
        int rc = sb_dbench_parse_line(&s, line, ++lineno, err, sizeof err);
        if (rc < 0 && (!err[0] || strchr(err, '\n')))
            abort();
    }
    for (size_t i = 0; i < s.n; i++) {
        /* Every path offset the parser stored points into its string pool. */
        if (s.ops[i].path != SB_DBENCH_NO_PATH && s.ops[i].path >= s.slen)
            abort();
        if (s.ops[i].path2 != SB_DBENCH_NO_PATH && s.ops[i].path2 >= s.slen)
            abort();
    }
    sb_dbench_script_free(&s);
    free(text);
    return 0;
}
