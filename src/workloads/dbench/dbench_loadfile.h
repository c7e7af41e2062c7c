/*
 * dbench_loadfile — the operation stream dbench's clients replay, as an
 * in-memory script: parsed from a dbench-format loadfile (the NetBench-derived
 * client.txt Debian's dbench installs), or made by storbench's own
 * deterministic generator that follows the NetBench operation mix
 * (docs/workloads.md, "## dbench"). Both produce the same sb_dbench_script, so
 * the replay in dbench.c does not know which it runs.
 *
 * Paths are stored with '/' separators. A path under "\clients\client1" (the
 * client's own directory in a loadfile) is stored relative to that directory
 * and flagged, so that each client replays it in its own directory.
 */
#ifndef SB_DBENCH_LOADFILE_H
#define SB_DBENCH_LOADFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum sb_dbench_verb {
    SB_DBENCH_NTCREATEX,
    SB_DBENCH_CLOSE,
    SB_DBENCH_READX,
    SB_DBENCH_WRITEX,
    SB_DBENCH_UNLINK,
    SB_DBENCH_RENAME,
    SB_DBENCH_QPATHINFO,
    SB_DBENCH_QFILEINFO,
    SB_DBENCH_SFILEINFO,
    SB_DBENCH_QFSINFO,
    SB_DBENCH_FINDFIRST,
    SB_DBENCH_FLUSH,
    SB_DBENCH_LOCKX,
    SB_DBENCH_UNLOCKX,
    SB_DBENCH_DELTREE,
    SB_DBENCH_MKDIR,
    SB_DBENCH_RMDIR,
    SB_DBENCH_N_VERBS
} sb_dbench_verb;

/* NTCreateX create options and dispositions (SMB). */
#define SB_DBENCH_FILE_DIRECTORY_FILE 0x1u
#define SB_DBENCH_FILE_DELETE_ON_CLOSE 0x1000u
enum {
    SB_DBENCH_SUPERSEDE, SB_DBENCH_OPEN, SB_DBENCH_CREATE, SB_DBENCH_OPEN_IF, SB_DBENCH_OVERWRITE,
    SB_DBENCH_OVERWRITE_IF
};

#define SB_DBENCH_NO_PATH UINT32_MAX

/* The seed's stream: dbench's NetBench-derived loadfile as Debian installs it. */
#define SB_DBENCH_CLIENT_TXT "/usr/share/dbench/client.txt"

typedef struct sb_dbench_op {
    uint8_t verb;
    bool expect_ok;       /* the loadfile's status was NT_STATUS_OK */
    uint8_t path_client;  /* bit 0: path is client-relative, bit 1: path2 is */
    int32_t handle;       /* fnum of handle verbs */
    uint32_t a, b;        /* NTCreateX: create options, disposition; FIND_FIRST: maxcnt */
    uint64_t offset, size, ret_size;
    uint32_t path, path2; /* offsets into the script's string pool, or SB_DBENCH_NO_PATH */
    uint32_t line;        /* loadfile line, for messages */
    double at;            /* the line's timestamp: seconds into the loop before which the
                             op must not start, as dbench paces it; 0 = at once */
} sb_dbench_op;

typedef struct sb_dbench_script {
    sb_dbench_op *ops;
    size_t n, cap;
    char *strings;
    size_t slen, scap;
} sb_dbench_script;

const char *sb_dbench_verb_name(int verb);
static inline const char *sb_dbench_str(const sb_dbench_script *s, uint32_t off)
{
    return off == SB_DBENCH_NO_PATH ? NULL : s->strings + off;
}

/* Parses one loadfile line into the script. 1 = a blank or comment line (nothing
 * added), 0 = added, -EINVAL with one line in err (without the file name). */
int sb_dbench_parse_line(sb_dbench_script *s, const char *line, uint32_t lineno, char *err, size_t errlen);
/* Parses a whole loadfile. 0, -errno (cannot read), or -EINVAL with "FILE:LINE: ..." in err. */
int sb_dbench_parse_file(sb_dbench_script *s, const char *path, char *err, size_t errlen);
/* The built-in NetBench-like stream: about n_ops operations from the seed. 0 or -ENOMEM. */
int sb_dbench_generate(sb_dbench_script *s, uint64_t seed, size_t n_ops);
void sb_dbench_script_free(sb_dbench_script *s);

#endif
