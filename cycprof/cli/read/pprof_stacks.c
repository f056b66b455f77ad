/* See pprof_stacks.h. */
#define _POSIX_C_SOURCE 200809L
#include "read/pprof_stacks.h"
#include "util/cmdutil.h"
#include "model/profile.h"
#include "read/pprof_reader.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Limits on expanded stacks; see the check in build(). */
#define PPROF_MAX_DEPTH (1u << 20)
#define PPROF_MAX_FRAMES (1u << 28)

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

/* Code without a symbol: the frame named by its address. */
static uint32_t address_frame(stack_profile_t *sp, const pf_location_t *l)
{
    char buf[32];
    snprintf(buf, sizeof buf, "0x%" PRIx64, l->address);
    return frame_name(sp, buf);
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
static uint32_t *location_origins(stack_profile_t *sp, const profile_t *pf,
                                  const pf_location_t *l,
                                  const uint32_t *fname)
{
    const char *object = "";
    if (l->mapping != PF_NO_MAPPING)
        object = pf_str(pf, pf->mapping[l->mapping].filename);
    size_t n = l->nline ? l->nline : 1;
    uint32_t *v = cu_calloc(n, sizeof *v);
    if (!l->nline) {
        v[0] = origin_frame(sp, address_frame(sp, l), "", object);
        return v;
    }
    for (size_t j = l->nline, k = 0; j-- > 0; k++) {
        uint32_t fi = pf->lines[l->line + j].function;
        const char *file = pf_str(pf, pf->function[fi].filename);
        v[k] = origin_frame(sp, fname[fi], file, object);
    }
    return v;
}

static int build(stack_profile_t *sp, const char *name, const profile_t *pf,
                 char *err, size_t errlen)
{
    int vi = pf_value_index(pf, name, sp->event, err, errlen);
    if (vi < 0 && sp->event && sp->event_optional)
        vi = pf_default_value(pf, name, err, errlen);
    if (vi < 0)
        return -1;
    {
        const char *t = pf_str(pf, pf->sample_type[vi].type);
        const char *u = pf_str(pf, pf->sample_type[vi].unit);
        size_t n = strlen(t) + strlen(u) + 2;
        free(sp->unit);
        sp->unit = cu_malloc(n);
        snprintf(sp->unit, n, "%s/%s", t, u);
    }

    /* cycprof puts the profiled command in the first comment, and its
     * --deterministic mode in a later one. */
    if (pf->ncomment && pf->comment[0] != PF_BAD_STR && !sp->cmd)
        sp->cmd = cu_strdup(pf_str(pf, pf->comment[0]));
    static const char mode_prefix[] = "cycprof deterministic: ";
    for (size_t c = 1; c < pf->ncomment && !sp->deterministic; c++)
        if (pf->comment[c] != PF_BAD_STR &&
            strncmp(pf_str(pf, pf->comment[c]), mode_prefix,
                    sizeof mode_prefix - 1) == 0)
            sp->deterministic = cu_strdup(pf_str(pf, pf->comment[c]) +
                                          sizeof mode_prefix - 1);

    uint32_t *fname = NULL, *frames = NULL;
    uint32_t **origin = NULL;   /* with_origin: per location, its frames
                                   (NULL until first used) */
    size_t frames_cap = 0;
    int rc = pf_check_tables(pf, err, errlen);
    if (rc < 0)
        goto out;
    /* Function names, resolved once. */
    fname = cu_calloc(pf->nfunction + 1, sizeof *fname);
    for (size_t i = 0; i < pf->nfunction; i++) {
        const pf_function_t *f = &pf->function[i];
        const char *s = pf_str(pf, f->name);
        if (!*s)
            s = pf_str(pf, f->system_name);
        fname[i] = frame_name(sp, *s ? s : "??");
    }
    if (sp->with_origin)
        origin = cu_calloc(pf->nlocation + 1, sizeof *origin);

    for (size_t si = 0; si < pf->nsample; si++) {
        const pf_sample_t *s = &pf->sample[si];
        if ((rc = pf_sample_check(pf, si, (size_t)vi, name, err, errlen)) < 0)
            goto out;
        int64_t value = pf->sample_value[s->value + (size_t)vi];
        if (value == 0)
            continue;
        /* pprof stacks are leaf first, and a location's lines innermost
         * (inlined) first: walk everything backwards to get root first. */
        const uint32_t *loc = pf->sample_loc + s->loc;
        size_t depth = 0;
        for (size_t k = s->nloc; k-- > 0;) {
            size_t li = loc[k];
            if (li >= pf->nlocation) {
                rc = cu_fail_named(err, errlen, name, "sample %zu refers to unknown "
                          "location %" PRIu64, si,
                          pf->unknown_location[li - pf->nlocation]);
                goto out;
            }
            const pf_location_t *l = &pf->location[li];
            size_t add = l->nline ? l->nline : 1;
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
                    origin[li] = location_origins(sp, pf, l, fname);
                memcpy(frames + depth, origin[li], add * sizeof *frames);
                depth += add;
                continue;
            }
            if (!l->nline)
                frames[depth++] = address_frame(sp, l);
            for (size_t j = l->nline; j-- > 0;)
                frames[depth++] = fname[pf->lines[l->line + j].function];
        }
        if (!depth) {
            cu_grow(&frames, &frames_cap, 1, sizeof *frames);
            frames[depth++] = frame_name(sp, "[unknown]");
        }
        sp_add(sp, frames, depth, (uint64_t)value);
    }
out:
    if (origin)
        for (size_t i = 0; i < pf->nlocation; i++)
            free(origin[i]);
    free(origin);
    free(fname);
    free(frames);
    return rc;
}

int pprof_stacks_read_mem(stack_profile_t *sp, const char *name,
                          const unsigned char *buf, size_t len, char *err,
                          size_t errlen)
{
    profile_t pf;
    pf_init(&pf);
    int rc = pprof_load_mem(&pf, name, buf, len, err, errlen);
    if (rc == 0)
        rc = build(sp, name, &pf, err, errlen);
    pf_free(&pf);
    return rc;
}

int pprof_stacks_read(stack_profile_t *sp, const char *path, char *err,
                      size_t errlen)
{
    profile_t pf;
    pf_init(&pf);
    int rc = pprof_load_file(&pf, path, err, errlen);
    if (rc == 0)
        rc = build(sp, path, &pf, err, errlen);
    pf_free(&pf);
    return rc;
}
