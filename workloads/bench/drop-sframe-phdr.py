#!/usr/bin/env python3
"""drop-sframe-phdr.py IN OUT: copy the ELF64 file IN to OUT with its
PT_GNU_SFRAME program header made PT_NULL, for the benchmark's exec figures
(scripts/bench.sh): the same binary, which the kernel then has no section
to register for. Fails when IN has no PT_GNU_SFRAME."""
import os
import struct
import sys

PT_NULL, PT_GNU_SFRAME = 0, 0x6474e554

src, dst = sys.argv[1:3]
elf = bytearray(open(src, 'rb').read())
if elf[:4] != b'\x7fELF' or elf[4] != 2 or elf[5] != 1:
    sys.exit('%s: not a little-endian ELF64 file' % src)
phoff, = struct.unpack_from('<Q', elf, 32)
phentsize, phnum = struct.unpack_from('<HH', elf, 54)
dropped = 0
for i in range(phnum):
    at = phoff + i * phentsize
    if struct.unpack_from('<I', elf, at)[0] == PT_GNU_SFRAME:
        struct.pack_into('<I', elf, at, PT_NULL)
        dropped += 1
if not dropped:
    sys.exit('%s: no PT_GNU_SFRAME program header' % src)
with open(dst, 'wb') as f:
    f.write(elf)
os.chmod(dst, os.stat(src).st_mode & 0o7777)
