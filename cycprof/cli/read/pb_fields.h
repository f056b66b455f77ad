/* The top-level fields of a protobuf message, framed as protobuf-c frames
 * them, so that a reader can hand the fields of one kind to protobuf-c one
 * at a time rather than decode the whole message at once (pprof_reader.c:
 * a profile's samples). Only plain fields are framed: a tag of at most 4
 * bytes (field numbers below 2^25), a varint of at most 10 bytes, a length
 * of at most 4 bytes (below 2^28) and its bytes, or 8 or 4 fixed bytes;
 * anything else is left to protobuf-c on the whole message, which decides
 * whether it is valid. */
#ifndef CYCPROF_PB_FIELDS_H
#define CYCPROF_PB_FIELDS_H

#include <stddef.h>
#include <stdint.h>

enum { PB_VARINT = 0, PB_FIXED64 = 1, PB_BYTES = 2, PB_FIXED32 = 5 };

typedef struct pb_field {
    uint32_t number;
    unsigned wire;                  /* PB_VARINT ... */
    const unsigned char *start;     /* its tag */
    const unsigned char *value;     /* its value (PB_BYTES: after the length) */
    const unsigned char *end;       /* the byte after it */
} pb_field_t;

/* The field at *at (before end) into f, and *at moved past it: 1; 0 when
 * the bytes there are not one plain field. */
int pb_next_field(const unsigned char **at, const unsigned char *end,
                  pb_field_t *f);

#endif
