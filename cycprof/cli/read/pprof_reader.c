/* See pprof_reader.h. protobuf-c checks the wire format; what it cannot
 * check (ids, string indices, references between the tables) is checked
 * here as the tables are converted, and kept for pf_check_tables. */
#define _POSIX_C_SOURCE 200809L
#include "read/pprof_reader.h"
#include "util/cmdutil.h"
#include "model/tuplemap.h"
#include "profile.pb-c.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* A decompression bomb is refused before the process passes ~256 MB: past
 * 192 MiB, the output may grow only while it stays within 64 times the
 * input read so far. A real profile expands 5 to 15 times (a compiler's:
 * 50 MB to 665 MB), a bomb a thousand times. */
size_t pprof_max_bytes = (size_t)192 << 20;
#define PPROF_MAX_RATIO 64

/* gunzip buf into a fresh buffer (*out, *outlen). */
static int gunzip(const unsigned char *buf, size_t len, unsigned char **out,
                  size_t *outlen, const char **why)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 15 + 16) != Z_OK) {
        *why = "zlib initialisation failed";
        return -1;
    }
    size_t cap = len * 4 + 1024, n = 0;
    if (cap > pprof_max_bytes)
        cap = pprof_max_bytes;
    unsigned char *o = cu_malloc(cap);
    z.next_in = (unsigned char *)buf;
    int rc = Z_OK;
    size_t in_left = len;
    while (rc != Z_STREAM_END) {
        if (n == cap) {
            size_t read = len - in_left;
            if (cap >= pprof_max_bytes &&
                (read > SIZE_MAX / PPROF_MAX_RATIO ? 0 : n > read * PPROF_MAX_RATIO)) {
                *why = "decompressed profile is larger than 192 MiB and 64 times "
                       "the data read (a decompression bomb?)";
                goto bad;
            }
            cap = cap < pprof_max_bytes ? (cap * 2 > pprof_max_bytes ? pprof_max_bytes : cap * 2)
                                        : cap + cap / 2;
            o = cu_realloc(o, cap);
        }
        /* zlib counts in uInt; feed at most 1 GiB per call. */
        uInt in_chunk = in_left > (1u << 30) ? (1u << 30) : (uInt)in_left;
        z.avail_in = in_chunk;
        size_t room = cap - n > (1u << 30) ? (1u << 30) : cap - n;
        z.next_out = o + n;
        z.avail_out = (uInt)room;
        rc = inflate(&z, Z_NO_FLUSH);
        n += room - z.avail_out;
        in_left -= in_chunk - z.avail_in;
        if (rc == Z_STREAM_END)
            break;
        if (rc == Z_BUF_ERROR && in_left == 0) {
            *why = "truncated gzip data";
            goto bad;
        }
        if (rc != Z_OK && rc != Z_BUF_ERROR) {
            *why = "corrupt gzip data";
            goto bad;
        }
    }
    inflateEnd(&z);
    *out = o;
    *outlen = n;
    return 0;
bad:
    inflateEnd(&z);
    free(o);
    return -1;
}

/* The message in buf[0..len): gunzip if it is gzip, then protobuf-c,
 * which checks the wire format only. NULL with "NAME: what" in err. */
static Perftools__Profiles__Profile *unpack_mem(const char *name,
                                                const unsigned char *buf,
                                                size_t len, char *err,
                                                size_t errlen)
{
    unsigned char *raw = NULL;
    const unsigned char *data = buf;
    size_t dlen = len;
    const char *why;
    if (len == 0) {
        cu_fail_named(err, errlen, name, "empty file (not a pprof profile)");
        return NULL;
    }
    if (len >= 2 && buf[0] == 0x1f && buf[1] == 0x8b) {
        if (gunzip(buf, len, &raw, &dlen, &why) < 0) {
            cu_fail_named(err, errlen, name, "%s", why);
            return NULL;
        }
        data = raw;
    } else if (len > pprof_max_bytes) {
        cu_fail_named(err, errlen, name, "profile is too large");
        return NULL;
    }
    Perftools__Profiles__Profile *pr =
        perftools__profiles__profile__unpack(NULL, dlen, data);
    free(raw);
    if (!pr)
        cu_fail_named(err, errlen, name, "not a valid pprof profile (protobuf "
                                "decoding failed)");
    return pr;
}

