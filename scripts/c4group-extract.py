#!/usr/bin/env python3
"""Extracts the files of an OpenClonk group (C4Group: .ocg, .ocd, .ocf) into a folder.

    scripts/c4group-extract.py ARCHIVE OUT [PATTERN]

Writes every file of ARCHIVE, nested groups as folders, under OUT (PATTERN: a regular expression
the path inside the archive must match, e.g. 'Clonk\\.ocg/Skin\\.ocg/'), and prints how many it
wrote. Used by scripts/held-out-sounds.sh for OpenClonk's sounds (Debian's openclonk-data).

The format (OpenClonk's C4Group.cpp): the whole archive is gzip with its magic bytes changed to
1e 8c; a group is a 204-byte header (scrambled: each byte XOR 0xED, then the bytes of every
three swapped first for last; it starts "RedWolf Design GrpFolder", its entry count at byte
36), then that many entries of 316 bytes (name, 260 bytes; packed, child group, size,
reserved, offset: little-endian 32-bit), then the entries' contents, each at its offset from
the end of the entries; a child group's contents are a group of its own.
"""
import gzip
import os
import re
import struct
import sys

HEADER = 204
ENTRY = 316


def files(path):
    """The files of the group at `path`: (path inside it, bytes)."""
    try:
        raw = bytearray(open(path, "rb").read())
    except OSError as error:
        sys.exit(f"{path}: cannot read the group ({error.strerror})")
    if raw[:2] != b"\x1e\x8c":
        sys.exit(f"{path}: not an OpenClonk group (C4Group) file")
    raw[:2] = b"\x1f\x8b"
    try:
        data = gzip.decompress(bytes(raw))
    except (OSError, EOFError) as error:
        sys.exit(f"{path}: corrupt OpenClonk group ({error})")
    found = []

    def read(base, prefix):
        header = bytearray(byte ^ 0xED for byte in data[base : base + HEADER])
        for i in range(0, len(header) - 2, 3):
            header[i], header[i + 2] = header[i + 2], header[i]
        if len(header) < HEADER or header[:24] != b"RedWolf Design GrpFolder":
            sys.exit(f"{path}: corrupt OpenClonk group (no group header at {prefix or 'its start'})")
        (count,) = struct.unpack("<i", header[36:40])
        contents = base + HEADER + ENTRY * count
        if count < 0 or contents > len(data):
            sys.exit(f"{path}: corrupt OpenClonk group ({prefix or 'its top group'} lists {count} entries past its end)")
        for index in range(count):
            entry = data[base + HEADER + ENTRY * index : base + HEADER + ENTRY * (index + 1)]
            name = entry[:260].split(b"\0")[0].decode("latin-1")
            _, child, size, _, offset = struct.unpack("<iiIII", entry[260:280])
            if "/" in name or name in ("", ".", ".."):
                sys.exit(f"{path}: corrupt OpenClonk group (entry name {name!r})")
            if contents + offset + (0 if child else size) > len(data):
                sys.exit(f"{path}: corrupt OpenClonk group ({prefix + name} lies past the archive's end)")
            if child:
                read(contents + offset, prefix + name + "/")
            else:
                found.append((prefix + name, data[contents + offset : contents + offset + size]))

    read(0, "")
    return found


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.split("\n\n")[1].strip())
    archive, out = sys.argv[1], sys.argv[2]
    pattern = re.compile(sys.argv[3]) if len(sys.argv) == 4 else None
    written = 0
    for name, body in files(archive):
        if pattern and not pattern.search(name):
            continue
        target = os.path.join(out, name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:
            f.write(body)
        written += 1
    print(f"{archive}: {written} files written under {out}")


if __name__ == "__main__":
    main()
