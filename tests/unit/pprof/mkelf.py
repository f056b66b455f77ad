#!/usr/bin/env python3
"""Writes a minimal ELF file carrying a GNU build-id note, to test that
cycprof pprof reads build-ids from every ELF flavour, not only the host's.

usage: mkelf.py CLASS ENDIAN WHERE BUILDID_HEX OUT
  CLASS   32 or 64;  ENDIAN  le or be
  WHERE   phdr (note in a PT_NOTE segment) or shdr (only a SHT_NOTE section,
          as in a file with no program headers)

Layout: ELF header, one header table entry, then the notes. The build-id
note comes after an unrelated one (type 1, name "XYZ"), so the scanner has
to step over a note."""
import struct
import sys


def note(e, name, ntype, desc):
    name_b = name + b"\0"
    pad = lambda b: b + b"\0" * (-len(b) % 4)
    return (struct.pack(e + "III", len(name_b), len(desc), ntype)
            + pad(name_b) + pad(desc))


def main():
    cls, endian, where, hexid, out = sys.argv[1:6]
    is64, e = cls == "64", "<" if endian == "le" else ">"
    notes = (note(e, b"XYZ", 1, b"\1\2\3")
             + note(e, b"GNU", 3, bytes.fromhex(hexid)))
    ehsize = 64 if is64 else 52
    if where == "phdr":
        entsize = 56 if is64 else 32
    else:
        entsize = 64 if is64 else 40
    table_off = ehsize
    note_off = table_off + entsize
    ident = (b"\x7fELF" + bytes([2 if is64 else 1, 1 if endian == "le" else 2, 1])
             + b"\0" * 9)
    addr = "Q" if is64 else "I"
    ph = where == "phdr"
    # e_type, e_machine, e_version, e_entry, e_phoff, e_shoff, e_flags,
    # e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx
    hdr = ident + struct.pack(e + "HHI" + addr * 3 + "IHHHHHH", 2, 62, 1, 0,
                              table_off if ph else 0, 0 if ph else table_off,
                              0, ehsize, entsize if ph else 0, 1 if ph else 0,
                              0 if ph else entsize, 0 if ph else 1, 0)
    assert len(hdr) == ehsize
    n = len(notes)
    if ph and is64:      # p_type p_flags p_offset p_vaddr p_paddr p_filesz p_memsz p_align
        ent = struct.pack(e + "IIQQQQQQ", 4, 4, note_off, 0, 0, n, n, 4)
    elif ph:             # p_type p_offset p_vaddr p_paddr p_filesz p_memsz p_flags p_align
        ent = struct.pack(e + "IIIIIIII", 4, note_off, 0, 0, n, n, 4, 4)
    elif is64:           # sh_name sh_type sh_flags sh_addr sh_offset sh_size ...
        ent = struct.pack(e + "IIQQQQIIQQ", 0, 7, 2, 0, note_off, n, 0, 0, 4, 0)
    else:
        ent = struct.pack(e + "IIIIIIIIII", 0, 7, 2, 0, note_off, n, 0, 0, 4, 0)
    assert len(ent) == entsize
    with open(out, "wb") as f:
        f.write(hdr + ent + notes)


if __name__ == "__main__":
    main()
