/*
 * pts_profiles — which storbench test stands in for which PTS test profile (the
 * profiles of the seed pages). The importer ties a pts/ result to its test by
 * it, and `run pts/fio` and `list` use the same map; a profile's version
 * ("pts/fio-2.1.0") names a revision of the same test, so any version maps.
 * Each row also names the profile revisions that ran the program version the
 * storbench test follows (the seed pages' version: the test's `version`), as
 * PTS's own test-profile cache lists them (test-definition.xml AppVersion), so
 * that `run pts/NAME-VERSION` can say when it is not one of them.
 */
#include <ctype.h>
#include <string.h>

#include "formats/pts_xml.h"

static const struct {
    const char *profile;
    const char *test;
    const char *versions; /* revisions running the followed program version, " "-separated */
} profiles[] = {
    /* fio 2.1.13 and PostgreSQL 9.4.3 predate every revision PTS's cache keeps (fio's
     * start at 1.11.2 with fio 3.1, pgbench's at 1.7.0 with 10.0): none known */
    {"pts/fio", "fio", ""},
    {"pts/fs-mark", "fs-mark", "1.0.1 1.0.2 1.0.3"},
    {"pts/postmark", "postmark", "1.1.0 1.1.1 1.1.2"},
    {"pts/compilebench", "compilebench", "1.0.1 1.0.2 1.0.3"},
    {"pts/dbench", "dbench", "1.0.0 1.0.1 1.0.2"},
    {"pts/iozone", "iozone", "1.8.0"},
    {"pts/sqlite", "sqlite", "1.9.0"},
    {"pts/pgbench", "pgbench", ""},
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

const char *sb_pts_profile_versions(size_t i)
{
    return i < N_PROFILES ? profiles[i].versions : NULL;
}

/* Is the word v among the space-separated words of list? */
static bool in_list(const char *list, const char *v)
{
    size_t n = strlen(v);
    for (const char *p = list; (p = strstr(p, v)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

long sb_pts_profile_find(const char *name, bool *followed)
{
    if (!name || strncmp(name, "pts/", 4))
        return -1;
    const char *base = name + 4;
    for (size_t i = 0; i < N_PROFILES; i++) {
        const char *p = profiles[i].profile + 4;
        size_t n = strlen(p);
        if (!strncmp(base, p, n) && (base[n] == '\0' || (base[n] == '-' && is_version(base + n + 1)))) {
            if (followed)
                *followed = base[n] == '\0' || in_list(profiles[i].versions, base + n + 1);
            return (long)i;
        }
    }
    return -1;
}

const char *sb_pts_profile_test(const char *name)
{
    long i = sb_pts_profile_find(name, NULL);
    return i < 0 ? NULL : profiles[i].test;
}
