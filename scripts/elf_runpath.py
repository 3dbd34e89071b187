#!/usr/bin/env python3
"""elf_runpath.py FILE [NEW]: print the run path (DT_RUNPATH, or DT_RPATH) of the ELF file FILE, or
replace it by NEW in place (scripts/bundle.sh: run paths relative to the bundle).
elf_runpath.py -l FILE...: a line "FILE<TAB>RUN PATH" for each FILE that has one.

NEW is written over the old string in the dynamic string table, as chrpath does, so it must be no
longer than the old one. Exit status: 0 done, 2 not a 64-bit little-endian ELF file, 3 NEW is longer
than the old run path, 4 FILE has no run path, 5 another entry of the string table shares the old
string's bytes (nothing written)."""
import struct
import sys

DT_NULL, DT_STRTAB, DT_RPATH, DT_RUNPATH = 0, 5, 15, 29
STRING_TAGS = (1, 14, DT_RPATH, DT_RUNPATH)  # NEEDED, SONAME, RPATH, RUNPATH


class Skip(Exception):
    pass


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "-l":
        for path in sys.argv[2:]:
            try:
                print("%s\t%s" % (path, runpath(path, None)))
            except (Skip, OSError):
                pass
        return
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.split("\n\n")[0])
    try:
        old = runpath(sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else None)
    except Skip as e:
        sys.exit(e.args[0])
    if len(sys.argv) == 2:
        print(old)


def runpath(path, new):
    """FILE's run path (before NEW, when given, replaces it); Skip(exit status) when it cannot."""
    with open(path, "rb") as f:
        data = f.read(1 << 20) if new is None else f.read()
        if data[:4] == b"\x7fELF" and new is None:
            data += f.read()
    if data[:4] != b"\x7fELF" or len(data) < 64 or data[4] != 2 or data[5] != 1:
        raise Skip(2)
    phoff, shoff = struct.unpack_from("<QQ", data, 0x20)
    phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", data, 0x36)
    loads, dyn = [], None
    for i in range(phnum):
        ptype, _, off, vaddr, _, filesz = struct.unpack_from("<IIQQQQ", data, phoff + i * phentsize)
        if ptype == 1:
            loads.append((vaddr, off, filesz))
        elif ptype == 2:
            dyn = (off, filesz)
    if dyn is None:
        raise Skip(4)
    strtab, rp, strings = None, None, []
    for off in range(dyn[0], dyn[0] + dyn[1], 16):
        tag, val = struct.unpack_from("<qQ", data, off)
        if tag == DT_NULL:
            break
        if tag == DT_STRTAB:
            strtab = val
        elif tag in STRING_TAGS:
            strings.append(val)
            if tag in (DT_RPATH, DT_RUNPATH):
                rp = val
    if strtab is None or rp is None:
        raise Skip(4)
    base = next((o + strtab - va for va, o, sz in loads if va <= strtab < va + sz), None)
    if base is None:
        raise Skip(2)
    start = base + rp
    end = data.index(b"\0", start)
    old = data[start:end].decode(errors="replace")
    if new is None:
        return old
    new_bytes = new.encode()
    if len(new_bytes) > end - start:
        raise Skip(3)
    # the linker merges strings that end alike: no other name may point inside the old one
    for i in range(shnum):
        _, stype, _, _, soff, ssize, _, _, _, entsize = struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
        if stype == 11 and entsize:  # SHT_DYNSYM: symbol names
            strings += [struct.unpack_from("<I", data, soff + k)[0] for k in range(0, ssize, entsize)]
    if any(rp < s < rp + (end - start) for s in strings):
        raise Skip(5)
    with open(path, "r+b") as f:
        f.seek(start)
        f.write(new_bytes + b"\0" * (end - start - len(new_bytes)))
    return old


if __name__ == "__main__":
    main()
