/*
 * output — see output.h. The stream is a fopencookie() one: its write
 * function is the only place that sees a failing write(2)'s errno.
 */
#include "core/output.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "core/interrupt.h"

static int first_error;

static ssize_t out_write(void *cookie, const char *buf, size_t n)
{
    (void)cookie;
    size_t off = 0;
    while (off < n) {
        ssize_t w = write(STDOUT_FILENO, buf + off, n - off);
        /* A signal during a write blocked on a full pipe: write again, unless it was the
         * user's interrupt (then the command is ending and the output is lost anyway). */
        if (w < 0 && errno == EINTR && !sb_interrupted())
            continue;
        if (w <= 0) {
            if (!first_error)
                first_error = w < 0 ? errno : EIO;
            return off ? (ssize_t)off : -1;
        }
        off += (size_t)w;
    }
    return (ssize_t)n;
}

int sb_output_track_stdout(void)
{
    cookie_io_functions_t io = {.write = out_write};
    FILE *f = fopencookie(NULL, "w", io);
    if (!f)
        return -errno;
    if (isatty(STDOUT_FILENO))
        setvbuf(f, NULL, _IOLBF, BUFSIZ);
    stdout = f;
    return 0;
}

int sb_output_stdout_error(void)
{
    int e = 0;
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout))
        e = errno ? errno : EIO;
    return first_error ? first_error : e;
}
