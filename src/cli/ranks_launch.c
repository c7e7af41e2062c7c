/*
 * ranks_launch — plain storbench's sb_ranks_start(): plain storbench does not
 * link MPI, so when mpirun starts it (Open MPI's OMPI_COMM_WORLD_SIZE, or a
 * PMIx rank, is in the environment) it replaces itself with storbench-mpi from
 * the same directory, with the same arguments; the MPI library then finds its
 * launcher through the same environment and process. Without storbench-mpi it
 * refuses in one line (rank 0 only) rather than run N independent copies that
 * would each write the result file.
 *
 * This file defines nothing else: storbench-mpi links its own sb_ranks_start
 * (src/mpi/ranks_mpi.c) ahead of the library, so this member of the archive is
 * never pulled into it (docs/mpi.md, "One binary or two").
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/log.h"
#include "core/ranks.h"

int sb_ranks_start(int *argc, char ***argv)
{
    const char *size = getenv("OMPI_COMM_WORLD_SIZE");
    if (!size && !getenv("PMIX_RANK"))
        return -1;
    char self[PATH_MAX], path[PATH_MAX + 16];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        if (slash)
            *slash = '\0';
        snprintf(path, sizeof path, "%s/storbench-mpi", self);
        if (access(path, X_OK) == 0) {
            execv(path, *argv);
            sb_error("cannot start %s under mpirun: %s", path, strerror(errno));
            return SB_EXIT_RUNTIME;
        }
    }
    const char *rank = getenv("OMPI_COMM_WORLD_RANK");
    if (!rank)
        rank = getenv("PMIX_RANK");
    if (!rank || !strcmp(rank, "0"))
        sb_error("started by mpirun (%s ranks), but there is no storbench-mpi beside this "
                 "binary: build it with Open MPI installed (scripts/bootstrap, make)",
                 size ? size : "several");
    return SB_EXIT_RUNTIME;
}
