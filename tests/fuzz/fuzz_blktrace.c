/*
 * fuzz_blktrace — libFuzzer harness for the blktrace reader (io/log/blktrace.c): the
 * input's first byte sets the replay options as in fuzz_iolog.c, the rest is cut in
 * 48-byte records whose magic is forced to blktrace's (in either byte order, by the
 * first byte's top bit), so that the fuzzer spends its time on actions, sizes, sectors
 * and payload lengths rather than on finding the magic. Same promises as fuzz_iolog.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "replay_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 + SB_BLKTRACE_REC || size > (1u << 20))
        return 0;
    uint8_t *buf = malloc(size - 1);
    if (!buf)
        return 0;
    memcpy(buf, data + 1, size - 1);
    static const uint8_t le[4] = {0x07, 0x74, 0x61, 0x65}, be[4] = {0x65, 0x61, 0x74, 0x07};
    /* every record's magic where a record would start without payloads; payloads move
     * the later ones, which the fuzzer then meets as they are */
    for (size_t o = 0; o + SB_BLKTRACE_REC <= size - 1; o += SB_BLKTRACE_REC)
        memcpy(buf + o, data[0] & 0x80 ? be : le, 4);
    sb_fuzz_replay_log(buf, size - 1, data[0]);
    free(buf);
    return 0;
}
