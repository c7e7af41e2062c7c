/*
 * tool — running the system's tools (mkfs.*, make-bcache, mdadm, apt-get,
 * dpkg-deb, depmod, modprobe) without a shell (core/child.h) with stdin from
 * /dev/null, stdout captured (its tail) and stderr reduced to the one line
 * that explains a failure.
 */
#include "scenario/tool.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/child.h"

int sb_run_tool(char *const argv[], const char *cwd, char *out, size_t outlen, char *err, size_t errlen)
{
    int perr[2], pout[2];
    if (pipe2(perr, O_CLOEXEC) < 0)
        return -errno;
    if (pipe2(pout, O_CLOEXEC) < 0) {
        close(perr[0]);
        close(perr[1]);
        return -errno;
    }
    sb_child_spec spec = {.argv = argv, .cwd = cwd, .in = -1, .out = pout[1], .err = perr[1]};
    pid_t pid;
    int rc = sb_child_spawn(&spec, &pid);
    if (rc < 0) {
        close(perr[0]); close(perr[1]); close(pout[0]); close(pout[1]);
        return rc;
    }
    close(perr[1]);
    close(pout[1]);
    char ebuf[8192] = "", obuf[8192] = "";
    size_t elen = 0, olen = 0;
    struct pollfd pf[2] = {{pout[0], POLLIN, 0}, {perr[0], POLLIN, 0}};
    int open_fds = 2;
    while (open_fds > 0) {
        if (poll(pf, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int i = 0; i < 2; i++) {
            if (pf[i].fd < 0 || !pf[i].revents)
                continue;
            char tmp[4096];
            ssize_t r = read(pf[i].fd, tmp, sizeof tmp);
            if (r <= 0) {
                close(pf[i].fd);
                pf[i].fd = -1;
                open_fds--;
                continue;
            }
            char *buf = i ? ebuf : obuf;
            size_t *len = i ? &elen : &olen;
            /* Keep the tail: the last line is what explains a failure. */
            if (*len + (size_t)r >= sizeof ebuf) {
                size_t drop = *len + (size_t)r - (sizeof ebuf - 1);
                if (drop > *len)
                    drop = *len;
                memmove(buf, buf + drop, *len - drop);
                *len -= drop;
            }
            size_t take = (size_t)r < sizeof ebuf - 1 - *len ? (size_t)r : sizeof ebuf - 1 - *len;
            memcpy(buf + *len, tmp, take);
            *len += take;
            buf[*len] = 0;
        }
    }
    int status;
    if ((rc = sb_child_wait(pid, &status)) < 0)
        return rc;
    if (out)
        snprintf(out, outlen, "%s", obuf);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    /* The line that says why: the first "ERROR" line, else the first non-empty line of
     * stderr (or stdout); mkfs tools put the reason first and usage text after it. */
    char *src = elen ? ebuf : obuf, *last = NULL;
    for (char *save = NULL, *ln = strtok_r(src, "\n", &save); ln; ln = strtok_r(NULL, "\n", &save)) {
        while (isspace((unsigned char)*ln))
            ln++;
        if (!*ln)
            continue;
        if (!last || (strstr(ln, "ERROR") && !strstr(last, "ERROR")))
            last = ln;
    }
    last = last ? last : "";
    if (WIFEXITED(status))
        snprintf(err, errlen, "%s failed (exit %d): %s", argv[0], WEXITSTATUS(status), *last ? last : "no message");
    else
        snprintf(err, errlen, "%s killed by signal %d", argv[0], WTERMSIG(status));
    return -EIO;
}

bool sb_in_path(const char *prog)
{
    const char *path = getenv("PATH");
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path && *path ? path : "/usr/sbin:/usr/bin:/sbin:/bin");
    for (char *save = NULL, *d = strtok_r(buf, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        char p[PATH_MAX];
        snprintf(p, sizeof p, "%s/%s", d, prog);
        if (access(p, X_OK) == 0)
            return true;
    }
    return false;
}

