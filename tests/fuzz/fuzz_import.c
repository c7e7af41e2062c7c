/*
 * fuzz_import — libFuzzer harness for the text-page importer (report/text_import.c):
 * any bytes in; a page that imports is saved as JSON, loaded back and rendered as
 * text, so that whatever the importer accepts, the rest of the chain takes too.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/text.h"
#include "report/text_import.h"
#include "results/result.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    char err[512];
    if (sb_text_import((const char *)data, size, &rf, err, sizeof err) == 0) {
        /* What was imported is what a result file can hold. */
        char *json = sb_resultfile_to_json(&rf);
        if (!json)
            abort();
        free(json);
        FILE *out = fopen("/dev/null", "w");
        sb_report_text(out, &rf, 80);
        fclose(out);
    } else if (!err[0] || strchr(err, '\n')) {
        abort(); /* a refusal is one line */
    }
    sb_resultfile_free(&rf);
    return 0;
}
