/* See firefox_profile.h: writing the tables as the processed format's JSON
 * (firefox-devtools/profiler, src/types/profile.ts at version 66; the field
 * set of samply's fxprof-processed-profile). */
#define _POSIX_C_SOURCE 200809L
#include "read/firefox_profile.h"
#include "util/cmdutil.h"
#include "write/json_out.h"

#include <stdlib.h>
#include <string.h>

/* Category colours of the profiler, region after region ("grey" is the
 * default category's: no region). */
static const char *const colors[] = {
    "blue", "green", "orange", "purple", "yellow", "lightblue", "brown",
    "magenta", "red", "lightred", "darkgrey",
};

static void null_col(json_t *j, const char *key, size_t n)
{
    json_key(j, key);
    json_open_arr(j);
    for (size_t i = 0; i < n; i++)
        json_null(j);
    json_close_arr(j);
}

static void bool_col(json_t *j, const char *key, size_t n, int v)
{
    json_key(j, key);
    json_open_arr(j);
    for (size_t i = 0; i < n; i++)
        json_bool(j, v);
    json_close_arr(j);
}

static void int_col(json_t *j, const char *key, size_t n, int64_t v)
{
    json_key(j, key);
    json_open_arr(j);
    for (size_t i = 0; i < n; i++)
        json_i64(j, v);
    json_close_arr(j);
}

static void empty_cols(json_t *j, const char *const *keys)
{
    for (; *keys; keys++) {
        json_key(j, *keys);
        json_open_arr(j);
        json_close_arr(j);
    }
}

static void write_meta(const ff_profile_t *p, json_t *j)
{
    json_key(j, "meta");
    json_open_obj(j);
    json_key(j, "categories");
    json_open_arr(j);
    for (size_t c = 0; c <= p->regions.n; c++) {
        json_open_obj(j);
        json_key(j, "name");
        json_str(j, c ? p->regions.str[c - 1] : "Other");
        json_key(j, "color");
        json_str(j, c ? colors[(c - 1) % (sizeof colors / sizeof *colors)]
                      : "grey");
        json_key(j, "subcategories");
        json_open_arr(j);
        json_str(j, "Other");
        json_close_arr(j);
        json_close_obj(j);
    }
    json_close_arr(j);
    json_key(j, "debug");
    json_bool(j, 0);
    json_key(j, "extensions");
    json_open_obj(j);
    json_key(j, "length");
    json_u64(j, 0);
    static const char *const ext[] = {"baseURL", "id", "name", NULL};
    empty_cols(j, ext);
    json_close_obj(j);
    /* Samples are not spread over time: one per stack, 1 ms apart. */
    json_key(j, "interval");
    json_u64(j, 1);
    json_key(j, "preprocessedProfileVersion");
    json_u64(j, FF_PROFILE_VERSION);
    json_key(j, "processType");
    json_u64(j, 0);
    json_key(j, "product");
    json_str(j, p->cmd ? p->cmd : "cycprof");
    json_key(j, "importedFrom");
    json_str(j, "cycprof (exact instruction counts)");
    json_key(j, "sampleUnits");
    json_open_obj(j);
    json_key(j, "time");
    json_str(j, "ms");
    json_key(j, "eventDelay");
    json_str(j, "ms");
    json_key(j, "threadCPUDelta");
    json_str(j, "\xc2\xb5s");
    json_close_obj(j);
    json_key(j, "startTime");
    json_u64(j, 0);
    /* Names come from the profile: nothing to look up. */
    json_key(j, "symbolicated");
    json_bool(j, 1);
    json_key(j, "pausedRanges");
    json_open_arr(j);
    json_close_arr(j);
    json_key(j, "version");
    json_u64(j, 24);
    json_key(j, "usesOnlyOneStackType");
    json_bool(j, 1);
    json_key(j, "sourceCodeIsNotOnSearchfox");
    json_bool(j, 1);
    json_key(j, "markerSchema");
    json_open_arr(j);
    json_close_arr(j);
    json_close_obj(j);
}

/* breakpad's id of an ELF file: the first 16 bytes of its build-id as a
 * GUID (the first three fields byte-swapped), upper case, then "0". */
static void breakpad_id(const char *hex, char *out)
{
    static const int order[16] = {3, 2, 1, 0, 5, 4, 7, 6,
                                  8, 9, 10, 11, 12, 13, 14, 15};
    size_t n = strlen(hex) / 2;
    char bytes[16][2] = {{0}};
    for (size_t i = 0; i < 16; i++)
        if (i < n)
            memcpy(bytes[i], hex + 2 * i, 2);
        else
            memcpy(bytes[i], "00", 2);
    char *o = out;
    for (int i = 0; i < 16; i++)
        for (int k = 0; k < 2; k++) {
            char c = bytes[order[i]][k];
            *o++ = c >= 'a' && c <= 'f' ? (char)(c - 'a' + 'A') : c;
        }
    *o++ = '0';
    *o = 0;
}

