/*
 * save — see save.h.
 */
#include "cli/save.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "core/interrupt.h"
#include "core/log.h"

static char saved_path[PATH_MAX];

const char *sb_cli_saved(void) { return saved_path; }

static void announce_wait(void *arg, const char *lock_path, long holder)
{
    const char *cmd = arg;
    if (holder > 0)
        sb_error("%s: waiting for the lock on %s (held by pid %ld; at most %.0f s)", cmd, lock_path,
                 holder, sb_lock_timeout_ms() / 1000.0);
    else
        sb_error("%s: waiting for the lock on %s (held by another process; at most %.0f s)", cmd,
                 lock_path, sb_lock_timeout_ms() / 1000.0);
}

int sb_cli_update_result(const char *cmd, const char *path, sb_resultfile_merge_fn fn, void *arg,
                         char *err, size_t errlen)
{
    sb_lock_wait w = {.waiting = announce_wait, .arg = (void *)cmd};
    int rc = sb_resultfile_update(path, &w, fn, arg, err, errlen);
    if (rc == 0)
        snprintf(saved_path, sizeof saved_path, "%s", path);
    return rc;
}

struct merge_args {
    const char *path, *result_name, *title, *description;
    const sb_resultfile *fresh;
    bool replace;
};

static int merge_fresh(sb_resultfile *now, void *arg, char *err, size_t errlen)
{
    struct merge_args *a = arg;
    if (!now->title || !now->title[0]) {
        /* Default title: the result's name, without directories and ".json". */
        char name[256];
        const char *slash = strrchr(a->result_name, '/');
        snprintf(name, sizeof name, "%s", slash ? slash + 1 : a->result_name);
        size_t nl = strlen(name);
        if (nl > 5 && !strcmp(name + nl - 5, ".json"))
            name[nl - 5] = 0;
        sb_resultfile_set_title(now, a->title ? a->title : name, a->description ? a->description : "");
    }
    char why[768];
    /* per figure: an identifier's other tests stay (docs/result-format.md) */
    int rc = sb_resultfile_merge_figures(now, a->fresh, a->replace, why, sizeof why);
    if (rc < 0)
        snprintf(err, errlen, "%s: %s", a->path, why);
    return rc;
}

int sb_result_merge_save(const char *cmd, const char *path, const char *result_name,
                         const sb_resultfile *fresh, bool replace, const char *title,
                         const char *description, char *err, size_t errlen)
{
    struct merge_args a = {.path = path, .result_name = result_name, .title = title, .description = description,
                           .fresh = fresh, .replace = replace};
    int rc = sb_cli_update_result(cmd, path, merge_fresh, &a, err, errlen);
    if (rc < 0 && strlen(err) + 1 < errlen) {
        /* the re-read file is what refused: say that nothing of this command went in */
        size_t n = strlen(err);
        snprintf(err + n, errlen - n, "; nothing saved");
    }
    return rc;
}

/* A file another command created meanwhile is not this run's: -EEXIST, nothing changed. */
static int merge_into_new(sb_resultfile *now, void *arg, char *err, size_t errlen)
{
    if (now->n_systems || now->n_results)
        return -EEXIST;
    return merge_fresh(now, arg, err, errlen);
}

int sb_result_save_new(const char *cmd, const char *results_dir, const char *base,
                       const sb_resultfile *fresh, const char *title, const char *description,
                       char *path, size_t pathlen, char *err, size_t errlen)
{
    char name[512];
    for (unsigned k = 1; k <= 100; k++) {
        if (k == 1)
            snprintf(name, sizeof name, "%s", base);
        else
            snprintf(name, sizeof name, "%s-%u", base, k);
        int rc = sb_result_path(name, results_dir, path, pathlen);
        if (rc < 0) {
            snprintf(err, errlen, "result name %s: %s", name, strerror(-rc));
            return rc;
        }
        struct merge_args a = {.path = path, .result_name = name, .title = title,
                               .description = description, .fresh = fresh};
        rc = sb_cli_update_result(cmd, path, merge_into_new, &a, err, errlen);
        if (rc != -EEXIST)
            return rc;
    }
    snprintf(err, errlen, "%s and %s-2 .. %s-100 are all taken; name one with --result", base, base, base);
    return -EEXIST;
}

int sb_cli_interrupted_before_save(const char *cmd, const char *what)
{
    if (!sb_interrupted())
        return 0;
    sb_error("%s: interrupted (signal %d); nothing saved%s%s", cmd, sb_interrupt_signal(),
             what ? " in " : "", what ? what : "");
    return SB_EXIT_INTERRUPTED;
}

int sb_cli_after_save(const char *cmd, int code, const char *what)
{
    if (!sb_interrupted())
        return code;
    if (code != SB_EXIT_OK) /* the save failed (and said why): nothing of it is there */
        return sb_cli_interrupted_before_save(cmd, NULL);
    sb_error("%s: interrupted (signal %d) after saving %s", cmd, sb_interrupt_signal(), what);
    return SB_EXIT_INTERRUPTED;
}
