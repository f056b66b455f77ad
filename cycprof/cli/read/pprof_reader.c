/* See pprof_reader.h. protobuf-c checks the wire format; what it cannot
 * check (ids, string indices, references between the tables) is checked
 * here as the tables are converted, and kept for pf_check_tables. The
 * samples are decoded one at a time (decode()). */
#define _POSIX_C_SOURCE 200809L
#include "read/pprof_reader.h"
#include "util/cmdutil.h"
#include "model/tuplemap.h"
#include "read/pb_fields.h"
#include "read/stacks_reader.h"
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

/* The bytes of the file at path, in *buf (*len); -1 with "PATH: what". */
static int read_whole_file(const char *path, unsigned char **out, size_t *len,
                           char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return cu_fail_named(err, errlen, path, "%s", strerror(errno));
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
            return cu_fail_named(err, errlen, path, "file is too large");
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return cu_fail_named(err, errlen, path, "read error");
    }
    *out = buf;
    *len = n;
    return 0;
}

/* The conversion of a decoded message into the model. */
typedef struct loader {
    profile_t *p;
    const char *name;
    tuplemap_t maps, fns, locs;     /* id -> position */
    size_t sample_cap, loc_cap, value_cap, label_cap, unknown_cap;
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
    return i >= 0 && (uint64_t)i < ld->p->nstring ? (uint32_t)i : PF_BAD_STR;
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

static void convert_header(loader_t *ld, const Perftools__Profiles__Profile *pr)
{
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
static void convert_tables(loader_t *ld, const Perftools__Profiles__Profile *pr)
{
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
        *d = (pf_function_t){str_index(ld, f->name),
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
        nlines = count32(nlines + count32(pr->location[i]->n_line));
    p->nlocation = count32(pr->n_location);
    p->location = cu_calloc(p->nlocation + 1, sizeof *p->location);
    p->lines = cu_calloc(nlines + 1, sizeof *p->lines);
    for (size_t i = 0; i < pr->n_location; i++) {
        const Perftools__Profiles__Location *l = pr->location[i];
        pf_location_t *d = &p->location[i];
        *d = (pf_location_t){l->id, l->address, PF_NO_MAPPING,
                             (uint32_t)l->n_line, (uint32_t)p->nlines,
                             l->is_folded != 0};
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
            p->lines[p->nlines++] = (pf_line_t){(uint32_t)f, ln->line};
        }
    }
}

/* Appends sample s to the model. */
static void convert_sample(loader_t *ld, const Perftools__Profiles__Sample *s)
{
    profile_t *p = ld->p;
    pf_sample_t *d;
    cu_grow(&p->sample, &ld->sample_cap, p->nsample + 1, sizeof *p->sample);
    d = &p->sample[p->nsample++];
    *d = (pf_sample_t){count32(p->nsample_loc), count32(p->nsample_value),
                       count32(p->nsample_label), count32(s->n_location_id),
                       count32(s->n_value), count32(s->n_label)};
    /* The entries after this sample's are indices too. */
    count32(p->nsample_loc + d->nloc);
    count32(p->nsample_value + d->nvalue);
    count32(p->nsample_label + d->nlabel);
    cu_grow(&p->sample_loc, &ld->loc_cap, p->nsample_loc + d->nloc,
            sizeof *p->sample_loc);
    for (size_t k = 0; k < s->n_location_id; k++) {
        size_t li = find_id(&ld->locs, s->location_id[k]);
        if (li == SIZE_MAX) {
            cu_grow(&p->unknown_location, &ld->unknown_cap,
                    p->nunknown_location + 1, sizeof *p->unknown_location);
            p->unknown_location[p->nunknown_location] = s->location_id[k];
            li = p->nlocation + p->nunknown_location++;
        }
        p->sample_loc[p->nsample_loc++] = count32(li);
    }
    cu_grow(&p->sample_value, &ld->value_cap, p->nsample_value + d->nvalue,
            sizeof *p->sample_value);
    for (size_t k = 0; k < s->n_value; k++)
        p->sample_value[p->nsample_value++] = s->value[k];
    cu_grow(&p->sample_label, &ld->label_cap, p->nsample_label + d->nlabel,
            sizeof *p->sample_label);
    for (size_t k = 0; k < s->n_label; k++) {
        const Perftools__Profiles__Label *lb = s->label[k];
        p->sample_label[p->nsample_label++] =
            (pf_label_t){str_index(ld, lb->key), str_index(ld, lb->str),
                         lb->num, str_index(ld, lb->num_unit)};
    }
}

/* Profile.sample in profile.proto. */
#define SAMPLE_FIELD 2

/* The message data[0..len) but its samples, in *rest (*rest_len): 0; -1
 * when a field is not plain (pb_fields.h). */
static int split_samples(const unsigned char *data, size_t len,
                         unsigned char **rest, size_t *rest_len)
{
    const unsigned char *at = data, *end = data + len;
    unsigned char *r = cu_malloc(len + 1);
    size_t n = 0;
    pb_field_t f;
    while (at < end) {
        if (!pb_next_field(&at, end, &f) ||
            (f.number == SAMPLE_FIELD && f.wire != PB_BYTES)) {
            free(r);
            return -1;
        }
        if (f.number == SAMPLE_FIELD)
            continue;
        memcpy(r + n, f.start, (size_t)(f.end - f.start));
        n += (size_t)(f.end - f.start);
    }
    *rest = cu_realloc(r, n + 1);
    *rest_len = n;
    return 0;
}

static int bad_message(const char *name, char *err, size_t errlen)
{
    return cu_fail_named(err, errlen, name, "not a valid pprof profile "
                         "(protobuf decoding failed)");
}

/* The message data[0..len) into p. Its samples, the bulk of a profile, are
 * decoded and converted one at a time, the rest of the message first, so
 * that protobuf-c's message is never whole in memory beside the model.
 * The answer is protobuf-c's on the whole message: where a field is not
 * plain, protobuf-c decodes the whole message, each sample freed once
 * converted. */
static int decode(loader_t *ld, const unsigned char *data, size_t len,
                  char *err, size_t errlen)
{
    unsigned char *rest;
    size_t rest_len;
    int split = split_samples(data, len, &rest, &rest_len) == 0;
    Perftools__Profiles__Profile *pr =
        split ? perftools__profiles__profile__unpack(NULL, rest_len, rest)
              : perftools__profiles__profile__unpack(NULL, len, data);
    if (split)
        free(rest);
    if (!pr)
        return bad_message(ld->name, err, errlen);
    convert_header(ld, pr);
    convert_tables(ld, pr);
    /* Never NULL, so that a view may point at a sample's first entry
     * whether it has any or not. */
    profile_t *p = ld->p;
    cu_grow(&p->sample_loc, &ld->loc_cap, 1, sizeof *p->sample_loc);
    cu_grow(&p->sample_value, &ld->value_cap, 1, sizeof *p->sample_value);
    cu_grow(&p->sample_label, &ld->label_cap, 1, sizeof *p->sample_label);
    for (size_t i = 0; i < pr->n_sample; i++) {
        convert_sample(ld, pr->sample[i]);
        perftools__profiles__sample__free_unpacked(pr->sample[i], NULL);
        pr->sample[i] = NULL;
    }
    pr->n_sample = 0;
    perftools__profiles__profile__free_unpacked(pr, NULL);
    if (!split)
        return 0;
    const unsigned char *at = data, *end = data + len;
    pb_field_t f;
    while (at < end && pb_next_field(&at, end, &f)) {
        if (f.number != SAMPLE_FIELD)
            continue;
        Perftools__Profiles__Sample *s = perftools__profiles__sample__unpack(
            NULL, (size_t)(f.end - f.value), f.value);
        if (!s)
            return bad_message(ld->name, err, errlen);
        convert_sample(ld, s);
        perftools__profiles__sample__free_unpacked(s, NULL);
    }
    return 0;
}

int pprof_load_mem(profile_t *p, const char *name, const unsigned char *buf,
                   size_t len, char *err, size_t errlen)
{
    unsigned char *raw = NULL;
    const unsigned char *data = buf;
    size_t dlen = len;
    const char *why;
    if (len == 0)
        return cu_fail_named(err, errlen, name, "empty file (not a pprof "
                             "profile)");
    if (len >= 2 && buf[0] == 0x1f && buf[1] == 0x8b) {
        if (gunzip(buf, len, &raw, &dlen, &why) < 0)
            return cu_fail_named(err, errlen, name, "%s", why);
        data = raw;
    } else if (len > pprof_max_bytes) {
        return cu_fail_named(err, errlen, name, "profile is too large");
    }
    loader_t ld;
    memset(&ld, 0, sizeof ld);
    ld.p = p;
    ld.name = name;
    tuplemap_init(&ld.maps);
    tuplemap_init(&ld.fns);
    tuplemap_init(&ld.locs);
    int rc = decode(&ld, data, dlen, err, errlen);
    tuplemap_free(&ld.maps);
    tuplemap_free(&ld.fns);
    tuplemap_free(&ld.locs);
    free(raw);
    return rc;
}

static pprof_dump_converter dump_converter;

void pprof_set_dump_converter(pprof_dump_converter convert)
{
    dump_converter = convert;
}

static int is_stacks_dump(const char *path)
{
    char head[SR_MAGIC_LEN];
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(head, 1, sizeof head, f) : 0;
    if (f)
        fclose(f);
    return sr_is_dump_start(head, got);
}

int pprof_load_file(profile_t *p, const char *path, char *err, size_t errlen)
{
    unsigned char *buf = NULL;
    size_t len = 0;
    if (dump_converter && is_stacks_dump(path)) {
        if (dump_converter(path, &buf, &len, err, errlen) < 0)
            return -1;
    } else if (read_whole_file(path, &buf, &len, err, errlen) < 0) {
        return -1;
    }
    int rc = pprof_load_mem(p, path, buf, len, err, errlen);
    free(buf);
    return rc;
}
