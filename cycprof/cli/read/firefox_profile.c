/* See firefox_profile.h: the tables, built from a pprof profile, a view of
 * the profile model (profile.h). Every index the file holds is checked
 * before it is used (protobuf-c only checks the wire format). */
#define _POSIX_C_SOURCE 200809L
#include "read/firefox_profile.h"
#include "util/cmdutil.h"
#include "model/profile.h"
#include "read/pprof_reader.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A frame key packs the inline depth beside the category. */
#define FF_MAX_INLINE_DEPTH 4095u
#define FF_MAX_CATEGORIES (1u << 19)

void ff_init(ff_profile_t *p)
{
    memset(p, 0, sizeof *p);
    intern_init(&p->str);
    intern_init(&p->regions);
    tuplemap_init(&p->funcs);
    tuplemap_init(&p->frames);
    tuplemap_init(&p->stacks);
    tuplemap_init(&p->samples);
    tuplemap_init(&p->sources);
}

void ff_free(ff_profile_t *p)
{
    intern_free(&p->str);
    intern_free(&p->regions);
    for (size_t i = 0; i < p->nlib; i++)
        free(p->lib[i].build_id);
    free(p->lib);
    free(p->source);
    free(p->func);
    free(p->frame);
    free(p->stack_prefix);
    free(p->stack_frame);
    free(p->sample_thread);
    free(p->sample_stack);
    free(p->sample_weight);
    free(p->thread_id);
    free(p->cmd);
    tuplemap_free(&p->funcs);
    tuplemap_free(&p->frames);
    tuplemap_free(&p->stacks);
    tuplemap_free(&p->samples);
    tuplemap_free(&p->sources);
    memset(p, 0, sizeof *p);
}


static uint32_t str_id(ff_profile_t *p, const char *s)
{
    return intern(&p->str, s);
}

static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b && b[1] ? b + 1 : path;
}

/* Index of the source (file) named by string id file. */
static int32_t source_of(ff_profile_t *p, uint32_t file)
{
    int added;
    size_t i = tuplemap_get(&p->sources, file, 0, 0, 0, &added);
    if (added) {
        cu_grow(&p->source, &p->source_cap, p->nsource + 1, sizeof *p->source);
        p->source[p->nsource++] = file;
    }
    return (int32_t)i;
}

static uint32_t func_of(ff_profile_t *p, uint32_t name, int32_t resource,
                        int32_t source, uint32_t line)
{
    int added;
    size_t i = tuplemap_get(&p->funcs, name, (uint32_t)resource,
                            (uint32_t)source, line, &added);
    if (added) {
        cu_grow(&p->func, &p->func_cap, p->nfunc + 1, sizeof *p->func);
        p->func[p->nfunc++] = (ff_func_t){name, resource, source, line};
    }
    return (uint32_t)i;
}

static uint32_t frame_of(ff_profile_t *p, uint32_t func, uint32_t line,
                         uint32_t depth, uint32_t cat, int64_t address)
{
    int added;
    /* The address's low 32 bits are enough to tell frames apart: two
     * frames that differ only above them would show the same anyway. */
    size_t i = tuplemap_get(&p->frames, func, line, cat << 12 | depth,
                            (uint32_t)address, &added);
    if (added) {
        cu_grow(&p->frame, &p->frame_cap, p->nframe + 1, sizeof *p->frame);
        p->frame[p->nframe++] = (ff_frame_t){func, line, depth, cat, address};
    }
    return (uint32_t)i;
}

/* The stack node for frame under prefix (parent + 1, 0: root). */
static uint32_t stack_of(ff_profile_t *p, uint32_t prefix, uint32_t frame)
{
    int added;
    size_t i = tuplemap_get(&p->stacks, prefix, frame, 0, 0, &added);
    if (added) {
        size_t cap = p->stack_cap;
        cu_grow(&p->stack_prefix, &cap, p->nstack + 1, sizeof *p->stack_prefix);
        cu_grow(&p->stack_frame, &p->stack_cap, p->nstack + 1,
                sizeof *p->stack_frame);
        p->stack_prefix[p->nstack] = prefix;
        p->stack_frame[p->nstack++] = frame;
    }
    return (uint32_t)i;
}

static uint32_t thread_of(ff_profile_t *p, int64_t id)
{
    for (size_t i = 0; i < p->nthread; i++)
        if (p->thread_id[i] == id)
            return (uint32_t)i;
    cu_grow(&p->thread_id, &p->thread_cap, p->nthread + 1, sizeof *p->thread_id);
    p->thread_id[p->nthread] = id;
    return (uint32_t)p->nthread++;
}

static void add_sample(ff_profile_t *p, uint32_t thread, uint32_t stack,
                       uint64_t weight)
{
    int added;
    size_t i = tuplemap_get(&p->samples, thread, stack, 0, 0, &added);
    if (added) {
        size_t c1 = p->sample_cap, c2 = p->sample_cap;
        cu_grow(&p->sample_thread, &c1, p->nsample + 1, sizeof *p->sample_thread);
        cu_grow(&p->sample_stack, &c2, p->nsample + 1, sizeof *p->sample_stack);
        cu_grow(&p->sample_weight, &p->sample_cap, p->nsample + 1,
                sizeof *p->sample_weight);
        p->sample_thread[p->nsample] = thread;
        p->sample_stack[p->nsample] = stack;
        p->sample_weight[p->nsample++] = 0;
    }
    p->sample_weight[i] += weight;
    p->total += weight;
}

static char *hex_of(const char *s)
{
    return s && *s ? cu_strdup(s) : NULL;
}

