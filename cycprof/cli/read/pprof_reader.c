/* See pprof_reader.h. Everything the file says is checked before it is
 * used (indices into the string table, location and function ids), since
 * protobuf-c only checks the wire format. */
#define _POSIX_C_SOURCE 200809L
#include "read/pprof_reader.h"
#include "util/cmdutil.h"
#include "model/event_names.h"
#include "read/pprof_index.h"
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

/* Limits on expanded stacks; see the check in build(). */
#define PPROF_MAX_DEPTH (1u << 20)
#define PPROF_MAX_FRAMES (1u << 28)


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

/* Frame name: sanitised so that the folded format stays parseable
 * (';' separates frames, a newline ends the record) and the origin of a
 * frame can be told from its name (SP_ORIGIN_SEP). */
static uint32_t frame_name(stack_profile_t *sp, const char *s)
{
    size_t n = strlen(s);
    if (!strpbrk(s, ";\n\r" SP_ORIGIN_SEP))
        return intern_n(&sp->names, s, n);
    char *c = cu_strdup(s);
    for (char *q = c; *q; q++)
        if (*q == ';')
            *q = ':';
        else if (*q == '\n' || *q == '\r' || *q == SP_ORIGIN_SEP[0])
            *q = ' ';
    uint32_t id = intern_n(&sp->names, c, n);
    free(c);
    return id;
}

/* The index of the value pprof shows by default (default_sample_type, else
 * the last sample type), after checking that every sample type names
 * strings of the table; -1 with "NAME: what" in err. */
static int pprof_default_value(const Perftools__Profiles__Profile *pr,
                               const char *name, char *err, size_t errlen)
{
    size_t nstr = pr->n_string_table;
#define STR_OK(i) ((i) >= 0 && (uint64_t)(i) < nstr)
    if (pr->n_sample_type == 0)
        return cu_fail_named(err, errlen, name, "profile has no sample types");
    for (size_t i = 0; i < pr->n_sample_type; i++)
        if (!STR_OK(pr->sample_type[i]->type) || !STR_OK(pr->sample_type[i]->unit))
            return cu_fail_named(err, errlen, name, "sample type %zu: string index "
                                           "out of range", i);
    size_t vi = pr->n_sample_type - 1;
    if (pr->default_sample_type) {
        if (!STR_OK(pr->default_sample_type))
            return cu_fail_named(err, errlen, name, "default_sample_type: string "
                                           "index out of range");
        for (size_t i = 0; i < pr->n_sample_type; i++)
            if (pr->sample_type[i]->type == pr->default_sample_type)
                vi = i;
    }
#undef STR_OK
    return (int)vi;
}

int pprof_value_index(const Perftools__Profiles__Profile *pr,
                      const char *name, const char *event, char *err,
                      size_t errlen)
{
    int def = pprof_default_value(pr, name, err, errlen);
    if (def < 0 || !event)
        return def;
    size_t n = pr->n_sample_type;
    const char **types = cu_calloc(n, sizeof *types);
    char list[256] = "";
    for (size_t i = 0; i < n; i++) {
        types[i] = pr->string_table[pr->sample_type[i]->type];
        strncat(list, i ? " " : "", sizeof list - strlen(list) - 1);
        strncat(list, types[i], sizeof list - strlen(list) - 1);
    }
    int vi = ev_find(types, (int)n, event);
    free(types);
    if (vi < 0)
        return cu_fail_named(err, errlen, name, "unknown event '%s' (the "
                             "profile has: %s)", event, list);
    return vi;
}

/* "NAME SEP FILE SEP OBJECT" as a frame id (stack_profile.h). */
static uint32_t origin_frame(stack_profile_t *sp, uint32_t name,
                             const char *file, const char *object)
{
    const char *n = sp->names.str[name];
    size_t len = strlen(n) + strlen(file) + strlen(object) + 3;
    char *c = cu_malloc(len);
    snprintf(c, len, "%s" SP_ORIGIN_SEP "%s" SP_ORIGIN_SEP "%s", n, file,
             object);
    uint32_t id = intern(&sp->names, c);
    free(c);
    return id;
}

