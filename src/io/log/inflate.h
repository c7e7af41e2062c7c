/*
 * inflate — fio's --inflate-log: a log stored compressed (log_store_compressed, a .log.fz
 * file of zlib streams of fio's binary samples) printed as its text log (inflate.c).
 */
#ifndef SB_IO_INFLATE_H
#define SB_IO_INFLATE_H

#include <stddef.h>
#include <stdio.h>

/* FILE's samples to out, one line each as fio prints them. 0; -EINVAL (with one line in
 * err) when it is not such a file or ends inside a stream; -errno when it cannot be read. */
int sb_iolog_inflate(const char *path, FILE *out, char *err, size_t errlen);

#endif
