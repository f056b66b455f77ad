/* profile: the command's one in-memory profile model. read/pprof_reader
 * fills it from a profile.proto file (cycprof's own, Go's, RISC Zero's,
 * and the one `cycprof pprof` makes of a stacks dump),
 * read/callgrind_reader from callgrind-format files, and the commands read
 * its views: the exact stacks (read/pprof_stacks.h), the cost tables of
 * report and diff (read/profile_costs.h, model/cost_tables.h) and the
 * Firefox Profiler's model (read/firefox_profile.h). It follows pprof's
 * profile.proto and Go's profile.Profile:
 *
 *   - sample types: what each of a sample's values counts, as (type,
 *     unit) pairs ("instructions"/"count", "cpu"/"nanoseconds"); the one
 *     pprof shows by default is default_sample_type, else the last;
 *   - samples: a stack of locations, leaf first, one value per sample
 *     type, and labels: a key with a string (cycprof's `region`) or a
 *     number (cycprof's and Go's `thread`, with its unit);
 *   - locations: an address in a mapping and its lines, innermost first:
 *     the last line is the function whose code is at the address, the
 *     lines before it the calls inlined into it, so one location can be
 *     several frames; a location without lines is code without a symbol;
 *   - functions: name (demangled), system name (the symbol), source file
 *     and start line;
 *   - mappings: the object (file name, build id) and the address range
 *     it was loaded at, with the file offset of its start;
 *   - comments (cycprof's first is the profiled command, later ones its
 *     "cycprof deterministic: " mode and "cycprof-zkvm: " segment table),
 *     the period and its type, the time and duration.
 *
 * A callgrind-format file (callgrind_reader.h) fills the same tables:
 *   - sample types: its events ("Ir"/"count"), in the order of its first
 *     `events:` line (or the sample types the profile was given before);
 *   - samples: none, for a callgrind file has no stacks; its self costs are
 *     those of its locations (callgrind.self below), one per (object,
 *     function, line): the location's mapping the object (ob=,
 *     callgrind.location_mapping: no pf_location_t records are kept,
 *     pf_location_at makes them) and its one line the function and line
 *     number (in the function's file but for callgrind.location_file);
 *     locations and lines share their index, in the order the file first
 *     gives each a cost (a cost line of zeros included); a reader told that
 *     the command's rows have no line numbers (cg_reader_no_line_numbers)
 *     keeps one per (object, function, file), line 0;
 *   - functions: one per "file:function" as callgrind_annotate keys them
 *     (fn= in the file of fl=, fi= or fe=; name and system name both the
 *     fn= name), in the order the file first names each (fn=, cfn=, or a
 *     fi=/fe= switch in a function), and mappings one per object;
 *   - what profile.proto has no field for is in `callgrind` below: each
 *     location's self cost, each function's calls out and in (the inclusive
 *     costs of its call arcs, summed), the totals, the parts, the command,
 *     creator and deterministic mode, the object of each function, the zkVM
 *     segment table.
 * Its costs are counts up to 2^64-1: the values of such a profile (its
 * locations' and its functions' calls) are uint64_t kept in the int64_t
 * arrays, read by pf_count.
 *
 * Records refer to each other by their position in their array, resolved
 * from the file's ids when it is read; a mapping or location keeps its id
 * (a function does not: no view names one by it). Strings are the file's
 * string table, as its indices (every string field below is one; a
 * callgrind file's table is its names, each once, "" first); an index
 * outside the table is PF_BAD_STR, so that each view reports it where
 * pprof's readers would. The bytes are kept once, by the command's interner
 * (intern.h).
 *
 * What protobuf-c cannot check, the reader checks as it fills the tables
 * (ids non-zero and distinct, string indices in range, mappings and
 * functions referred to exist) and keeps the first problem for
 * pf_check_tables, so that each view reports it after the checks of its
 * own it makes first. A sample's values and locations are kept as the file
 * has them and checked by the view that reads them. */
#ifndef CYCPROF_PROFILE_H
#define CYCPROF_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "model/intern.h"

#define PF_BAD_STR UINT32_MAX   /* a string index outside the table */
#define PF_NO_MAPPING UINT32_MAX/* a location in no mapping (mapping_id 0) */

typedef struct pf_value_type {
    uint32_t type, unit;        /* strings: "instructions", "count" */
} pf_value_type_t;

typedef struct pf_label {
    uint32_t key, str;          /* strings; str 0: a numeric label */
    int64_t num;
    uint32_t num_unit;          /* string */
} pf_label_t;

/* Indices and counts are 32 bits (the readers refuse more entries as out
 * of memory): a profile holds hundreds of thousands of samples and
 * locations, and the model is the most of a command's memory. */
typedef struct pf_sample {
    uint32_t loc, value, label; /* its first entries in sample_loc,
                                 * sample_value, sample_label */
    uint32_t nloc, nvalue, nlabel;
} pf_sample_t;

typedef struct pf_line {
    uint32_t function;          /* index in function */
    int64_t line;               /* 0: unknown (the column is not kept:
                                 * no view shows one) */
} pf_line_t;

typedef struct pf_location {
    uint64_t id, address;
    uint32_t mapping;           /* index in mapping, or PF_NO_MAPPING */
    uint32_t nline;
    uint32_t line;              /* its first line in lines, innermost */
    int is_folded;
} pf_location_t;

typedef struct pf_function {
    uint32_t name, system_name, filename;   /* strings */
    int64_t start_line;
} pf_function_t;

typedef struct pf_mapping {
    uint64_t id, memory_start, memory_limit, file_offset;
    uint32_t filename, build_id;            /* strings */
    unsigned has_functions : 1, has_filenames : 1, has_line_numbers : 1,
        has_inline_frames : 1;
} pf_mapping_t;