static int build(ff_profile_t *p, const char *name, const profile_t *pr,
                 char *err, size_t errlen)
{
#define STR(i) pf_str(pr, i)
    int default_value = pf_value_index(pr, name, p->event, err, errlen);
    if (default_value < 0)
        return -1;
    size_t vi = (size_t)default_value;
    if (pr->ncomment && pr->comment[0] != PF_BAD_STR)
        p->cmd = cu_strdup(STR(pr->comment[0]));

    if (pf_check_tables(pr, err, errlen) < 0)
        return -1;
    /* Mappings: one lib (and resource) each, in the file's order. */
    for (size_t i = 0; i < pr->nmapping; i++) {
        const pf_mapping_t *m = &pr->mapping[i];
        cu_grow(&p->lib, &p->lib_cap, p->nlib + 1, sizeof *p->lib);
        const char *path = STR(m->filename);
        p->lib[p->nlib++] = (ff_lib_t){str_id(p, base_name(path)),
                                       str_id(p, path),
                                       hex_of(STR(m->build_id))};
    }
    for (size_t i = 0; i < pr->nlocation; i++)
        if (pr->location[i].nline > FF_MAX_INLINE_DEPTH)
            return cu_fail_named(err, errlen, name, "location %" PRIu64 ": more "
                 "than %u inlined calls", pr->location[i].id, FF_MAX_INLINE_DEPTH);

    for (size_t si = 0; si < pr->nsample; si++) {
        const pf_sample_t *s = &pr->sample[si];
        if (pf_sample_check(pr, si, vi, name, err, errlen) < 0)
            return -1;
        int64_t value = pr->sample_value[s->value + vi];
        if (value == 0)
            continue;
        /* Thread: the numeric label `thread` (1 when the profile has none);
         * category: the innermost region, cycprof's first `region` label. */
        int64_t tid = 1;
        uint32_t cat = 0;
        for (size_t k = 0; k < s->nlabel; k++) {
            const pf_label_t *lb = &pr->sample_label[s->label + k];
            if (lb->key == PF_BAD_STR || lb->str == PF_BAD_STR)
                return cu_fail_named(err, errlen, name, "sample %zu: label string "
                     "index out of range", si);
            if (strcmp(STR(lb->key), "thread") == 0 && !lb->str)
                tid = lb->num;
            else if (strcmp(STR(lb->key), "region") == 0 && lb->str && !cat) {
                cat = 1 + intern(&p->regions, STR(lb->str));
                if (cat >= FF_MAX_CATEGORIES)
                    return cu_fail_named(err, errlen, name, "more than %u regions",
                         FF_MAX_CATEGORIES - 1);
            }
        }
        /* pprof stacks are leaf first and a location's lines innermost
         * first: walk both backwards to go from the root. */
        const uint32_t *loc = pr->sample_loc + s->loc;
        uint32_t node = 0; /* stack + 1 */
        for (size_t k = s->nloc; k-- > 0;) {
            size_t li = loc[k];
            if (li >= pr->nlocation)
                return cu_fail_named(err, errlen, name, "sample %zu refers to "
                     "unknown location %" PRIu64, si,
                     pr->unknown_location[li - pr->nlocation]);
            const pf_location_t *l = &pr->location[li];
            int32_t lib = -1;
            int64_t addr = -1;
            if (l->mapping != PF_NO_MAPPING) {
                const pf_mapping_t *m = &pr->mapping[l->mapping];
                lib = (int32_t)l->mapping;
                if (l->address >= m->memory_start && l->address < m->memory_limit)
                    addr = (int64_t)(l->address - m->memory_start + m->file_offset);
            }
            if (!l->nline) {
                char buf[32];
                snprintf(buf, sizeof buf, "0x%" PRIx64, l->address);
                uint32_t fn = func_of(p, str_id(p, buf), lib, -1, 0);
                node = 1 + stack_of(p, node, frame_of(p, fn, 0, 0, cat, addr));
            }
            /* The last line is the function that holds the code, the
             * ones before it the calls inlined into it, outermost first. */
            size_t first = p->no_inlines && l->nline ? 1 : l->nline;
            for (size_t j = l->nline, depth = 0; j-- > l->nline - first;
                 depth++) {
                const pf_line_t *ln = &pr->lines[l->line + j];
                const pf_function_t *f = &pr->function[ln->function];
                const char *fname = *STR(f->name) ? STR(f->name)
                                                  : STR(f->system_name);
                int32_t src = *STR(f->filename)
                                  ? source_of(p, str_id(p, STR(f->filename)))
                                  : -1;
                uint32_t start = f->start_line > 0 && f->start_line <= UINT32_MAX
                                     ? (uint32_t)f->start_line : 0;
                uint32_t line = ln->line > 0 && ln->line <= UINT32_MAX
                                    ? (uint32_t)ln->line : 0;
                uint32_t fn = func_of(p, str_id(p, *fname ? fname : "??"), lib,
                                      src, start);
                node = 1 + stack_of(p, node,
                                    frame_of(p, fn, line, (uint32_t)depth, cat,
                                             addr));
            }
        }
        if (!node) {
            uint32_t fn = func_of(p, str_id(p, "[unknown]"), -1, -1, 0);
            node = 1 + stack_of(p, 0, frame_of(p, fn, 0, 0, cat, -1));
        }
        add_sample(p, thread_of(p, tid), node - 1, (uint64_t)value);
    }
    return 0;
#undef STR
}

int ff_from_pprof(ff_profile_t *p, const char *path, char *err, size_t errlen)
{
    profile_t pr;
    pf_init(&pr);
    int rc = pprof_load_file(&pr, path, err, errlen);
    if (rc == 0)
        rc = build(p, path, &pr, err, errlen);
    pf_free(&pr);
    return rc;
}