/* The same from the file at path. */
static Perftools__Profiles__Profile *unpack_file(const char *path, char *err,
                                                 size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        cu_fail_named(err, errlen, path, "%s", strerror(errno));
        return NULL;
    }
    unsigned char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        cu_grow(&buf, &cap, n + 65536, 1);
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
        if (n > pprof_max_bytes) {
            fclose(f);
            free(buf);
            cu_fail_named(err, errlen, path, "file is too large");
            return NULL;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        cu_fail_named(err, errlen, path, "read error");
        return NULL;
    }
    Perftools__Profiles__Profile *pr = unpack_mem(path, buf, n, err,
                                                        errlen);
    free(buf);
    return pr;
}


/* The conversion of a decoded message into the model. */
typedef struct loader {
    profile_t *p;
    const Perftools__Profiles__Profile *pr;
    const char *name;
    tuplemap_t maps, fns, locs;     /* id -> position */
} loader_t;

/* Counts and indices of the model are 32 bits (UINT32_MAX marks "none"):
 * a profile past them could not be held in memory anyway. */
static uint32_t count32(size_t n)
{
    if (n >= UINT32_MAX)
        cu_oom();
    return (uint32_t)n;
}

static uint32_t str_index(const loader_t *ld, int64_t i)
{
    return i >= 0 && (uint64_t)i < ld->pr->n_string_table ? (uint32_t)i
                                                          : PF_BAD_STR;
}

