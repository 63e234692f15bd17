#!/usr/bin/env python3
"""List the x86-64 ELF files with an SFrame section (PT_GNU_SFRAME).

  files.py PATH...

Each PATH is a file or a directory (its regular files, not recursively;
symbolic links are skipped, so that each file is listed once). Prints
"VERSION PATH" for each file with PT_GNU_SFRAME, VERSION being the version
byte of its SFrame header."""
import os
import struct
import sys

PT_GNU_SFRAME = 0x6474e554


def sframe_version(path):
    try:
        with open(path, 'rb') as f:
            eh = f.read(64)
            if (len(eh) < 64 or eh[:4] != b'\x7fELF' or eh[4] != 2 or
                    struct.unpack_from('<H', eh, 18)[0] != 62):
                return None
            phoff, = struct.unpack_from('<Q', eh, 32)
            phentsize, phnum = struct.unpack_from('<HH', eh, 54)
            f.seek(phoff)
            ph = f.read(phentsize * phnum)
            for i in range(phnum):
                p_type, = struct.unpack_from('<I', ph, i * phentsize)
                if p_type != PT_GNU_SFRAME:
                    continue
                offset, = struct.unpack_from('<Q', ph, i * phentsize + 8)
                f.seek(offset + 2)
                v = f.read(1)
                return v[0] if v else None
    except (OSError, struct.error):
        return None
    return None


for arg in sys.argv[1:]:
    if os.path.isdir(arg):
        paths = sorted(os.path.join(arg, n) for n in os.listdir(arg))
    else:
        paths = [arg]
    for p in paths:
        if os.path.islink(p) or not os.path.isfile(p):
            continue
        v = sframe_version(p)
        if v is not None:
            print(v, p)
