/* elf_buildid: see elf_buildid.h. Every offset and size read from the file
 * is checked before use: the path comes from the dump and may name anything. */
#define _POSIX_C_SOURCE 200809L
#include "read/elf_buildid.h"
#include "util/cmdutil.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PT_NOTE_ 4
#define SHT_NOTE_ 7
#define NT_GNU_BUILD_ID_ 3
/* Note areas are small; this cap keeps a corrupt header from making us read
 * a whole (possibly huge) file. */
#define MAX_NOTE_AREA (1u << 20)
#define MAX_HEADERS 4096u

struct elf {
    int fd;
    off_t size;
    int is64, big;
};

static uint64_t get(const struct elf *e, const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (uint64_t)p[e->big ? n - 1 - i : i] << (8 * i);
    return v;
}

static int read_at(const struct elf *e, uint64_t off, void *buf, size_t len)
{
    if (off > (uint64_t)e->size || len > (uint64_t)e->size - off)
        return -1;
    unsigned char *p = buf;
    while (len > 0) {
        ssize_t n = pread(e->fd, p, len, (off_t)off);
        if (n <= 0)
            return -1;
        p += n;
        off += (uint64_t)n;
        len -= (size_t)n;
    }
    return 0;
}

/* Scans one note area [off, off+size) for the GNU build-id. */
static size_t scan_notes(const struct elf *e, uint64_t off, uint64_t size,
                         char *hex, size_t hexsize)
{
    if (size == 0 || size > MAX_NOTE_AREA)
        return 0;
    unsigned char *buf = cu_malloc(size);
    if (read_at(e, off, buf, size) != 0) {
        free(buf);
        return 0;
    }
    size_t found = 0;
    uint64_t pos = 0;
    while (size - pos >= 12) {
        uint64_t namesz = get(e, buf + pos, 4);
        uint64_t descsz = get(e, buf + pos + 4, 4);
        uint64_t type = get(e, buf + pos + 8, 4);
        pos += 12;
        /* Name and descriptor are each padded to 4 bytes (also in ELF64). */
        uint64_t name_pad = (namesz + 3) & ~(uint64_t)3;
        uint64_t desc_pad = (descsz + 3) & ~(uint64_t)3;
        if (name_pad > size - pos || desc_pad > size - pos - name_pad)
            break;
        const unsigned char *name = buf + pos;
        const unsigned char *desc = buf + pos + name_pad;
        if (type == NT_GNU_BUILD_ID_ && namesz == 4 &&
            memcmp(name, "GNU", 4) == 0 && descsz > 0 &&
            descsz * 2 + 1 <= hexsize) {
            static const char digits[] = "0123456789abcdef";
            for (uint64_t i = 0; i < descsz; i++) {
                hex[2 * i] = digits[desc[i] >> 4];
                hex[2 * i + 1] = digits[desc[i] & 15];
            }
            hex[2 * descsz] = '\0';
            found = (size_t)(2 * descsz);
            break;
        }
        pos += name_pad + desc_pad;
    }
    free(buf);
    return found;
}

/* Walks a header table (program or section headers), calling scan_notes on
 * each entry of type `want`. `type_off` etc. are the field offsets within
 * one entry for this ELF class. */
static size_t scan_table(const struct elf *e, uint64_t table, uint64_t num,
                         uint64_t entsize, uint32_t want, int type_off,
                         int off_off, int size_off, char *hex, size_t hexsize)
{
    unsigned char ent[64];
    int w = e->is64 ? 8 : 4;
    if (table == 0 || num == 0 || num > MAX_HEADERS ||
        entsize < (uint64_t)size_off + (uint64_t)w || entsize > sizeof ent)
        return 0;
    for (uint64_t i = 0; i < num; i++) {
        if (read_at(e, table + i * entsize, ent, (size_t)entsize) != 0)
            return 0;
        if (get(e, ent + type_off, 4) != want)
            continue;
        size_t n = scan_notes(e, get(e, ent + off_off, w),
                              get(e, ent + size_off, w), hex, hexsize);
        if (n)
            return n;
    }
    return 0;
}

/* Where the fields we read are, per ELF class: the file header's
 * program and section header tables, and the note's place in one entry.
 * The two classes differ only in these numbers. */
struct layout {
    int word;                             /* address/offset size */
    int phoff, shoff, phentsize, phnum, shentsize, shnum; /* Ehdr */
    int p_offset, p_filesz;               /* Phdr (p_type is at 0) */
    int sh_offset, sh_size;               /* Shdr (sh_type is at 4) */
};
static const struct layout layouts[2] = {
    {4, 28, 32, 42, 44, 46, 48, 4, 16, 16, 20}, /* ELFCLASS32 */
    {8, 32, 40, 54, 56, 58, 60, 8, 32, 24, 32}, /* ELFCLASS64 */
};

size_t elf_buildid_hex(const char *path, char *hex, size_t hexsize)
{
    if (hexsize == 0)
        return 0;
    hex[0] = '\0';
    /* O_NONBLOCK: a FIFO or device named in the dump must not hang us; we
     * then only accept regular files. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct stat st;
    size_t n = 0;
    unsigned char eh[64];
    struct elf e = { .fd = fd };
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        goto out;
    e.size = st.st_size;
    if (read_at(&e, 0, eh, 52) != 0 || memcmp(eh, "\177ELF", 4) != 0)
        goto out;
    if ((eh[4] != 1 && eh[4] != 2) || (eh[5] != 1 && eh[5] != 2))
        goto out;
    e.is64 = eh[4] == 2;
    e.big = eh[5] == 2;
    if (e.is64 && read_at(&e, 0, eh, 64) != 0)
        goto out;
    const struct layout *l = &layouts[e.is64];
    n = scan_table(&e, get(&e, eh + l->phoff, l->word), get(&e, eh + l->phnum, 2),
                   get(&e, eh + l->phentsize, 2), PT_NOTE_, 0, l->p_offset,
                   l->p_filesz, hex, hexsize);
    if (!n)
        n = scan_table(&e, get(&e, eh + l->shoff, l->word),
                       get(&e, eh + l->shnum, 2), get(&e, eh + l->shentsize, 2),
                       SHT_NOTE_, 4, l->sh_offset, l->sh_size, hex, hexsize);
out:
    close(fd);
    return n;
}