/* A line of a callgrind file's zkVM segment table: the text after the
 * comment's prefix as the file has it, line end included. */
typedef struct pf_zk_line {
    char *text;
    int file_end;               /* the last line of its file's table */
} pf_zk_line_t;

/* What callgrind-format files have and profile.proto has not; all zero in
 * a profile read from pprof. */
typedef struct pf_callgrind {
    size_t nfiles;              /* callgrind files read into the profile */
    size_t nparts;              /* their parts (part:) */
    /* Per sample type: the sum over the parts of what callgrind_annotate
     * takes as a part's total: summary:, else totals:, else the sum of
     * its cost lines. NULL until the sample types are known. */
    uint64_t *totals;
    /* cmd:, creator: and "desc: Deterministic: MODE" of the first file
     * that has them, or NULL. */
    char *cmd, *creator, *deterministic;
    /* Per function: the mapping (object, ob=) of the first fn= or fi=/fe=
     * that named it, or PF_NO_MAPPING for a function only called (cfn=). */
    uint32_t *function_object;
    /* Per location: its mapping (the object, ob=), or PF_NO_MAPPING.
     * A callgrind profile keeps no pf_location_t records (location is
     * NULL): location i is line i, at no address, with id i + 1, and
     * pf_location_at gives it as a record. */
    uint32_t *location_mapping;
    /* Per location, one value per sample type: its self cost, summed
     * over the file's cost lines (the profile has no samples). */
    int64_t *self;
    /* Per location, or NULL when each is in its function's file: the
     * source file of its line. A cost line after fl= without a new fn= is
     * in that file, and in the function the last fn= (fi=, fe=) named, as
     * callgrind_annotate counts it. */
    uint32_t *location_file;
    /* Per function, one value per sample type each: the inclusive cost
     * of the calls it makes (calls_out) and of the calls it receives
     * (calls_in), summed over the call arcs of the files (calls= and the
     * cost line after it). called[i] is 1 when some arc goes to function
     * i. The arcs themselves (line of the call, calls= count) are not
     * kept: no view reads them, and they are most of a callgrind file. */
    int64_t *calls_out, *calls_in;
    unsigned char *called;
    /* The zkVM segment tables of files made with --zk-model (docs/zkvm.md):
     * their '# cycprof-zkvm<TAB>' comment lines, in file order. */
    pf_zk_line_t *zk_table;
    size_t zk_table_lines, zk_table_cap;
} pf_callgrind_t;

typedef struct profile {
    intern_t strings;           /* the bytes of the string table */
    uint32_t *string;           /* table index -> id in strings */
    size_t nstring;

    pf_value_type_t *sample_type;
    size_t nsample_type;
    uint32_t default_sample_type;  /* string; 0: none */

    pf_sample_t *sample;
    size_t nsample;
    /* A sample's location entries: the index of a location, or, for an id
     * no location has, nlocation + k, the id being unknown_location[k]. */
    uint32_t *sample_loc;
    int64_t *sample_value;
    pf_label_t *sample_label;
    size_t nsample_loc, nsample_value, nsample_label;
    uint64_t *unknown_location;
    size_t nunknown_location;

    pf_location_t *location;
    size_t nlocation;
    pf_line_t *lines;
    size_t nlines;
    pf_function_t *function;
    size_t nfunction;
    pf_mapping_t *mapping;
    size_t nmapping;

    uint32_t *comment;          /* strings */
    size_t ncomment;
    uint32_t drop_frames, keep_frames;  /* strings */
    int64_t time_nanos, duration_nanos;
    pf_value_type_t period_type;
    int64_t period;

    char *tables_error;         /* the tables' first problem, "NAME: what",
                                 * or NULL */

    pf_callgrind_t callgrind;   /* read from callgrind files: nfiles > 0 */
} profile_t;

void pf_init(profile_t *p);
void pf_free(profile_t *p);

/* String i of the table (i < nstring, never PF_BAD_STR). */
static inline const char *pf_str(const profile_t *p, uint32_t i)
{
    return p->strings.str[p->string[i]];
}

/* Location i (i < nlocation) as a record, also for a callgrind profile,
 * which keeps only each location's mapping. */
static inline pf_location_t pf_location_at(const profile_t *p, size_t i)
{
    if (p->location)
        return p->location[i];
    return (pf_location_t){.id = i + 1,
                           .mapping = p->callgrind.location_mapping[i],
                           .nline = 1, .line = (uint32_t)i};
}

/* Value i of sample_value or callgrind.call_value of a profile read from
 * callgrind files: a count up to 2^64-1. */
static inline uint64_t pf_count(const int64_t *values, size_t i)
{
    return (uint64_t)values[i];
}

/* 0 if the tables are sound, else -1 with their first problem in err. */
int pf_check_tables(const profile_t *p, char *err, size_t errlen);

/* The index of the value pprof shows by default (default_sample_type,
 * else the last sample type), after checking that every sample type names
 * strings of the table; -1 with "NAME: what" in err. */
int pf_default_value(const profile_t *p, const char *name, char *err,
                     size_t errlen);

/* The index of sample type `event` (its type name, or another name of it,
 * event_names.h), or when event is NULL pf_default_value; -1 with
 * "NAME: unknown event 'EV' (the profile has: TYPES)" in err. */
int pf_value_index(const profile_t *p, const char *name, const char *event,
                   char *err, size_t errlen);

/* Sample si holds one value per sample type, and the one at vi, the value
 * the view takes, is not negative. Returns 0, or -1 with "NAME: what". */
int pf_sample_check(const profile_t *p, size_t si, size_t vi,
                    const char *name, char *err, size_t errlen);

#endif
