#!/usr/bin/env python3
# Writes a small blktrace binary trace for tests/cli/test_fio_iolog.sh, following struct
# blk_io_trace of linux/blktrace_api.h (48 bytes: magic|version, sequence, time ns,
# sector, bytes, action, pid, device, cpu, error, pdu_len, then pdu_len bytes): a notify
# record with a payload, then for each of 6 I/Os a queue (Q) event and its completion (C),
# which a replay passes over.
#   blktrace_gen.py OUT ENDIAN('<' or '>') STEP_NS KINDS(r, w, t letters, in turn) [DEVICE]
import struct, sys
# blk_io_trace: magic, sequence, time, sector, bytes, action, pid, device, cpu, error, pdu_len
def rec(seq, t, sector, nbytes, action, dev=(8 << 20) | 0, pdu=b'', endian='<'):
    return struct.pack(endian + 'IIQQIIIIIHH', 0x65617407, seq, t, sector, nbytes, action, 1, dev, 0, 0, len(pdu)) + pdu
Q = 1; C = 8
R = 1 << 16; W = 2 << 16; DISC = (1 << 13) << 16; QCAT = (1 << 4) << 16; NOTIFY = (1 << 10) << 16
out, endian, step, kinds = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
dev = int(sys.argv[5]) if len(sys.argv) > 5 else (8 << 20)
b = b''
b += rec(0, 0, 0, 0, NOTIFY | 0, pdu=b'proc\0', endian=endian)
for i in range(6):
    kind = {'r': R, 'w': W, 't': DISC}[kinds[i % len(kinds)]]
    b += rec(i + 1, i * step, i * 8, 4096, Q | QCAT | kind, dev=dev, endian=endian)
    b += rec(i + 100, i * step + 1000, i * 8, 4096, C | (1 << 7 << 16) | kind, endian=endian)
open(out, 'wb').write(b)
