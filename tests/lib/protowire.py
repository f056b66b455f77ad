"""Protocol-buffer wire encoding, enough to write profile.proto messages by
hand (tests/dev/mkpprof.py, tests/unit/pprofin/mkrisc0.py)."""


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7f
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(field, wt):
    return varint((field << 3) | wt)


def f_bytes(field, b):
    return key(field, 2) + varint(len(b)) + b