/* The frames of location l with their origin, root first (the innermost,
 * inlined line last), as origin_frame names them; malloc'ed. */
static uint32_t *location_origins(stack_profile_t *sp,
                                  const Perftools__Profiles__Profile *pr,
                                  const pprof_index_t *ix,
                                  const Perftools__Profiles__Location *l,
                                  const uint32_t *fname)
{
    const char *object = "";
    if (l->mapping_id) {
        size_t m = pprof_index_find(&ix->maps, l->mapping_id);
        if (m != SIZE_MAX)
            object = pr->string_table[pr->mapping[m]->filename];
    }
    size_t n = l->n_line ? l->n_line : 1;
    uint32_t *v = cu_calloc(n, sizeof *v);
    if (!l->n_line) {
        char buf[32];
        snprintf(buf, sizeof buf, "0x%" PRIx64, l->address);
        v[0] = origin_frame(sp, frame_name(sp, buf), "", object);
        return v;
    }
    for (size_t j = l->n_line, k = 0; j-- > 0; k++) {
        size_t fi = pprof_index_find(&ix->fns, l->line[j]->function_id);
        const char *file = pr->string_table[pr->function[fi]->filename];
        v[k] = origin_frame(sp, fname[fi], file, object);
    }
    return v;
}

static int build(stack_profile_t *sp, const char *name,
                 Perftools__Profiles__Profile *pr, char *err, size_t errlen)
{
    size_t nstr = pr->n_string_table;
#define STR_OK(i) ((i) >= 0 && (uint64_t)(i) < nstr)
    int vi = pprof_value_index(pr, name, sp->event, err, errlen);
    if (vi < 0 && sp->event && sp->event_optional)
        vi = pprof_default_value(pr, name, err, errlen);
    if (vi < 0)
        return -1;
    {
        const char *t = pr->string_table[pr->sample_type[vi]->type];
        const char *u = pr->string_table[pr->sample_type[vi]->unit];
        size_t n = strlen(t) + strlen(u) + 2;
        free(sp->unit);
        sp->unit = cu_malloc(n);
        snprintf(sp->unit, n, "%s/%s", t, u);
    }

    /* cycprof puts the profiled command in the first comment, and its
     * --deterministic mode in a later one. */
    if (pr->n_comment && STR_OK(pr->comment[0]) && !sp->cmd)
        sp->cmd = cu_strdup(pr->string_table[pr->comment[0]]);
    static const char mode_prefix[] = "cycprof deterministic: ";
    for (size_t c = 1; c < pr->n_comment && !sp->deterministic; c++)
        if (STR_OK(pr->comment[c]) &&
            strncmp(pr->string_table[pr->comment[c]], mode_prefix,
                    sizeof mode_prefix - 1) == 0)
            sp->deterministic = cu_strdup(pr->string_table[pr->comment[c]] +
                                          sizeof mode_prefix - 1);

    pprof_index_t ix;
    uint32_t *fname = NULL, *frames = NULL;
    uint32_t **origin = NULL;   /* with_origin: per location, its frames
                                   (NULL until first used) */
    size_t frames_cap = 0;
    int rc = pprof_index_build(&ix, pr, name, err, errlen);
    if (rc < 0)
        goto out;
    /* Function names, resolved once. */
    fname = cu_calloc(pr->n_function, sizeof *fname);
    for (size_t i = 0; i < pr->n_function; i++) {
        Perftools__Profiles__Function *f = pr->function[i];
        const char *s = pr->string_table[f->name];
        if (!*s)
            s = pr->string_table[f->system_name];
        fname[i] = frame_name(sp, *s ? s : "??");
    }
    if (sp->with_origin)
        origin = cu_calloc(pr->n_location + 1, sizeof *origin);

    for (size_t si = 0; si < pr->n_sample; si++) {
        Perftools__Profiles__Sample *s = pr->sample[si];
        if ((rc = pprof_sample_check(pr, si, (size_t)vi, name, err, errlen)) < 0)
            goto out;
        if (s->value[vi] == 0)
            continue;
        /* pprof stacks are leaf first, and a location's lines innermost
         * (inlined) first: walk everything backwards to get root first. */
        size_t depth = 0;
        for (size_t k = s->n_location_id; k-- > 0;) {
            size_t li = pprof_index_find(&ix.locs, s->location_id[k]);
            if (li == SIZE_MAX) {
                rc = cu_fail_named(err, errlen, name, "sample %zu refers to unknown "
                          "location %" PRIu64, si, s->location_id[k]);
                goto out;
            }
            Perftools__Profiles__Location *l = pr->location[li];
            size_t add = l->n_line ? l->n_line : 1;
            /* A few kilobytes of protobuf can describe a stack of billions
             * of frames (one location with many lines, repeated): refuse
             * what no real program has rather than run out of memory. */
            if (depth + add > PPROF_MAX_DEPTH ||
                sp->nframes + depth + add > PPROF_MAX_FRAMES) {
                rc = cu_fail_named(err, errlen, name, "sample %zu: stacks too deep "
                          "(more than %u frames in one stack or %u in all)",
                          si, PPROF_MAX_DEPTH, PPROF_MAX_FRAMES);
                goto out;
            }
            cu_grow(&frames, &frames_cap, depth + add, sizeof *frames);
            if (origin) {
                if (!origin[li])
                    origin[li] = location_origins(sp, pr, &ix, l, fname);
                memcpy(frames + depth, origin[li], add * sizeof *frames);
                depth += add;
                continue;
            }
            if (!l->n_line) {
                char buf[32];
                snprintf(buf, sizeof buf, "0x%" PRIx64, l->address);
                frames[depth++] = frame_name(sp, buf);
            }
            for (size_t j = l->n_line; j-- > 0;)
                frames[depth++] = fname[pprof_index_find(&ix.fns, l->line[j]->function_id)];
        }
        if (!depth) {
            cu_grow(&frames, &frames_cap, 1, sizeof *frames);
            frames[depth++] = frame_name(sp, "[unknown]");
        }
        sp_add(sp, frames, depth, (uint64_t)s->value[vi]);
    }
out:
    if (origin)
        for (size_t i = 0; i < pr->n_location; i++)
            free(origin[i]);
    free(origin);
    free(fname);
    free(frames);
    pprof_index_free(&ix);
    return rc;
#undef STR_OK
}

Perftools__Profiles__Profile *pprof_unpack_mem(const char *name,
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

Perftools__Profiles__Profile *pprof_unpack_file(const char *path, char *err,
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
    Perftools__Profiles__Profile *pr = pprof_unpack_mem(path, buf, n, err,
                                                        errlen);
    free(buf);
    return pr;
}

void pprof_free_unpacked(Perftools__Profiles__Profile *pr)
{
    if (pr)
        perftools__profiles__profile__free_unpacked(pr, NULL);
}

int pprof_read_mem(stack_profile_t *sp, const char *name,
                   const unsigned char *buf, size_t len, char *err,
                   size_t errlen)
{
    Perftools__Profiles__Profile *pr = pprof_unpack_mem(name, buf, len, err,
                                                        errlen);
    if (!pr)
        return -1;
    int rc = build(sp, name, pr, err, errlen);
    pprof_free_unpacked(pr);
    return rc;
}

int pprof_read_file(stack_profile_t *sp, const char *path, char *err,
                    size_t errlen)
{
    Perftools__Profiles__Profile *pr = pprof_unpack_file(path, err, errlen);
    if (!pr)
        return -1;
    int rc = build(sp, path, pr, err, errlen);
    pprof_free_unpacked(pr);
    return rc;
}
