#!/usr/bin/env python3
"""The AUX area data of one CPU's queue in a perf.data file: the payloads of
its AUXTRACE records, in file order, written to OUT (for trc_pkt_lister,
which reads a CoreSight trace buffer from a snapshot directory).

usage: aux-payload.py PERF.DATA CPU OUT"""
import struct
import sys


def main():
    data = open(sys.argv[1], 'rb').read()
    cpu = int(sys.argv[2])
    off, size = struct.unpack_from('<QQ', data, 40)   # the header's data section
    pos, end, out = off, off + size, bytearray()
    while pos + 8 <= end:
        typ, _misc, rsize = struct.unpack_from('<IHH', data, pos)
        if rsize < 8:
            sys.exit('aux-payload.py: bad record size at offset %d' % pos)
        if typ == 71:   # PERF_RECORD_AUXTRACE: size, offset, reference, idx, tid, cpu
            n, _o, _ref, _idx, _tid, rcpu = struct.unpack_from('<QQQIiI', data, pos + 8)
            if rcpu == cpu:
                out += data[pos + rsize:pos + rsize + n]
            pos += rsize + n
        else:
            pos += rsize
    open(sys.argv[3], 'wb').write(out)


main()