/* Keeps the tables' first problem, "NAME: what", for pf_check_tables. */
static void table_problem(loader_t *ld, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void table_problem(loader_t *ld, const char *fmt, ...)
{
    if (ld->p->tables_error)
        return;
    char msg[CU_ERRLEN], err[CU_ERRLEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cu_fail_named(err, sizeof err, ld->name, "%s", msg);
    ld->p->tables_error = cu_strdup(err);
}

static size_t find_id(const tuplemap_t *m, uint64_t id)
{
    return tuplemap_find(m, (uint32_t)id, (uint32_t)(id >> 32), 0, 0);
}

/* Adds id as the next record of m: 0 if it is non-zero and new. Every id
 * being new, the index tuplemap gives it is the record's position. */
static int add_id(tuplemap_t *m, uint64_t id)
{
    int added;
    if (id == 0)
        return -1;
    tuplemap_get(m, (uint32_t)id, (uint32_t)(id >> 32), 0, 0, &added);
    return added ? 0 : -1;
}

static pf_value_type_t value_type(const loader_t *ld,
                                  const Perftools__Profiles__ValueType *vt)
{
    pf_value_type_t t = {0, 0};
    if (vt)
        t = (pf_value_type_t){str_index(ld, vt->type), str_index(ld, vt->unit)};
    return t;
}

static void convert_header(loader_t *ld)
{
    const Perftools__Profiles__Profile *pr = ld->pr;
    profile_t *p = ld->p;
    p->nstring = count32(pr->n_string_table);
    p->string = cu_calloc(p->nstring + 1, sizeof *p->string);
    for (size_t i = 0; i < pr->n_string_table; i++)
        p->string[i] = intern(&p->strings, pr->string_table[i]);
    p->nsample_type = count32(pr->n_sample_type);
    p->sample_type = cu_calloc(p->nsample_type + 1, sizeof *p->sample_type);
    for (size_t i = 0; i < pr->n_sample_type; i++)
        p->sample_type[i] = value_type(ld, pr->sample_type[i]);
    p->default_sample_type = pr->default_sample_type
                                 ? str_index(ld, pr->default_sample_type) : 0;
    p->ncomment = pr->n_comment;
    p->comment = cu_calloc(p->ncomment + 1, sizeof *p->comment);
    for (size_t i = 0; i < pr->n_comment; i++)
        p->comment[i] = str_index(ld, pr->comment[i]);
    p->drop_frames = str_index(ld, pr->drop_frames);
    p->keep_frames = str_index(ld, pr->keep_frames);
    p->time_nanos = pr->time_nanos;
    p->duration_nanos = pr->duration_nanos;
    p->period_type = value_type(ld, pr->period_type);
    p->period = pr->period;
}

/* Mappings, functions, locations, checked in that order (each refers to
 * the ones before). */
static void convert_tables(loader_t *ld)
{
    const Perftools__Profiles__Profile *pr = ld->pr;
    profile_t *p = ld->p;
    p->nmapping = count32(pr->n_mapping);
    p->mapping = cu_calloc(p->nmapping + 1, sizeof *p->mapping);
    for (size_t i = 0; i < pr->n_mapping; i++) {
        const Perftools__Profiles__Mapping *m = pr->mapping[i];
        pf_mapping_t *d = &p->mapping[i];
        *d = (pf_mapping_t){m->id, m->memory_start, m->memory_limit,
                            m->file_offset, str_index(ld, m->filename),
                            str_index(ld, m->build_id), m->has_functions != 0,
                            m->has_filenames != 0, m->has_line_numbers != 0,
                            m->has_inline_frames != 0};
        if (add_id(&ld->maps, m->id) < 0)
            table_problem(ld, "mapping: id 0 or a duplicate id");
        else if (d->filename == PF_BAD_STR || d->build_id == PF_BAD_STR)
            table_problem(ld, "mapping %" PRIu64 ": string index out of range",
                          m->id);
    }
    p->nfunction = count32(pr->n_function);
    p->function = cu_calloc(p->nfunction + 1, sizeof *p->function);
    for (size_t i = 0; i < pr->n_function; i++) {
        const Perftools__Profiles__Function *f = pr->function[i];
        pf_function_t *d = &p->function[i];
        *d = (pf_function_t){f->id, str_index(ld, f->name),
                             str_index(ld, f->system_name),
                             str_index(ld, f->filename), f->start_line};
        if (add_id(&ld->fns, f->id) < 0)
            table_problem(ld, "function: id 0 or a duplicate id");
        else if (d->name == PF_BAD_STR || d->system_name == PF_BAD_STR ||
                 d->filename == PF_BAD_STR)
            table_problem(ld, "function %" PRIu64 ": string index out of range",
                          f->id);
    }
    size_t nlines = 0;
    for (size_t i = 0; i < pr->n_location; i++)
        nlines += count32(pr->location[i]->n_line);
    p->nlocation = count32(pr->n_location);
    p->location = cu_calloc(p->nlocation + 1, sizeof *p->location);
    p->lines = cu_calloc(nlines + 1, sizeof *p->lines);
    for (size_t i = 0; i < pr->n_location; i++) {
        const Perftools__Profiles__Location *l = pr->location[i];
        pf_location_t *d = &p->location[i];
        *d = (pf_location_t){l->id, l->address, PF_NO_MAPPING,
                             (uint32_t)l->n_line, p->nlines, l->is_folded != 0};
        if (add_id(&ld->locs, l->id) < 0)
            table_problem(ld, "location: id 0 or a duplicate id");
        if (l->mapping_id) {
            size_t m = find_id(&ld->maps, l->mapping_id);
            if (m == SIZE_MAX)
                table_problem(ld, "location %" PRIu64 " refers to unknown "
                              "mapping %" PRIu64, l->id, l->mapping_id);
            else
                d->mapping = (uint32_t)m;
        }
        for (size_t j = 0; j < l->n_line; j++) {
            const Perftools__Profiles__Line *ln = l->line[j];
            size_t f = find_id(&ld->fns, ln->function_id);
            if (f == SIZE_MAX) {
                table_problem(ld, "location %" PRIu64 " refers to unknown "
                              "function %" PRIu64, l->id, ln->function_id);
                f = 0;
            }
            p->lines[p->nlines++] = (pf_line_t){(uint32_t)f, ln->line,
                                                ln->column};
        }
    }
}

/* The samples, each freed from the message once converted, so that the
 * message and the model are never both whole in memory. */
static void convert_samples(loader_t *ld, Perftools__Profiles__Profile *pr)
{
    profile_t *p = ld->p;
    size_t nloc = 0, nvalue = 0, nlabel = 0;
    for (size_t i = 0; i < pr->n_sample; i++) {
        nloc += count32(pr->sample[i]->n_location_id);
        nvalue += count32(pr->sample[i]->n_value);
        nlabel += count32(pr->sample[i]->n_label);
    }
    p->sample = cu_calloc(pr->n_sample + 1, sizeof *p->sample);
    p->sample_loc = cu_calloc(nloc + 1, sizeof *p->sample_loc);
    p->sample_value = cu_calloc(nvalue + 1, sizeof *p->sample_value);
    p->sample_label = cu_calloc(nlabel + 1, sizeof *p->sample_label);
    size_t cap_unknown = 0;
    nloc = nvalue = nlabel = 0;
    for (size_t i = 0; i < pr->n_sample; i++) {
        Perftools__Profiles__Sample *s = pr->sample[i];
        p->sample[i] = (pf_sample_t){nloc, nvalue, nlabel,
                                     (uint32_t)s->n_location_id,
                                     (uint32_t)s->n_value, (uint32_t)s->n_label};
        for (size_t k = 0; k < s->n_location_id; k++) {
            size_t li = find_id(&ld->locs, s->location_id[k]);
            if (li == SIZE_MAX) {
                cu_grow(&p->unknown_location, &cap_unknown,
                        p->nunknown_location + 1, sizeof *p->unknown_location);
                p->unknown_location[p->nunknown_location] = s->location_id[k];
                li = p->nlocation + p->nunknown_location++;
            }
            p->sample_loc[nloc++] = count32(li);
        }
        for (size_t k = 0; k < s->n_value; k++)
            p->sample_value[nvalue++] = s->value[k];
        for (size_t k = 0; k < s->n_label; k++) {
            const Perftools__Profiles__Label *lb = s->label[k];
            p->sample_label[nlabel++] =
                (pf_label_t){str_index(ld, lb->key), str_index(ld, lb->str),
                             lb->num, str_index(ld, lb->num_unit)};
        }
        perftools__profiles__sample__free_unpacked(s, NULL);
        pr->sample[i] = NULL;
        p->nsample = i + 1;
    }
    pr->n_sample = 0;
}

/* Converts pr into p and frees it. */
static void convert(profile_t *p, const char *name,
                    Perftools__Profiles__Profile *pr)
{
    loader_t ld = {p, pr, name, {0}, {0}, {0}};
    tuplemap_init(&ld.maps);
    tuplemap_init(&ld.fns);
    tuplemap_init(&ld.locs);
    convert_header(&ld);
    convert_tables(&ld);
    convert_samples(&ld, pr);
    tuplemap_free(&ld.maps);
    tuplemap_free(&ld.fns);
    tuplemap_free(&ld.locs);
    perftools__profiles__profile__free_unpacked(pr, NULL);
}

int pprof_load_mem(profile_t *p, const char *name, const unsigned char *buf,
                   size_t len, char *err, size_t errlen)
{
    Perftools__Profiles__Profile *pr = unpack_mem(name, buf, len, err,
                                                        errlen);
    if (!pr)
        return -1;
    convert(p, name, pr);
    return 0;
}

int pprof_load_file(profile_t *p, const char *path, char *err, size_t errlen)
{
    Perftools__Profiles__Profile *pr = unpack_file(path, err, errlen);
    if (!pr)
        return -1;
    convert(p, path, pr);
    return 0;
}
