/* pprof_writer: see pprof_writer.h. Each message is packed with protobuf-c
 * into one reusable buffer and written as a Profile field record:
 * tag (field number << 3 | 2), varint length, bytes. */
#include "write/pprof_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cmdutil.h"
#include "profile.pb-c.h"
#include "model/strtab.h"

/* Profile field numbers (cycprof/proto/profile.proto). */
enum { F_SAMPLE = 2, F_MAPPING = 3, F_LOCATION = 4, F_FUNCTION = 5,
       F_STRING_TABLE = 6 };

struct pprof_writer {
    struct gzip_stream *out;
    struct strtab *strings;
    int64_t s_instructions, s_count, s_thread;
    int64_t s_region;            /* 0 until a sample has a region */
    uint8_t *buf;                /* packing buffer, reused */
    size_t cap;
    Perftools__Profiles__Line *lines;       /* reused for each location */
    Perftools__Profiles__Line **line_ptrs;
    size_t lines_cap;
    const char *err;             /* first error, static text */
    /* With a zkVM model: its sample type, the zk locations (a bit per
     * location id) and the extra comments. */
    int64_t s_zk;                /* 0: no model */
    uint8_t *zk_loc;
    size_t zk_loc_cap;           /* bytes */
    int64_t *comments;
    size_t ncomments, comments_cap;
};

static int fail(struct pprof_writer *w, const char *what)
{
    if (!w->err)
        w->err = what;
    return -1;
}

/* The output stream failed: keep its own explanation (e.g. "write failed:
 * No space left on device"). */
static int fail_out(struct pprof_writer *w)
{
    const char *e = gzs_error(w->out);
    return fail(w, e ? e : "write failed");
}

struct pprof_writer *pw_new(struct gzip_stream *out)
{
    struct pprof_writer *w = cu_calloc(1, sizeof *w);
    w->out = out;
    w->strings = strtab_new();
    w->s_instructions = strtab_intern(w->strings, "instructions");
    w->s_count = strtab_intern(w->strings, "count");
    w->s_thread = strtab_intern(w->strings, "thread");
    return w;
}

void pw_free(struct pprof_writer *w)
{
    if (!w)
        return;
    strtab_free(w->strings);
    free(w->buf);
    free(w->lines);
    free(w->line_ptrs);
    free(w->zk_loc);
    free(w->comments);
    free(w);
}

