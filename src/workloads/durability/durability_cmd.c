/*
 * durability_cmd — what every layer of the durability test asks of the system:
 * running an outside command (mkfs, dmsetup, modprobe) with its first line of
 * stderr as the error, and unmounting what it mounted. Below the stack, the FUSE
 * recorder and the leftovers' cleanup, which all use it.
 */
#include "workloads/durability/durability_cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static void nap_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

int dur_run(const char *const argv[], char *err, size_t errlen)
{
    char errfile[] = "/tmp/storbench-cmd.XXXXXX";
    int efd = mkstemp(errfile);
    if (efd < 0) {
        snprintf(err, errlen, "%s: cannot make a temporary file: %s", argv[0], strerror(errno));
        return -errno;
    }
    unlink(errfile);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, efd, 2);
    pid_t pid;
    int r = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (r) {
        close(efd);
        snprintf(err, errlen, "%s: %s", argv[0], strerror(r));
        return -r;
    }
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        close(efd);
        return 0;
    }
    char line[200] = "";
    ssize_t n = pread(efd, line, sizeof line - 1, 0);
    close(efd);
    line[n > 0 ? n : 0] = '\0';
    line[strcspn(line, "\n")] = '\0';
    if (WIFEXITED(st))
        snprintf(err, errlen, "%s failed (exit %d)%s%s", argv[0], WEXITSTATUS(st), line[0] ? ": " : "", line);
    else
        snprintf(err, errlen, "%s killed by signal %d", argv[0], WTERMSIG(st));
    return -EIO;
}

void dur_umount(const char *path)
{
    for (int i = 0; i < 50; i++) {
        if (umount2(path, 0) == 0 || errno == EINVAL || errno == ENOENT)
            return;
        if (errno != EBUSY)
            break;
        nap_ms(20);
    }
    umount2(path, MNT_DETACH);
}