static void write_libs(const ff_profile_t *p, json_t *j)
{
    json_key(j, "libs");
    json_open_arr(j);
    for (size_t i = 0; i < p->nlib; i++) {
        const ff_lib_t *l = &p->lib[i];
        char bp[40];
        json_open_obj(j);
        json_key(j, "arch");
        json_null(j);
        json_key(j, "name");
        json_str(j, p->str.str[l->name]);
        json_key(j, "path");
        json_str(j, p->str.str[l->path]);
        json_key(j, "debugName");
        json_str(j, p->str.str[l->name]);
        json_key(j, "debugPath");
        json_str(j, p->str.str[l->path]);
        json_key(j, "breakpadId");
        if (l->build_id && strlen(l->build_id) >= 32) {
            breakpad_id(l->build_id, bp);
            json_str(j, bp);
        } else {
            json_str(j, "");
        }
        json_key(j, "codeId");
        json_str(j, l->build_id);
        json_close_obj(j);
    }
    json_close_arr(j);
}

static void write_shared(const ff_profile_t *p, json_t *j)
{
    json_key(j, "shared");
    json_open_obj(j);

    json_key(j, "stackTable");
    json_open_obj(j);
    json_key(j, "length");
    json_u64(j, p->nstack);
    json_key(j, "prefixOffset");
    json_open_arr(j);
    for (size_t i = 0; i < p->nstack; i++)
        json_u64(j, p->stack_prefix[i] ? i - (p->stack_prefix[i] - 1) : 0);
    json_close_arr(j);
    json_key(j, "frame");
    json_open_arr(j);
    for (size_t i = 0; i < p->nstack; i++)
        json_u64(j, p->stack_frame[i]);
    json_close_arr(j);
    json_close_obj(j);

    size_t n = p->nframe;
    json_key(j, "frameTable");
    json_open_obj(j);
    json_key(j, "length");
    json_u64(j, n);
    json_key(j, "address");
    json_open_arr(j);
    for (size_t i = 0; i < n; i++)
        json_i64(j, p->frame[i].address);
    json_close_arr(j);
    json_key(j, "inlineDepth");
    json_open_arr(j);
    for (size_t i = 0; i < n; i++)
        json_u64(j, p->frame[i].inline_depth);
    json_close_arr(j);
    json_key(j, "category");
    json_open_arr(j);
    for (size_t i = 0; i < n; i++)
        json_u64(j, p->frame[i].category);
    json_close_arr(j);
    int_col(j, "subcategory", n, 0);
    json_key(j, "func");
    json_open_arr(j);
    for (size_t i = 0; i < n; i++)
        json_u64(j, p->frame[i].func);
    json_close_arr(j);
    null_col(j, "nativeSymbol", n);
    null_col(j, "innerWindowID", n);
    json_key(j, "line");
    json_open_arr(j);
    for (size_t i = 0; i < n; i++)
        if (p->frame[i].line)
            json_u64(j, p->frame[i].line);
        else
            json_null(j);
    json_close_arr(j);
    null_col(j, "column", n);
    null_col(j, "originalLocation", n);
    json_close_obj(j);

    n = p->nfunc;
    json_key(j, "funcTable");
    json_open_obj(j);
    json_key(j, "length");
    json_u64(j, n);
    json_key(j, "name");
    json_open_arr(j);
    for (size_t i = 0; i < n; i++)
        json_u64(j, p->func[i].name);
    json_close_arr(j);
    bool_col(j, "isJS", n, 0);
    bool_col(j, "relevantForJS", n, 0);
    json_key(j, "resource");
    json_open_arr(j);
    for (size_t i = 0; i < n; i++)
        json_i64(j, p->func[i].resource);
    json_close_arr(j);
    json_key(j, "source");
    json_open_arr(j);
    for (size_t i = 0; i < n; i++)
        if (p->func[i].source >= 0)
            json_u64(j, (uint64_t)p->func[i].source);
        else
            json_null(j);
    json_close_arr(j);
    json_key(j, "lineNumber");
    json_open_arr(j);
    for (size_t i = 0; i < n; i++)
        if (p->func[i].line)
            json_u64(j, p->func[i].line);
        else
            json_null(j);
    json_close_arr(j);
    null_col(j, "columnNumber", n);
    null_col(j, "originalLocation", n);
    json_close_obj(j);

    /* One resource per library, at the same index. */
    n = p->nlib;
    json_key(j, "resourceTable");
    json_open_obj(j);
    json_key(j, "length");
    json_u64(j, n);
    json_key(j, "lib");
    json_open_arr(j);
    for (size_t i = 0; i < n; i++)
        json_u64(j, i);
    json_close_arr(j);
    json_key(j, "name");
    json_open_arr(j);
    for (size_t i = 0; i < n; i++)
        json_u64(j, p->lib[i].name);
    json_close_arr(j);
    null_col(j, "host", n);
    int_col(j, "type", n, 1); /* ResourceType.Library */
    json_close_obj(j);

    json_key(j, "nativeSymbols");
    json_open_obj(j);
    json_key(j, "length");
    json_u64(j, 0);
    static const char *const ns[] = {"libIndex", "address", "name",
                                     "functionSize", NULL};
    empty_cols(j, ns);
    json_close_obj(j);

    n = p->nsource;
    json_key(j, "sources");
    json_open_obj(j);
    json_key(j, "length");
    json_u64(j, n);
    null_col(j, "id", n);
    json_key(j, "filename");
    json_open_arr(j);
    for (size_t i = 0; i < n; i++)
        json_u64(j, p->source[i]);
    json_close_arr(j);
    int_col(j, "startLine", n, 1);
    int_col(j, "startColumn", n, 1);
    null_col(j, "sourceMapURL", n);
    null_col(j, "content", n);
    json_close_obj(j);

    json_key(j, "sourceLocationTable");
    json_open_obj(j);
    json_key(j, "length");
    json_u64(j, 0);
    static const char *const sl[] = {"source", "line", "column", NULL};
    empty_cols(j, sl);
    json_close_obj(j);

    json_key(j, "stringArray");
    json_open_arr(j);
    for (size_t i = 0; i < p->str.n; i++)
        json_str(j, p->str.str[i]);
    json_close_arr(j);
    json_close_obj(j);
}

