/*
 * pts_profiles — which storbench test stands in for which PTS test profile (the
 * profiles of the seed pages). The importer ties a pts/ result to its test by
 * it, and `run pts/fio` and `list` use the same map; a profile's version
 * ("pts/fio-2.1.0") names a revision of the same test, so any version maps.
 */
#include <ctype.h>
#include <string.h>

#include "formats/pts_xml.h"

static const struct {
    const char *profile;
    const char *test;
} profiles[] = {
    {"pts/fio", "fio"},
    {"pts/fs-mark", "fs-mark"},
    {"pts/postmark", "postmark"},
    {"pts/compilebench", "compilebench"},
    {"pts/dbench", "dbench"},
    {"pts/iozone", "iozone"},
    {"pts/sqlite", "sqlite"},
    {"pts/pgbench", "pgbench"},
};
#define N_PROFILES (sizeof profiles / sizeof profiles[0])

size_t sb_pts_profile_count(void)
{
    return N_PROFILES;
}

const char *sb_pts_profile_at(size_t i, const char **test)
{
    if (i >= N_PROFILES)
        return NULL;
    if (test)
        *test = profiles[i].test;
    return profiles[i].profile;
}

/* Is s a profile version: digits and dots, starting and ending with a digit? */
static bool is_version(const char *s)
{
    if (!isdigit((unsigned char)*s))
        return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s) && !(*s == '.' && isdigit((unsigned char)s[1])))
            return false;
    return true;
}

const char *sb_pts_profile_test(const char *name)
{
    if (!name || strncmp(name, "pts/", 4))
        return NULL;
    const char *base = name + 4;
    for (size_t i = 0; i < N_PROFILES; i++) {
        const char *p = profiles[i].profile + 4;
        size_t n = strlen(p);
        if (!strncmp(base, p, n) && (base[n] == '\0' || (base[n] == '-' && is_version(base + n + 1))))
            return profiles[i].test;
    }
    return NULL;
}
