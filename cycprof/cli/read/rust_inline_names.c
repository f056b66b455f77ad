/* rust_inline_names.c: see rust_inline_names.h. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "util/cmdutil.h"
#include "read/rust_inline_names.h"

#ifdef HAVE_DWARF_NAMES
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <libiberty/demangle.h>
#include <unistd.h>

#ifndef DW_LANG_Rust
#define DW_LANG_Rust 0x1c
#endif

/* The code ranges of a Rust unit's functions, sorted, so that an address
 * leads straight to its function's DIE (dwarf_getscopes would walk the
 * unit from the top for every address, and gives up on the first DIE whose
 * address it cannot read, which rustc's units have). */
struct code_range {
    Dwarf_Addr lo, hi;
    Dwarf_Off die;
};

struct unit {
    Dwarf_Off offset;
    int rust;
    struct code_range *ranges;
    size_t n, cap;
};

struct object {
    char *path;
    uint64_t start, file_offset;
    int state;          /* 0 not opened yet, 1 usable, -1 no DWARF */
    int fd;
    Elf *elf;
    Dwarf *dwarf;
    struct unit *units;
    size_t nunits, units_cap;
    size_t last_unit;   /* consecutive locations share their unit */
    struct unit all;    /* every unit's code ranges (die: the unit), for
                           objects without .debug_aranges; built once */
    int all_built;
};

struct inline_namer {
    struct object *maps;   /* [id - 1] */
    size_t nmaps, cap;
    char **owned;          /* names handed out by the last inn_names */
    size_t nowned, owned_cap;
};

struct inline_namer *inn_new(void)
{
    elf_version(EV_CURRENT);
    return cu_calloc(1, sizeof(struct inline_namer));
}

static void release_names(struct inline_namer *n)
{
    for (size_t i = 0; i < n->nowned; i++)
        free(n->owned[i]);
    n->nowned = 0;
}

void inn_free(struct inline_namer *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->nmaps; i++) {
        struct object *o = &n->maps[i];
        for (size_t u = 0; u < o->nunits; u++)
            free(o->units[u].ranges);
        free(o->all.ranges);
        free(o->units);
        if (o->dwarf)
            dwarf_end(o->dwarf);
        if (o->elf)
            elf_end(o->elf);
        if (o->state != 0 && o->fd >= 0)
            close(o->fd);
        free(o->path);
    }
    release_names(n);
    free(n->owned);
    free(n->maps);
    free(n);
}

void inn_add_map(struct inline_namer *n, uint64_t id, uint64_t start,
                 uint64_t file_offset, const char *path)
{
    if (id != n->nmaps + 1)
        return;             /* the reader guarantees dense ids */
    cu_grow(&n->maps, &n->cap, n->nmaps + 1, sizeof *n->maps);
    struct object *o = &n->maps[n->nmaps];
    memset(o, 0, sizeof *o);
    o->fd = -1;
    o->path = cu_strdup(path);
    o->start = start;
    o->file_offset = file_offset;
    n->nmaps++;
}

static int open_object(struct object *o)
{
    if (o->state != 0)
        return o->state;
    o->state = -1;
    o->fd = open(o->path, O_RDONLY | O_CLOEXEC);
    if (o->fd < 0)
        return -1;
    o->elf = elf_begin(o->fd, ELF_C_READ_MMAP, NULL);
    if (!o->elf || elf_kind(o->elf) != ELF_K_ELF)
        return -1;
    o->dwarf = dwarf_begin_elf(o->elf, DWARF_C_READ, NULL);
    if (!o->dwarf)
        return -1;
    o->state = 1;
    return 1;
}

/* The link-time address of the code at run-time `address`: through the
 * file offset, into the PT_LOAD segment that holds it. */