static size_t put_varint(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

/* Writes a length-delimited field record: tag, length, then `len` bytes. */
static int write_record(struct pprof_writer *w, unsigned field,
                        const void *data, size_t len)
{
    uint8_t head[1 + 10 + 10];
    size_t n = put_varint(head, (uint64_t)field << 3 | 2);
    n += put_varint(head + n, len);
    if (gzs_write(w->out, head, n) != 0 || gzs_write(w->out, data, len) != 0)
        return fail_out(w);
    return 0;
}

/* Room for len bytes in w->buf. */
static void reserve(struct pprof_writer *w, size_t len)
{
    if (len <= w->cap)
        return;
    size_t cap = w->cap ? w->cap : 4096;
    while (cap < len)
        cap *= 2;
    w->buf = cu_realloc(w->buf, cap);
    w->cap = cap;
}

/* Packs `msg` into w->buf, then writes it as field `field` (0: raw, for a
 * Profile fragment that carries its own field tags). */
static int write_message(struct pprof_writer *w, unsigned field,
                         const ProtobufCMessage *msg)
{
    size_t len = protobuf_c_message_get_packed_size(msg);
    reserve(w, len);
    protobuf_c_message_pack(msg, w->buf);
    if (field == 0) {
        if (gzs_write(w->out, w->buf, len) != 0)
            return fail_out(w);
        return 0;
    }
    return write_record(w, field, w->buf, len);
}

static int64_t intern(struct pprof_writer *w, const char *s)
{
    return strtab_intern(w->strings, s);
}

int pw_mapping(struct pprof_writer *w, uint64_t id, uint64_t start,
               uint64_t limit, uint64_t file_offset, const char *filename,
               const char *build_id)
{
    Perftools__Profiles__Mapping m = PERFTOOLS__PROFILES__MAPPING__INIT;
    m.id = id;
    m.memory_start = start;
    m.memory_limit = limit;
    m.file_offset = file_offset;
    m.filename = intern(w, filename);
    m.build_id = intern(w, build_id);
    /* The tool resolved functions, files, lines and inlining already; these
     * flags tell pprof not to symbolize again (it would need the binaries
     * and could disagree with what the tool saw). */
    m.has_functions = 1;
    m.has_filenames = 1;
    m.has_line_numbers = 1;
    m.has_inline_frames = 1;
    if (w->err)
        return -1;
    return write_message(w, F_MAPPING, &m.base);
}

int pw_function(struct pprof_writer *w, uint64_t id, const char *name,
                const char *system_name, const char *filename,
                int64_t start_line)
{
    Perftools__Profiles__Function f = PERFTOOLS__PROFILES__FUNCTION__INIT;
    /* pprof takes a function whose name equals its system_name for one it
     * still has to demangle, and "simplifies" it by cutting <...> and (...):
     * "<signal 11>" would show as "" and "std::vector<int>::at" as
     * "std::vector::at". An empty system_name tells pprof that the name is
     * final, which it is: the tool demangled already. */
    if (strcmp(system_name, name) == 0)
        system_name = "";
    f.id = id;
    f.name = intern(w, name);
    f.system_name = intern(w, system_name);
    f.filename = intern(w, filename);
    f.start_line = start_line;
    if (w->err)
        return -1;
    return write_message(w, F_FUNCTION, &f.base);
}

int pw_location(struct pprof_writer *w, uint64_t id, uint64_t mapping_id,
                uint64_t address, const struct pw_line *lines, size_t nlines)
{
    if (nlines > w->lines_cap) {
        size_t cap = w->lines_cap ? w->lines_cap : 8;
        while (cap < nlines)
            cap *= 2;
        w->lines = cu_realloc(w->lines, cap * sizeof *w->lines);
        w->line_ptrs = cu_realloc(w->line_ptrs, cap * sizeof *w->line_ptrs);
        w->lines_cap = cap;
    }
    for (size_t i = 0; i < nlines; i++) {
        Perftools__Profiles__Line init = PERFTOOLS__PROFILES__LINE__INIT;
        w->lines[i] = init;
        w->lines[i].function_id = lines[i].function_id;
        w->lines[i].line = lines[i].line;
        w->line_ptrs[i] = &w->lines[i];
    }
    Perftools__Profiles__Location l = PERFTOOLS__PROFILES__LOCATION__INIT;
    l.id = id;
    l.mapping_id = mapping_id;
    l.address = address;
    l.n_line = nlines;
    l.line = w->line_ptrs;
    return write_message(w, F_LOCATION, &l.base);
}

void pw_zkvm(struct pprof_writer *w)
{
    w->s_zk = intern(w, PW_ZK_SAMPLE_TYPE);
}

void pw_zk_location(struct pprof_writer *w, uint64_t id)
{
    if (id / 8 >= w->zk_loc_cap) {
        size_t cap = w->zk_loc_cap ? w->zk_loc_cap : 64;
        while (id / 8 >= cap)
            cap *= 2;
        uint8_t *b = cu_realloc(w->zk_loc, cap);
        memset(b + w->zk_loc_cap, 0, cap - w->zk_loc_cap);
        w->zk_loc = b;
        w->zk_loc_cap = cap;
    }
    w->zk_loc[id / 8] |= (uint8_t)(1u << (id % 8));
}

static int is_zk_location(const struct pprof_writer *w, uint64_t id)
{
    return id / 8 < w->zk_loc_cap && (w->zk_loc[id / 8] >> (id % 8) & 1);
}

void pw_comment(struct pprof_writer *w, const char *text)
{
    cu_grow(&w->comments, &w->comments_cap, w->ncomments + 1, sizeof *w->comments);
    w->comments[w->ncomments++] = intern(w, text);
}

static size_t varint_len(uint64_t v)
{
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

/* A proto3 int64 field: absent when 0, negative values in 10 bytes. */
static size_t int_field_len(unsigned field, int64_t v)
{
    return v ? varint_len((uint64_t)field << 3) + varint_len((uint64_t)v) : 0;
}

static uint8_t *put_int_field(uint8_t *p, unsigned field, int64_t v)
{
    if (!v)
        return p;
    p += put_varint(p, (uint64_t)field << 3);
    return p + put_varint(p, (uint64_t)v);
}

struct label {
    int64_t key, str, num;
    size_t len;                  /* of the Label message */
};

static size_t packed_len(const uint64_t *v, size_t n)
{
    size_t len = 0;
    for (size_t i = 0; i < n; i++)
        len += varint_len(v[i]);
    return len;
}

/* A Sample message, encoded as protobuf-c packs it (fields in number
 * order, packed repeated scalars, zero scalars left out), without its
 * generic walk of the descriptors: samples are most of a profile. */
static int write_sample(struct pprof_writer *w, const uint64_t *locs,
                        size_t nlocs, const int64_t *values, size_t nvalues,
                        struct label *labels, size_t nlabels)
{
    size_t loc_len = packed_len(locs, nlocs);
    size_t value_len = packed_len((const uint64_t *)values, nvalues);
    size_t len = 0;
    if (nlocs)
        len += 1 + varint_len(loc_len) + loc_len;
    if (nvalues)
        len += 1 + varint_len(value_len) + value_len;
    for (size_t i = 0; i < nlabels; i++) {
        struct label *l = &labels[i];
        l->len = int_field_len(1, l->key) + int_field_len(2, l->str) +
                 int_field_len(3, l->num);
        len += 1 + varint_len(l->len) + l->len;
    }
    reserve(w, len);
    uint8_t *p = w->buf;
    if (nlocs) {
        *p++ = 1 << 3 | 2;
        p += put_varint(p, loc_len);
        for (size_t i = 0; i < nlocs; i++)
            p += put_varint(p, locs[i]);
    }
    if (nvalues) {
        *p++ = 2 << 3 | 2;
        p += put_varint(p, value_len);
        for (size_t i = 0; i < nvalues; i++)
            p += put_varint(p, (uint64_t)values[i]);
    }
    for (size_t i = 0; i < nlabels; i++) {
        *p++ = 3 << 3 | 2;
        p += put_varint(p, labels[i].len);
        p = put_int_field(p, 1, labels[i].key);
        p = put_int_field(p, 2, labels[i].str);
        p = put_int_field(p, 3, labels[i].num);
    }
    return write_record(w, F_SAMPLE, w->buf, (size_t)(p - w->buf));
}

size_t pw_region_strings(struct pprof_writer *w, const char *const *regions,
                         size_t nregions, int64_t *strs)
{
    if (nregions > PW_MAX_REGION_LABELS)
        nregions = PW_MAX_REGION_LABELS;
    for (size_t i = 0; i < nregions; i++) {
        if (!w->s_region)        /* interned when first used, as before */
            w->s_region = intern(w, "region");
        strs[i] = intern(w, regions[i]);
    }
    return nregions;
}

int pw_sample_with_regions(struct pprof_writer *w, const uint64_t *locs,
                           size_t nlocs, int64_t instructions, int64_t thread,
                           const int64_t *strs, size_t nstrs)
{
    struct label labels[1 + PW_MAX_REGION_LABELS];
    labels[0] = (struct label){ w->s_thread, 0, thread, 0 };
    for (size_t i = 0; i < nstrs; i++)
        labels[1 + i] = (struct label){ w->s_region, strs[i], 0, 0 };
    /* An instruction is one zkVM cycle; a zk frame runs none. */
    int64_t values[2] = { instructions, instructions };
    if (w->s_zk && nlocs && is_zk_location(w, locs[0]))
        values[0] = 0;
    return write_sample(w, locs, nlocs, values, w->s_zk ? 2 : 1, labels,
                        1 + nstrs);
}

int pw_sample_in_regions(struct pprof_writer *w, const uint64_t *locs,
                         size_t nlocs, int64_t instructions, int64_t thread,
                         const char *const *regions, size_t nregions)
{
    int64_t strs[PW_MAX_REGION_LABELS];
    size_t n = pw_region_strings(w, regions, nregions, strs);
    return pw_sample_with_regions(w, locs, nlocs, instructions, thread, strs,
                                  n);
}

int pw_finish(struct pprof_writer *w, const char *command_line,
              const char *deterministic, int64_t duration_ns)
{
    /* The scalar fields go out as one Profile fragment with no samples or
     * tables: concatenated serialized messages merge into one. */
    Perftools__Profiles__ValueType vt = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
    vt.type = w->s_instructions;
    vt.unit = w->s_count;
    Perftools__Profiles__ValueType zk = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
    zk.type = w->s_zk;
    zk.unit = w->s_count;
    Perftools__Profiles__ValueType *vts[2] = { &vt, &zk };
    Perftools__Profiles__ValueType period_type =
        PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
    period_type.type = w->s_instructions;
    period_type.unit = w->s_count;
    Perftools__Profiles__Profile p = PERFTOOLS__PROFILES__PROFILE__INIT;
    p.n_sample_type = w->s_zk ? 2 : 1;
    p.sample_type = vts;
    p.period_type = &period_type;
    p.period = 1;                /* no sampling: every instruction counts */
    p.duration_nanos = duration_ns;
    p.default_sample_type = w->s_instructions;
    /* The command first: readers take the first comment for it. */
    int64_t *comments = cu_calloc(2 + w->ncomments, sizeof *comments);
    size_t n_comments = 0;
    if (command_line && command_line[0])
        comments[n_comments++] = intern(w, command_line);
    if (deterministic && deterministic[0]) {
        char mode[128];
        snprintf(mode, sizeof mode, "cycprof deterministic: %s", deterministic);
        comments[n_comments++] = intern(w, mode);
    }
    for (size_t i = 0; i < w->ncomments; i++)
        comments[n_comments++] = w->comments[i];
    p.n_comment = n_comments;
    p.comment = n_comments ? comments : NULL;
    int rc = w->err || write_message(w, 0, &p.base) != 0;
    free(comments);
    if (rc)
        return -1;
    /* Strings last, in index order; index 0 is "". */
    size_t n = strtab_count(w->strings);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const char *s = strtab_get(w->strings, i, &len);
        if (write_record(w, F_STRING_TABLE, s, len) != 0)
            return -1;
    }
    return 0;
}

const char *pw_error(const struct pprof_writer *w)
{
    return w->err;
}
