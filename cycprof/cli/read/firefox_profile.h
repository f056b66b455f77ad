/* The Firefox Profiler's processed profile format (the JSON that
 * profiler.firefox.com and `samply load` open), pinned to
 * preprocessedProfileVersion 66: the version samply's
 * fxprof-processed-profile crate writes; newer profilers upgrade it on load
 * (docs/cli/firefox.md). Built from a pprof profile, a view of the
 * profile model (profile.h): one sample per distinct (thread, stack),
 * weighted by its exact count. */
#ifndef CYCPROF_FIREFOX_PROFILE_H
#define CYCPROF_FIREFOX_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/intern.h"
#include "model/tuplemap.h"

#define FF_PROFILE_VERSION 66

typedef struct ff_lib {
    uint32_t name, path;        /* string ids: base name, full path */
    char *build_id;             /* hex, or NULL */
} ff_lib_t;

typedef struct ff_func {
    uint32_t name;              /* string id */
    int32_t resource;           /* index into libs (= resources), or -1 */
    int32_t source;             /* index into sources, or -1 */
    uint32_t line;              /* first line, 0: unknown */
} ff_func_t;

typedef struct ff_frame {
    uint32_t func, line;        /* line 0: unknown */
    uint32_t inline_depth;      /* 0: the real frame; n: n-th inlined call */
    uint32_t category;          /* 0: no region, else 1 + region id */
    int64_t address;            /* offset in its object, or -1 */
} ff_frame_t;

typedef struct ff_profile {
    intern_t str;               /* the shared stringArray */
    intern_t regions;           /* region names; category = 1 + id */
    ff_lib_t *lib;
    size_t nlib, lib_cap;
    uint32_t *source;           /* sources: filename string id */
    size_t nsource, source_cap;
    ff_func_t *func;
    size_t nfunc, func_cap;
    ff_frame_t *frame;
    size_t nframe, frame_cap;
    uint32_t *stack_prefix;     /* parent stack + 1, 0 for a root */
    uint32_t *stack_frame;
    size_t nstack, stack_cap;
    /* One sample per distinct (thread, stack): */
    uint32_t *sample_thread, *sample_stack;
    uint64_t *sample_weight;
    size_t nsample, sample_cap;
    int64_t *thread_id;         /* the pprof `thread` label of each thread */
    size_t nthread, thread_cap;
    uint64_t total;
    const char *event;          /* the sample type to read (event_names.h),
                                 * NULL: pprof's default */
    int no_inlines;             /* charge inlined code to the containing
                                 * function, as the callgrind file does */
    char *cmd;                  /* the profiled command, or NULL */
    tuplemap_t funcs, frames, stacks, samples, sources;
} ff_profile_t;

void ff_init(ff_profile_t *p);
void ff_free(ff_profile_t *p);

/* Read the pprof profile at path into p: 0, or -1 with "PATH: what" in
 * err. */
int ff_from_pprof(ff_profile_t *p, const char *path, char *err, size_t errlen);

/* Write p as JSON to f; -1 on a write error. */
int ff_write_json(const ff_profile_t *p, FILE *f);

#endif
