#!/usr/bin/env python3
"""OpenCSD's full decode of an ETM recording (trc_pkt_lister -decode_only on
its AUX data and the program's image) against the ground truth of a
single-threaded program with no asynchronous exits: each instruction range
OpenCSD decodes ends at a control transfer of the truth, in order (its last
instruction is the transfer's, E when it was taken), and the ranges hold
all the thread's instructions.

usage: etm-ranges.py TRC_PKT_LISTER-OUTPUT TRUTH
Prints "RANGES INSTRUCTIONS" when they agree; otherwise the first
differences, and exits 1."""
import re
import sys

RANGE = re.compile(r'INSTR_RANGE\(exec range=0x([0-9a-f]+):\[0x([0-9a-f]+)\] num_i\((\d+)\).*\) ([EN]) ')


def main():
    got, insns = [], 0
    for line in open(sys.argv[1]):
        m = RANGE.search(line)
        if m:
            got.append((int(m.group(2), 16) - 4, 1 if m.group(4) == 'E' else 0))
            insns += int(m.group(3))
    want, want_insns = [], None
    for line in open(sys.argv[2]):
        f = line.split()
        if f[0] == 'X':
            if f[2] == '7':
                sys.exit('etm-ranges.py: asynchronous exits are not compared')
            want.append((int(f[3], 16), int(f[5])))
        elif f[0] == 'E':
            want_insns = int(f[2])
    bad = [i for i, (a, b) in enumerate(zip(got, want)) if a != b]
    if len(got) != len(want) or bad or insns != want_insns:
        print('%d ranges, %d transfers; %d instructions, %s in the truth' %
              (len(got), len(want), insns, want_insns))
        for i in bad[:5]:
            print('range %d: ends at %#x %s, the truth %#x %s' %
                  (i, got[i][0], 'EN'[1 - got[i][1]], want[i][0], 'EN'[1 - want[i][1]]))
        sys.exit(1)
    print(len(got), insns)


main()
