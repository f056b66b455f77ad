/* libFuzzer harness for the stacks dump reader (stacks_reader.c), the cut
 * of deep stacks (sr_stack) and their merging (stack_merge.c). Any input
 * must either be read to its end or be rejected with an error message. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analyse/stack_merge.h"
#include "read/stacks_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        fd = memfd_create("dump", 0);
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
        return 0;
    struct stacks_reader *r = sr_open(path);
    if (!r)
        return 0;
    struct stack_merge *m = sm_new(1 << 20);
    struct sr_record rec;
    uint64_t *stack = NULL;
    size_t cap = 0;
    int rc = -1;
    while (!sr_error(r) && (rc = sr_next(r, &rec)) == 1) {
        if (rec.kind == SR_SAMPLE) {
            size_t n = sr_stack(r, rec.sample.node, rec.sample.loc, &stack, &cap);
            if (n == 0 || n > SR_MAX_FRAMES)
                __builtin_trap();
            if (m)
                sm_add(m, stack, n, rec.sample.count, (int64_t)rec.sample.thread,
                       rec.sample.region);
        }
    }
    if (sr_error(r) == NULL && rc != 0)
        __builtin_trap();
    free(stack);
    sm_free(m);
    sr_close(r);
    return 0;
}
