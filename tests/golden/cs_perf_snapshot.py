#!/usr/bin/env python3
"""Turn the CoreSight trace of a perf.data file into OpenCSD snapshot
directories that trc_pkt_lister decodes: the independent side of
tests/golden/cs_perf.test.  It reads the perf.data records itself (not
through ptdecode):

  AUXTRACE_INFO (type 70)  perf's CS_ETM metadata: header version 0 or 1,
                           per source its magic (ETMv3/PTM, ETMv4, ETE),
                           CPU and registers
  AUXTRACE (71)            each chunk of trace and its queue (idx, cpu)
  AUX (11)                 the flags: 0x100 marks unformatted (TRBE) trace
  MMAP (1), MMAP2 (10)     where the given binaries were mapped

and writes one snapshot directory per chunk (OUT/NNN, in the order the
queues are decoded: by queue index, then file order), as perf resets its
decoder for each chunk: the chunk's bytes as the buffer, formatted
("coresight", all sources) or unformatted ("source_data", the source of
the queue's CPU), one device file per source with its registers, and a
core per source whose memory dumps are the mapped ranges of the binaries
given as RECORDED-PATH=LOCAL-FILE.  OUT/list names each directory with its
queue index, CPU, size, format, and "last" for the queue's last chunk.

usage: cs_perf_snapshot.py PERF.DATA OUT [RECORDED-PATH=LOCAL-FILE ...]
"""
import os
import shutil
import struct
import sys

ETMV3, ETMV4, ETE = 0x3030303030303030, 0x4040404040404040, 0x5050505050505050
REGS = {
    ETMV3: ["ETMCR", "ETMTRACEIDR", "ETMCCER", "ETMIDR"],
    ETMV4: ["TRCCONFIGR", "TRCTRACEIDR", "TRCIDR0", "TRCIDR1", "TRCIDR2", "TRCIDR8",
            "TRCAUTHSTATUS"],
    ETE: ["TRCCONFIGR", "TRCTRACEIDR", "TRCIDR0", "TRCIDR1", "TRCIDR2", "TRCIDR8",
          "TRCAUTHSTATUS", "TRCDEVARCH"],
}
# the architecture perf's decoder assumes: ETMv3 v7-A, ETMv4 v8-A, ETE AArch64
CORE = {ETMV3: "ARMv7-A", ETMV4: "ARMv8-A", ETE: "ARM-AA64"}
DEVTYPE = {ETMV3: "ETM3", ETMV4: "ETM4", ETE: "ETE"}


def fail(msg):
    sys.stderr.write("cs_perf_snapshot.py: %s\n" % msg)
    sys.exit(2)


def parse_sources(words):
    """perf's CS_ETM AUXTRACE_INFO words -> list of (magic, cpu, regs)"""
    if len(words) < 3:
        fail("AUXTRACE_INFO too short")
    version, nsrc = words[0], words[1] & 0xffffffff
    pos, out = 3, []
    for _ in range(nsrc):
        magic, cpu = words[pos], words[pos + 1]
        if magic not in REGS:
            fail("unknown magic %#x" % magic)
        if version == 0:
            n = len(REGS[magic]) if magic != ETMV4 else 7
            regs = words[pos + 2:pos + 2 + n]
            pos += 2 + n
        else:
            n = words[pos + 2]
            regs = words[pos + 3:pos + 3 + n]
            pos += 3 + n
        out.append((magic, cpu, regs))
    return out


def read_perf(path):
    d = open(path, "rb").read()
    if d[:8] != b"PERFILE2":
        fail("%s: not a perf.data file" % path)
    data_off, data_size = struct.unpack_from("<QQ", d, 40)
    p, end = data_off, data_off + data_size
    info, chunks, aux, maps = None, [], [], []
    while p + 8 <= end:
        typ, misc, size = struct.unpack_from("<IHH", d, p)
        if size < 8:
            fail("record at %#x: size %d" % (p, size))
        if typ == 70:
            n = (size - 16) // 8
            info = struct.unpack_from("<%dQ" % n, d, p + 16)
        elif typ == 71:
            sz, off, ref, idx, tid, cpu = struct.unpack_from("<QQQIiI", d, p + 8)
            chunks.append((idx, cpu, off, d[p + size:p + size + sz]))
            p += sz
        elif typ == 11:
            aoff, asz, flags = struct.unpack_from("<QQQ", d, p + 8)
            aux.append(flags)
        elif typ in (1, 10):
            pid, tid, start, ln, pgoff = struct.unpack_from("<iiQQQ", d, p + 8)
            name_at = p + 40 if typ == 1 else p + 40 + 32
            name = d[name_at:p + size].split(b"\0")[0].decode("utf-8", "replace")
            maps.append((name, start, ln, pgoff))
        p += size
    if info is None:
        fail("%s: no AUXTRACE_INFO" % path)
    return info, chunks, aux, maps


