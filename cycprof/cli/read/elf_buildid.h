/* elf_buildid: reads the GNU build-id note (NT_GNU_BUILD_ID) of an ELF file.
 *
 * pprof identifies binaries by this id (it looks them up as
 * $PPROF_BINARY_PATH/<build-id>), so each Mapping carries it as lowercase
 * hex. Works on 32/64-bit, little/big-endian ELF, without libelf. */
#ifndef CYCPROF_ELF_BUILDID_H
#define CYCPROF_ELF_BUILDID_H

#include <stddef.h>

/* Writes the build-id of the ELF file at `path` as a NUL-terminated lowercase
 * hex string into `hex` (of size `hexsize`; 2 * 64 + 1 is always enough for
 * real ids) and returns its length. Returns 0 and sets hex to "" when the file
 * is unreadable, not a regular ELF file, has no build-id, or is malformed:
 * a missing id is normal (e.g. "[vdso]", a deleted file) and never an error. */
size_t elf_buildid_hex(const char *path, char *hex, size_t hexsize);

#endif
