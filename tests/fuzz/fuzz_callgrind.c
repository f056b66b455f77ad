/* libFuzzer harness for the callgrind-format reader (callgrind_reader.c),
 * the cost tables it is viewed as (profile_costs.c) and the ranking built
 * on them (cost_rank.c), once for each --by as report reads it. Any input must either load or
 * be rejected with an error message; never crash, leak or hang. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "read/callgrind_reader.h"
#include "read/profile_costs.h"
#include "util/cmdutil.h"
#include "analyse/cost_rank.h"

/* One --by as report reads it: the tables kept for its rows, the reader
 * told when they have no line numbers, the profile given up to them. */
static void read_for(const uint8_t *data, size_t size, rank_by_t by)
{
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f)
        return;
    profile_t pr;
    cg_profile_t p;
    char err[CU_ERRLEN];
    pf_init(&pr);
    cg_init(&p);
    p.rows = rank_rows(by);
    cg_reader_t *reader = cg_reader_new(&pr, NULL, 0);
    if (!cg_keeps_line_numbers(&p))
        cg_reader_no_line_numbers(reader);
    int rc = cg_read_stream(reader, "fuzz", f, err, sizeof err);
    fclose(f);
    cg_reader_free(reader);
    if (rc == 0)
        rc = pc_add_taking(&p, "fuzz", &pr, err, sizeof err);
    pf_free(&pr);
    if (rc < 0) {
        /* An error must be a message, not an empty string. */
        if (!err[0])
            __builtin_trap();
    } else {
        rank_t r;
        rank_build(&p, by, by == BY_FUNCTION, &r);
        int order[1] = {0};
        rank_sort(&r, order, 1);
        rank_free(&r);
    }
    cg_free(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    for (int by = 0; by < 4; by++)
        read_for(data, size, (rank_by_t)by);
    return 0;
}