def write_snapshot(out, sources, chunk, raw, dumps):
    idx, cpu, _, data = chunk
    os.makedirs(out)
    with open(os.path.join(out, "trace.bin"), "wb") as f:
        f.write(data)
    if raw:
        picked = [s for s in sources if s[1] == cpu] or sources[:1]
    else:
        picked = sources
    names = {}
    for local, _, _, _ in dumps:
        if local not in names:
            names[local] = "mem_%d.bin" % len(names)
            shutil.copyfile(local, os.path.join(out, names[local]))
    devs = []
    for i, (magic, scpu, regs) in enumerate(picked):
        src, core = "ETM_%d" % i, "cpu_%d" % i
        with open(os.path.join(out, src + ".ini"), "w") as f:
            f.write("[device]\nname=%s\nclass=trace_source\ntype=%s\n\n[regs]\n" %
                    (src, DEVTYPE[magic]))
            for name, val in zip(REGS[magic], regs):
                f.write("%s=%#x\n" % (name, val))
        with open(os.path.join(out, core + ".ini"), "w") as f:
            f.write("[device]\nname=%s\nclass=core\ntype=%s\n\n[regs]\nPC=0\n\n" %
                    (core, CORE[magic]))
            for k, (local, start, ln, off) in enumerate(dumps):
                f.write("[dump%d]\nfile=%s\naddress=%#x\nlength=%#x\noffset=%#x\n\n" %
                        (k + 1, names[local], start, ln, off))
        devs.append((src, core))
    with open(os.path.join(out, "snapshot.ini"), "w") as f:
        f.write("[snapshot]\nversion=1.0\n\n[device_list]\n")
        k = 0
        for src, core in devs:
            f.write("device%d=%s.ini\n" % (k, core))
            f.write("device%d=%s.ini\n" % (k + 1, src))
            k += 2
        f.write("\n[trace]\nmetadata=trace.ini\n")
    with open(os.path.join(out, "trace.ini"), "w") as f:
        f.write("[trace_buffers]\nbuffers=buffer0\n\n[buffer0]\nname=ETB_0\nfile=trace.bin\n"
                "format=%s\n\n[source_buffers]\n" % ("source_data" if raw else "coresight"))
        for src, _ in devs:
            f.write("%s=ETB_0\n" % src)
        f.write("\n[core_trace_sources]\n")
        for src, core in devs:
            f.write("%s=%s\n" % (core, src))


def main():
    if len(sys.argv) < 3:
        fail("usage: cs_perf_snapshot.py PERF.DATA OUT [RECORDED-PATH=LOCAL-FILE ...]")
    info, chunks, aux, maps = read_perf(sys.argv[1])
    out = sys.argv[2]
    bins = dict(a.split("=", 1) for a in sys.argv[3:])
    sources = parse_sources(info)
    os.makedirs(out, exist_ok=True)
    dumps, seen = [], set()
    for name, start, ln, pgoff in maps:
        if name in bins and (start, ln, pgoff) not in seen:
            seen.add((start, ln, pgoff))
            local = os.path.abspath(bins[name])
            size = os.path.getsize(local)
            if pgoff < size:
                dumps.append((local, start, min(ln, size - pgoff), pgoff))
    # every AUX record's flags agree in these files; perf takes each
    # record's, which here is the same
    raw = any(f & 0x100 for f in aux)
    order = sorted(range(len(chunks)), key=lambda i: (chunks[i][0], i))
    with open(os.path.join(out, "list"), "w") as lst:
        for n, i in enumerate(order):
            d = os.path.join(out, "%03d" % n)
            write_snapshot(d, sources, chunks[i], raw, dumps)
            last = n + 1 == len(order) or chunks[order[n + 1]][0] != chunks[i][0]
            lst.write("%s idx=%d cpu=%d bytes=%d %s %s\n" % (d, chunks[i][0], chunks[i][1],
                                                             len(chunks[i][3]),
                                                             "unformatted" if raw else "formatted",
                                                             "last" if last else "more"))


if __name__ == "__main__":
    main()
