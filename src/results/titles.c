/*
 * titles — the result titles of the seed pages and of storbench's own tests,
 * with the test each belongs to (see titles.h). Every title on a seed page is
 * a storbench test's title, so one table serves both.
 */
#include "results/titles.h"

#include <string.h>

static const struct {
    const char *title;
    const char *test;
} known[] = {
    {"Flexible IO Tester", "fio"},
    {"CrystalDiskMark set", "diskmark"},
    {"SQLite", "sqlite"},
    {"FS-Mark", "fs-mark"},
    {"mdtest", "mdtest"},
    {"IO500", "io500"},
    {"Dbench", "dbench"},
    {"IOzone", "iozone"},
    {"Compile Bench", "compilebench"},
    {"PostMark", "postmark"},
    {"PostgreSQL pgbench", "pgbench"},
    {"dd", "dd"},
    {"Durability", "durability"},
};
#define N_KNOWN (sizeof known / sizeof known[0])

size_t sb_known_title_count(void)
{
    return N_KNOWN;
}

const char *sb_known_title_at(size_t i)
{
    return i < N_KNOWN ? known[i].title : NULL;
}

const char *sb_known_title_test(const char *title)
{
    for (size_t i = 0; i < N_KNOWN; i++)
        if (title && !strcmp(known[i].title, title))
            return known[i].test;
    return "";
}