/* Threads in the order of their numbers (1, the main thread, first). */
static int cmp_tid(const void *a, const void *b, const ff_profile_t *p)
{
    int64_t x = p->thread_id[*(const uint32_t *)a];
    int64_t y = p->thread_id[*(const uint32_t *)b];
    return x < y ? -1 : x > y;
}

static const ff_profile_t *sort_p; /* qsort has no context in C11 */
static int cmp_tid_q(const void *a, const void *b)
{
    return cmp_tid(a, b, sort_p);
}

static void write_thread(const ff_profile_t *p, json_t *j, uint32_t t)
{
    char name[64];
    int64_t id = p->thread_id[t];
    size_t ns = 0;
    for (size_t i = 0; i < p->nsample; i++)
        ns += p->sample_thread[i] == t;
    if (id == 1)
        snprintf(name, sizeof name, "main thread");
    else
        snprintf(name, sizeof name, "thread %lld", (long long)id);
    json_open_obj(j);
    json_key(j, "name");
    json_str(j, name);
    json_key(j, "isMainThread");
    json_bool(j, id == 1);
    json_key(j, "processType");
    json_str(j, "default");
    json_key(j, "processName");
    json_str(j, p->cmd ? p->cmd : "cycprof");
    json_key(j, "processStartupTime");
    json_u64(j, 0);
    json_key(j, "processShutdownTime");
    json_null(j);
    json_key(j, "registerTime");
    json_u64(j, 0);
    json_key(j, "unregisterTime");
    json_null(j);
    json_key(j, "pausedRanges");
    json_open_arr(j);
    json_close_arr(j);
    json_key(j, "pid");
    json_str(j, "1");
    snprintf(name, sizeof name, "%lld", (long long)id);
    json_key(j, "tid");
    json_str(j, name);
    json_key(j, "showMarkersInTimeline");
    json_bool(j, 0);

    json_key(j, "samples");
    json_open_obj(j);
    json_key(j, "length");
    json_u64(j, ns);
    json_key(j, "weightType");
    json_str(j, "samples");
    json_key(j, "stack");
    json_open_arr(j);
    for (size_t i = 0; i < p->nsample; i++)
        if (p->sample_thread[i] == t)
            json_u64(j, p->sample_stack[i]);
    json_close_arr(j);
    json_key(j, "weight");
    json_open_arr(j);
    for (size_t i = 0; i < p->nsample; i++)
        if (p->sample_thread[i] == t)
            json_u64(j, p->sample_weight[i]);
    json_close_arr(j);
    json_key(j, "timeDeltas");
    json_open_arr(j);
    for (size_t i = 0, k = 0; i < p->nsample; i++)
        if (p->sample_thread[i] == t)
            json_u64(j, k++ ? 1 : 0);
    json_close_arr(j);
    json_close_obj(j);

    json_key(j, "markers");
    json_open_obj(j);
    json_key(j, "length");
    json_u64(j, 0);
    static const char *const mk[] = {"data", "name", "startTime", "endTime",
                                     "phase", "category", NULL};
    empty_cols(j, mk);
    json_close_obj(j);
    json_close_obj(j);
}

int ff_write_json(const ff_profile_t *p, FILE *f)
{
    json_t j;
    json_begin(&j, f);
    write_meta(p, &j);
    write_libs(p, &j);
    write_shared(p, &j);
    uint32_t *order = cu_malloc((p->nthread + 1) * sizeof *order);
    for (size_t i = 0; i < p->nthread; i++)
        order[i] = (uint32_t)i;
    sort_p = p;
    if (p->nthread)
        qsort(order, p->nthread, sizeof *order, cmp_tid_q);
    json_key(&j, "threads");
    json_open_arr(&j);
    for (size_t i = 0; i < p->nthread; i++)
        write_thread(p, &j, order[i]);
    json_close_arr(&j);
    free(order);
    static const char *const rest[] = {"pages", "profilerOverhead", "counters",
                                       NULL};
    empty_cols(&j, rest);
    json_end(&j);
    return ferror(f) ? -1 : 0;
}
