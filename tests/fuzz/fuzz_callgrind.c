/* libFuzzer harness for the callgrind-format reader (callgrind_reader.c)
 * and the ranking built on it (cost_rank.c). Any input must either load or
 * be rejected with an error message; never crash, leak or hang. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "read/callgrind_reader.h"
#include "util/cmdutil.h"
#include "analyse/cost_rank.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f)
        return 0;
    cg_profile_t p;
    char err[CU_ERRLEN];
    cg_init(&p);
    int rc = cg_read_stream(&p, "fuzz", f, err, sizeof err);
    fclose(f);
    if (rc < 0) {
        /* An error must be a message, not an empty string. */
        if (!err[0])
            __builtin_trap();
    } else {
        for (int by = 0; by < 4; by++) {
            rank_t r;
            rank_build(&p, (rank_by_t)by, by == BY_FUNCTION, &r);
            int order[1] = {0};
            rank_sort(&r, order, 1);
            rank_free(&r);
        }
    }
    cg_free(&p);
    return 0;
}
