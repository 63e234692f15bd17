#!/usr/bin/env python3
"""Count the records of perf.data files, without perf.

  perfdata.py FILE...

Reads the PERFILE2 format: the header and the data section's records. For
each FILE prints one line: its size, samples and their bytes, the deferred
user callchains (PERF_RECORD_CALLCHAIN_DEFERRED: one per walk of the
deferred unwinder, shared by the samples taken before the task went back to
user space) with their frames, and the samples perf lost. scripts/bench.py
uses perf_data() as a module.
"""
import os
import struct
import sys

PERF_RECORD_LOST = 2
PERF_RECORD_SAMPLE = 9
PERF_RECORD_LOST_SAMPLES = 13
PERF_RECORD_CALLCHAIN_DEFERRED = 22


def perf_data(path):
    """The records of a perf.data file: a dict with file (bytes), samples,
    sample_bytes, deferred (records), deferred_bytes, frames (the user
    frames of all deferred callchains), depths ({frames: walks}) and lost
    (samples)."""
    with open(path, 'rb') as f:
        head = f.read(104)
        if len(head) < 104 or head[:8] != b'PERFILE2':
            raise ValueError('%s: not a perf.data file' % path)
        # magic, size, attr_size, attrs {offset, size}, data {offset, size}
        data_off, data_size = struct.unpack_from('<QQ', head, 40)
        f.seek(data_off)
        data = f.read(data_size)
    r = dict(file=os.path.getsize(path), samples=0, sample_bytes=0,
             deferred=0, deferred_bytes=0, frames=0, depths={}, lost=0)
    i = 0
    while i + 8 <= len(data):
        typ, _misc, size = struct.unpack_from('<IHH', data, i)
        if size < 8:
            raise ValueError('%s: bad record at %d' % (path, data_off + i))
        if typ == PERF_RECORD_SAMPLE:
            r['samples'] += 1
            r['sample_bytes'] += size
        elif typ == PERF_RECORD_CALLCHAIN_DEFERRED:
            # header, u64 cookie, u64 nr, u64 ips[nr], sample_id
            nr, = struct.unpack_from('<Q', data, i + 16)
            r['deferred'] += 1
            r['deferred_bytes'] += size
            r['frames'] += nr
            r['depths'][nr] = r['depths'].get(nr, 0) + 1
        elif typ == PERF_RECORD_LOST:
            r['lost'] += struct.unpack_from('<Q', data, i + 16)[0]
        elif typ == PERF_RECORD_LOST_SAMPLES:
            r['lost'] += struct.unpack_from('<Q', data, i + 8)[0]
        i += size
    return r


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip())
    for path in sys.argv[1:]:
        r = perf_data(path)
        print('%s: %d bytes, %d samples (%d bytes), %d deferred callchains (%d bytes, '
              '%d frames), %d lost' % (path, r['file'], r['samples'], r['sample_bytes'],
                                      r['deferred'], r['deferred_bytes'], r['frames'],
                                      r['lost']))


if __name__ == '__main__':
    main()
