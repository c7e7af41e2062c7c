/*
 * fuzz_import — libFuzzer harness for the page importers: the text format
 * (formats/text_import.c) and the dd wiki page (formats/ddwiki.c), both on every
 * input. A page that imports is turned into JSON and rendered as text, so that
 * whatever an importer accepts, the rest of the chain takes too; a refusal is one
 * line. Whatever the wiki reader accepts it also recognises as a wiki page, and
 * its figures are finite and positive.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/ddwiki.h"
#include "report/text.h"
#include "formats/text_import.h"
#include "results/result.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void use(sb_resultfile *rf)
{
    char *json = sb_resultfile_to_json(rf);
    if (!json)
        abort(); /* what was imported is what a result file can hold */
    free(json);
    FILE *out = fopen("/dev/null", "w");
    sb_report_text(out, rf, 80);
    fclose(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    char err[512];
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    if (sb_text_import(text, size, &rf, err, sizeof err) == 0)
        use(&rf);
    else if (!err[0] || strchr(err, '\n'))
        abort(); /* a refusal is one line */
    sb_resultfile_free(&rf);

    sb_resultfile_init(&rf);
    if (sb_import_ddwiki(text, size, &rf, NULL, err, sizeof err) == 0) {
        if (!rf.n_systems || !sb_ddwiki_detect(text, size))
            abort();
        for (size_t i = 0; i < rf.n_results; i++)
            for (size_t k = 0; k < rf.results[i].n_entries; k++) {
                double v = rf.results[i].entries[k].mean;
                if (!isfinite(v) || !(v > 0))
                    abort();
            }
        use(&rf);
    } else if (!err[0] || strchr(err, '\n')) {
        abort();
    }
    sb_resultfile_free(&rf);
    return 0;
}
