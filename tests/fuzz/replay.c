/*
 * replay — runs a fuzz harness's LLVMFuzzerTestOneInput on files, without
 * libFuzzer: `make check` replays every seed and every regression input (a
 * crash the fuzzer once found) through each harness with the ordinary
 * compiler, and under `make asan` with the sanitizers. Arguments are files or
 * directories (their files, not recursive). Prints one line with the count.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/fileio.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    char *buf;
    size_t n;
    /* Fuzz inputs are small; 64 MiB is far beyond any libFuzzer -max_len. */
    int rc = sb_read_file(path, 64u << 20, 0, &buf, &n);
    if (rc < 0) {
        fprintf(stderr, "%s: %s\n", path, strerror(-rc));
        return -1;
    }
    LLVMFuzzerTestOneInput((const uint8_t *)buf, n);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    size_t done = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) < 0) {
            perror(argv[i]);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            if (replay_file(argv[i]) < 0)
                return 1;
            done++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        struct dirent *de;
        while (d && (de = readdir(d))) {
            char p[4096];
            snprintf(p, sizeof p, "%s/%s", argv[i], de->d_name);
            if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
                if (replay_file(p) < 0)
                    return 1;
                done++;
            }
        }
        if (d)
            closedir(d);
    }
    printf("replayed %zu inputs\n", done);
    return 0;
}
