#!/usr/bin/env python3
"""Rewrite a `ptdecode-record --etm --hw-id` recording (CoreSight metadata
header version 2, every TRCTRACEIDR flagged unused, the trace IDs in
AUX_OUTPUT_HW_ID records: 0x41 + CPU).

  cs_hwid.py v1 IN OUT        the file perf 6.1 reads: header version 1,
                              each source's TRCTRACEIDR its CPU's HW_ID
  cs_hwid.py version IN OUT   the first AUX_OUTPUT_HW_ID of version 1
  cs_hwid.py conflict IN OUT  every AUX_OUTPUT_HW_ID with the first one's ID
"""
import struct
import sys

AUXTRACE_INFO, AUXTRACE, AUX_OUTPUT_HW_ID = 70, 71, 21


def records(b):
    """(offset, type) of every record of a file-mode perf.data"""
    assert b[:8] == b'PERFILE2', 'not a perf.data file'
    off, size = struct.unpack_from('<QQ', b, 40)
    pos = off
    while pos < off + size:
        typ, _misc, sz = struct.unpack_from('<IHH', b, pos)
        assert sz >= 8, 'bad record size at %#x' % pos
        yield pos, typ
        pos += sz
        if typ == AUXTRACE:
            pos += struct.unpack_from('<Q', b, pos - sz + 8)[0]


def main():
    mode, src, dst = sys.argv[1:4]
    b = bytearray(open(src, 'rb').read())
    hw = [pos for pos, typ in records(b) if typ == AUX_OUTPUT_HW_ID]
    assert hw, 'no AUX_OUTPUT_HW_ID record'
    if mode == 'v1':
        info = [pos for pos, typ in records(b) if typ == AUXTRACE_INFO][0]
        p = info + 16
        ver, pmu_n = struct.unpack_from('<QQ', b, p)
        assert ver == 2, 'header version %d' % ver
        struct.pack_into('<Q', b, p, 1)
        q = p + 24
        for _ in range(pmu_n & 0xffffffff):
            _magic, cpu, nparams = struct.unpack_from('<QQQ', b, q)
            struct.pack_into('<Q', b, q + 32, 0x41 + cpu)   # TRCTRACEIDR
            q += 24 + 8 * nparams
    elif mode == 'version':
        struct.pack_into('<Q', b, hw[0] + 8, struct.unpack_from('<Q', b, hw[0] + 8)[0] | 1 << 60)
    elif mode == 'conflict':
        first = struct.unpack_from('<Q', b, hw[0] + 8)[0]
        for pos in hw:
            struct.pack_into('<Q', b, pos + 8, first)
    else:
        sys.exit('unknown mode ' + mode)
    open(dst, 'wb').write(b)


if __name__ == '__main__':
    main()
