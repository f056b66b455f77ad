"""Inclusive cost per function from a callgrind-format file, as the readers
compute it (callgrind_annotate --inclusive=yes, KCachegrind): a function
that receives calls costs the sum of the calls it receives (calls to
itself aside); one that receives none, its self cost plus its calls out.

In callgrind's own file a function entered again while it is active gets
a name with a recursion level ("F'2"); the inclusive cost of the plain
name is that of the outermost activations: the instructions run while F
was active.  Those are the oracle for cycprof's files."""
import collections
import re

from cyc import parse_callgrind

LEVEL = re.compile(r"'\d+$")


def inclusive_by_function(path):
    """{(object, name): inclusive} and the set of (object, name) whose
    calls in and out do not balance in a file that names each function
    once: those callgrind saw re-entered (names with a recursion level)
    and those that call one while it is active (an inner activation's
    call carries nothing: the outer call counts it)."""
    r = parse_callgrind(path)
    if r.errors:
        raise ValueError("%s: %s" % (path, r.errors[:3]))
    selfc = collections.Counter()
    for k, v in r.fn_self_key.items():
        selfc[(k[0], k[2])] += v
    inn, out, called = collections.Counter(), collections.Counter(), set()
    for a, b, _n, c in r.calls_key:
        caller, callee = (a[0], a[2]), (b[0], b[2])
        if caller == callee:
            continue
        inn[callee] += c
        out[caller] += c
        called.add(callee)
    res = {}
    for f in set(selfc) | set(inn) | set(out):
        res[f] = inn[f] if f in called else selfc[f] + out[f]
    reentered = {(o, LEVEL.sub("", n)) for (o, n) in res if LEVEL.search(n or "")}
    for a, b, _n, _c in r.calls_key:
        if LEVEL.search(b[2] or ""):
            reentered.add((a[0], LEVEL.sub("", a[2] or "")))
    return res, reentered


def by_name(incl, names):
    """Inclusive cost of each plain name in names (summed over objects)."""
    res = collections.Counter()
    for (_o, n), v in incl.items():
        if n in names:
            res[n] += v
    return res


if __name__ == "__main__":
    import sys
    if len(sys.argv) > 2 and sys.argv[1] == "present":
        # present CALLGRIND_FILE NAME...: the NAMEs that file gives a cost
        known = by_name(inclusive_by_function(sys.argv[2])[0], sys.argv[3:])
        print(" ".join(n for n in sys.argv[3:] if known.get(n)))