static int link_address(const struct object *o, uint64_t address,
                        Dwarf_Addr *out)
{
    size_t nph;
    if (address < o->start || elf_getphdrnum(o->elf, &nph) != 0)
        return -1;
    uint64_t off = address - o->start + o->file_offset;
    for (size_t i = 0; i < nph; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(o->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
            continue;
        if (off >= ph.p_offset && off - ph.p_offset < ph.p_filesz) {
            *out = ph.p_vaddr + (off - ph.p_offset);
            return 0;
        }
    }
    return -1;
}

static void keep(struct inline_namer *n, char *s)
{
    cu_grow(&n->owned, &n->owned_cap, n->nowned + 1, sizeof *n->owned);
    n->owned[n->nowned++] = s;
}

/* Names one inlined subroutine the way its real frame would be named. */
static void name_inlined(struct inline_namer *n, Dwarf_Die *inl,
                         const char *short_name, struct inn_name *out)
{
    Dwarf_Attribute a;
    Dwarf_Die origin;
    const char *dw_name = dwarf_diename(inl);
    /* The tool's chain and the DWARF must agree frame by frame. */
    if (!dw_name || strcmp(dw_name, short_name) != 0)
        return;
    if (!dwarf_attr(inl, DW_AT_abstract_origin, &a) ||
        !dwarf_formref_die(&a, &origin))
        return;
    const char *linkage = dwarf_formstring(
        dwarf_attr_integrate(&origin, DW_AT_linkage_name, &a));
    if (!linkage)
        linkage = dwarf_formstring(
            dwarf_attr_integrate(&origin, DW_AT_MIPS_linkage_name, &a));
    /* No linkage name: the symbol is the plain name (#[no_mangle]), or
     * the unit has line tables only; the short name is all there is.
     * Valgrind's own flags for symbol names (m_demangle.c); a name that
     * does not demangle (#[export_name]) is shown as the symbol is. */
    if (!linkage)
        linkage = dw_name;
    char *name = cplus_demangle(linkage, DMGL_ANSI | DMGL_PARAMS);
    if (!name)
        name = cu_strdup(linkage);
    keep(n, name);
    int line;
    out->name = name;
    out->system_name = linkage;
    out->decl_line = dwarf_decl_line(&origin, &line) == 0 ? line : 0;
}

static void add_range(struct unit *u, Dwarf_Addr lo, Dwarf_Addr hi,
                      Dwarf_Off die)
{
    cu_grow(&u->ranges, &u->cap, u->n + 1, sizeof *u->ranges);
    u->ranges[u->n++] = (struct code_range){ lo, hi, die };
}

/* Collects the code ranges of the functions under die: rustc nests them
 * in namespaces and (methods) in types, never in functions. */
static void index_functions(struct unit *u, Dwarf_Die *die, int depth)
{
    Dwarf_Die child;
    if (depth > 64 || dwarf_child(die, &child) != 0)
        return;
    do {
        int tag = dwarf_tag(&child);
        if (tag == DW_TAG_subprogram) {
            Dwarf_Addr base, lo, hi;
            ptrdiff_t off = 0;
            while ((off = dwarf_ranges(&child, off, &base, &lo, &hi)) > 0)
                if (lo < hi)
                    add_range(u, lo, hi, dwarf_dieoffset(&child));
        } else if (tag == DW_TAG_namespace || tag == DW_TAG_structure_type ||
                   tag == DW_TAG_union_type || tag == DW_TAG_enumeration_type) {
            index_functions(u, &child, depth + 1);
        }
    } while (dwarf_siblingof(&child, &child) == 0);
}

static int by_address(const void *a, const void *b)
{
    const struct code_range *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The unit of cu, indexed on first use. */
static struct unit *unit_of(struct object *o, Dwarf_Die *cu)
{
    Dwarf_Off off = dwarf_dieoffset(cu);
    if (o->last_unit < o->nunits && o->units[o->last_unit].offset == off)
        return &o->units[o->last_unit];
    for (size_t i = 0; i < o->nunits; i++)
        if (o->units[i].offset == off) {
            o->last_unit = i;
            return &o->units[i];
        }
    cu_grow(&o->units, &o->units_cap, o->nunits + 1, sizeof *o->units);
    struct unit *u = &o->units[o->nunits];
    memset(u, 0, sizeof *u);
    u->offset = off;
    u->rust = dwarf_srclang(cu) == DW_LANG_Rust;
    if (u->rust)
        index_functions(u, cu, 0);
    qsort(u->ranges, u->n, sizeof *u->ranges, by_address);
    o->last_unit = o->nunits++;
    return u;
}

static const struct code_range *range_at(const struct unit *u,
                                            Dwarf_Addr pc)
{
    size_t lo = 0, hi = u->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (u->ranges[mid].lo <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || pc >= u->ranges[lo - 1].hi)
        return NULL;
    return &u->ranges[lo - 1];
}

/* The unit DIE holding pc. libdw finds it through .debug_aranges, which
 * LLVM does not always write (and elfutils before 0.191 does not make up
 * for); then the units' own ranges are searched. */
static int unit_die_at(struct object *o, Dwarf_Addr pc, Dwarf_Die *cu)
{
    if (dwarf_addrdie(o->dwarf, pc, cu))
        return 0;
    if (!o->all_built) {
        Dwarf_Off off = 0, next;
        size_t hsize;
        o->all_built = 1;
        while (dwarf_nextcu(o->dwarf, off, &next, &hsize, NULL, NULL,
                            NULL) == 0) {
            Dwarf_Die die;
            Dwarf_Addr base, lo, hi;
            ptrdiff_t r = 0;
            if (dwarf_offdie(o->dwarf, off + hsize, &die))
                while ((r = dwarf_ranges(&die, r, &base, &lo, &hi)) > 0)
                    if (lo < hi)
                        add_range(&o->all, lo, hi, off + hsize);
            off = next;
        }
        qsort(o->all.ranges, o->all.n, sizeof *o->all.ranges, by_address);
    }
    const struct code_range *r = range_at(&o->all, pc);
    return r && dwarf_offdie(o->dwarf, r->die, cu) ? 0 : -1;
}

#define MAX_INLINED 256

/* The inlined subroutines of fn that contain pc, innermost first; returns
 * how many (at most max; more gives max + 1). */
static size_t inlined_at(Dwarf_Die *fn, Dwarf_Addr pc, Dwarf_Die *out,
                         size_t max)
{
    Dwarf_Die scope = *fn, child;
    size_t n = 0;
    /* Down the tree: a child holding pc is the next scope. */
    while (dwarf_child(&scope, &child) == 0) {
        int found = 0;
        do {
            int tag = dwarf_tag(&child);
            if ((tag == DW_TAG_inlined_subroutine ||
                 tag == DW_TAG_lexical_block) &&
                dwarf_haspc(&child, pc) > 0) {
                found = 1;
                break;
            }
        } while (dwarf_siblingof(&child, &child) == 0);
        if (!found)
            break;
        scope = child;
        if (dwarf_tag(&scope) == DW_TAG_inlined_subroutine) {
            if (n == max)
                return max + 1;
            out[n++] = scope;
        }
    }
    for (size_t i = 0; i < n / 2; i++) {
        Dwarf_Die t = out[i];
        out[i] = out[n - 1 - i];
        out[n - 1 - i] = t;
    }
    return n;
}

void inn_names(struct inline_namer *n, uint64_t map_id, uint64_t address,
               size_t nlevels, const char *const *short_names,
               struct inn_name *out)
{
    Dwarf_Die cu, fn, inl[MAX_INLINED];
    Dwarf_Addr pc;
    release_names(n);
    for (size_t k = 0; k + 1 < nlevels; k++)
        out[k] = (struct inn_name){ NULL, NULL, 0 };
    if (nlevels < 2 || nlevels - 1 > MAX_INLINED || map_id == 0 ||
        map_id > n->nmaps)
        return;
    struct object *o = &n->maps[map_id - 1];
    if (open_object(o) != 1 || link_address(o, address, &pc) != 0 ||
        unit_die_at(o, pc, &cu) != 0)
        return;
    struct unit *u = unit_of(o, &cu);
    const struct code_range *r = u->rust ? range_at(u, pc) : NULL;
    if (!r || !dwarf_offdie(o->dwarf, r->die, &fn))
        return;
    /* A chain of another length is another reading of the code: keep the
     * tool's names rather than guess which frames correspond. */
    if (inlined_at(&fn, pc, inl, MAX_INLINED) != nlevels - 1)
        return;
    for (size_t k = 0; k + 1 < nlevels; k++)
        name_inlined(n, &inl[k], short_names[k], &out[k]);
}

#else  /* !HAVE_DWARF_NAMES: short names everywhere. */

struct inline_namer {
    int unused;
};

struct inline_namer *inn_new(void)
{
    return cu_calloc(1, sizeof(struct inline_namer));
}

void inn_free(struct inline_namer *n)
{
    free(n);
}

void inn_add_map(struct inline_namer *n, uint64_t id, uint64_t start,
                 uint64_t file_offset, const char *path)
{
    (void)n, (void)id, (void)start, (void)file_offset, (void)path;
}

void inn_names(struct inline_namer *n, uint64_t map_id, uint64_t address,
               size_t nlevels, const char *const *short_names,
               struct inn_name *out)
{
    (void)n, (void)map_id, (void)address, (void)short_names;
    for (size_t k = 0; k + 1 < nlevels; k++)
        out[k] = (struct inn_name){ NULL, NULL, 0 };
}

#endif
