/*
 * fuzz_iolog — libFuzzer harness for read_iolog's reader (io/log/iolog_replay.c and,
 * through it, blktrace.c): the first byte sets the replay options (replay_scale,
 * replay_align, replay_skip), the rest is the log, read from memory (fmemopen) as a
 * file would be. Whatever the bytes, the reader gives well-formed operations (sizes in
 * bounds, offsets below 2^63, aligned when replay_align asks) or one error line that
 * names the log, never a crash, and it ends: every call consumes input.
 */
#include <stdint.h>

#include "replay_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    sb_fuzz_replay_log(data + 1, size - 1, data[0]);
    return 0;
}
