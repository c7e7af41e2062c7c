/*
 * fuzz_resultfile — libFuzzer harness for the result-file loader
 * (results/resultfile.c): any bytes as a result file; one that loads is
 * written back to JSON, loaded again (it must), and rendered in every format.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/csv.h"
#include "report/html.h"
#include "report/text.h"
#include "results/result.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sb_resultfile rf;
    sb_resultfile_init(&rf);
    char err[512];
    if (sb_resultfile_parse((const char *)data, size, "fuzz", &rf, err, sizeof err) == 0) {
        char *json = sb_resultfile_to_json(&rf);
        if (!json)
            abort(); /* the loader let in something the writer cannot write */
        sb_resultfile back;
        sb_resultfile_init(&back);
        if (sb_resultfile_parse(json, strlen(json), "again", &back, err, sizeof err) != 0)
            abort(); /* what we write, we read */
        sb_resultfile_free(&back);
        free(json);
        FILE *out = fopen("/dev/null", "w");
        sb_report_text(out, &rf, 80);
        sb_report_csv(out, &rf);
        sb_report_html(out, &rf);
        fclose(out);
    } else if (!err[0] || strchr(err, '\n')) {
        abort();
    }
    sb_resultfile_free(&rf);
    return 0;
}
