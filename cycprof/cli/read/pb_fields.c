/* See pb_fields.h. The rules are protobuf-c's (protobuf_c_message_unpack:
 * parse_tag_and_wiretype, the scan of each wire type,
 * scan_length_prefixed_data), narrowed to what never needs its corner
 * cases. */
#include "read/pb_fields.h"

/* A varint of at most max bytes at [at, end): its length, 0 if it does not
 * end within them. */
static size_t varint(const unsigned char *at, const unsigned char *end,
                     size_t max, uint64_t *v)
{
    uint64_t x = 0;
    for (size_t i = 0; i < max && at + i < end; i++) {
        x |= (uint64_t)(at[i] & 0x7f) << (7 * i);
        if (!(at[i] & 0x80)) {
            *v = x;
            return i + 1;
        }
    }
    return 0;
}

int pb_next_field(const unsigned char **at, const unsigned char *end,
                  pb_field_t *f)
{
    const unsigned char *p = *at;
    uint64_t tag, len;
    size_t n = varint(p, end, 4, &tag);
    if (!n || tag >> 3 == 0)
        return 0;
    f->number = (uint32_t)(tag >> 3);
    f->wire = (unsigned)(tag & 7);
    f->start = p;
    p += n;
    size_t left = (size_t)(end - p);
    switch (f->wire) {
    case PB_VARINT:
        if (!(n = varint(p, end, 10, &len)))
            return 0;
        f->value = p;
        p += n;
        break;
    case PB_FIXED64:
    case PB_FIXED32:
        n = f->wire == PB_FIXED64 ? 8 : 4;
        if (left < n)
            return 0;
        f->value = p;
        p += n;
        break;
    case PB_BYTES:
        if (!(n = varint(p, end, 4, &len)) || len > left - n)
            return 0;
        f->value = p + n;
        p += n + len;
        break;
    default:
        return 0;
    }
    f->end = p;
    *at = p;
    return 1;
}
