#!/usr/bin/env python3
"""Write what perf record --kcore copies into a perf.data directory's
kcore_dir for a kernel image: `kcore.py VMLINUX KCORE`.  KCORE is an ELF
core file (ET_CORE) like perf's kcore_copy writes: one PT_LOAD segment
holding the kernel text (the image's executable PT_LOAD segments, from
their first page to the end of the last), at the kernel's addresses."""
import struct
import sys

vm = open(sys.argv[1], 'rb').read()
if vm[:4] != b'\x7fELF' or vm[4] != 2 or vm[5] != 1:
    sys.exit('kcore.py: not a little-endian ELF64 file')
phoff, = struct.unpack_from('<Q', vm, 32)
phentsize, phnum = struct.unpack_from('<HH', vm, 54)
text = []
for i in range(phnum):
    p_type, p_flags, p_offset, p_vaddr, _, p_filesz, _, _ = \
        struct.unpack_from('<IIQQQQQQ', vm, phoff + i * phentsize)
    if p_type == 1 and p_flags & 1:       # PT_LOAD, PF_X
        text.append((p_vaddr, vm[p_offset:p_offset + p_filesz]))
if not text:
    sys.exit('kcore.py: no executable segment')
start = text[0][0] & ~0xfff
end = max(v + len(b) for v, b in text)
image = bytearray(end - start)
for v, b in text:
    image[v - start:v - start + len(b)] = b
OFF = 0x1000                              # the segment's bytes, page-aligned
ehdr = struct.pack('<16sHHIQQQIHHHHHH', b'\x7fELF\x02\x01\x01' + bytes(9),
                   4, 62, 1, 0, 64, 0, 0, 64, 56, 1, 64, 0, 0)
phdr = struct.pack('<IIQQQQQQ', 1, 7, OFF, start, 0, len(image), len(image), 0x1000)
with open(sys.argv[2], 'wb') as f:
    f.write(ehdr + phdr + bytes(OFF - len(ehdr) - len(phdr)) + image)
