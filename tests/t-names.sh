# H. Names agree across formats: code without a symbol is "<object>+0x<offset>"
#    in the callgrind file and in the pprof profile alike, with the same self and
#    inclusive cost (go tool pprof -top flat and cum), and its offset is where
#    nm and objdump -d put that code in its object.
# shellcheck shell=bash

check_unnamed_agree() { # B LABEL
    pycheck "$1" "$2" <<'PY' || true
import collections, sys
from cyc import *
from inclusive import inclusive_by_function
C = Checker()
path, label = sys.argv[1], sys.argv[2]
r = parse_callgrind(path)
selfc, incl = collections.Counter(), collections.Counter()
for (_o, _f, n), v in r.fn_self_key.items():
    selfc[n] += v
for (_o, n), v in inclusive_by_function(path)[0].items():
    incl[n] += v
top = pprof_top(path + ".pb.gz")
unnamed = sorted(n for n in set(selfc) | set(top) if is_unnamed_code(n))
C.true(len(unnamed) > 0, "%s: no code without a symbol in either file" % label)
C.true(top.get("???", (0, 0))[0] == 0, "%s: pprof still has a '???' function (flat %d)" % (
    label, top.get("???", (0, 0))[0]))
bad = [(n, (selfc[n], incl[n]), top.get(n)) for n in unnamed if top.get(n) != (selfc[n], incl[n])]
C.true(not bad, "%s: %d of %d unnamed functions differ between the callgrind file (self, inclusive) "
       "and pprof (flat, cum), e.g. %s" % (label, len(bad), len(unnamed), bad[:3]))
C.done()
PY
}

t_pprof_unnamed_names() {
    need_tool
    need_prog mutual-stripped
    local b
    b=$(shared_profile -- "$BIN/mutual-stripped")
    check_run "$b"
    check_unnamed_agree "$b" mutual-stripped
    RUN_ENV=("${PY_ENV[@]}")
    b=$(shared_profile -- /usr/bin/python3 -S -s "$BIN/pyrec.py")
    check_run "$b"
    check_unnamed_agree "$b" python3
}
register pprof-unnamed-names t_pprof_unnamed_names

# The offset in an unnamed function's name is independent of the tool: strip
# only drops the symbol table, so the function of mutual-stripped at each
# offset is the symbol nm gives that value in mutual-syms.  Each function of
# mutual.c must be "mutual-stripped+0x<its nm value>" in both files, with the
# self cost cachegrind gives that function in mutual-syms (a frame's unnamed
# code is named after the frame's entry, so a function's whole code is one
# name).  Every other name of unnamed code in the run (PLT stubs, ld.so's
# entry, _init) must be the address of an instruction of its object in
# objdump -d, and its object's file name.
t_unnamed_names_where() {
    need_tool
    need_prog mutual-syms mutual-stripped
    local b cgo
    b=$(shared_profile -- "$BIN/mutual-stripped")
    check_run "$b"
    cgo=$(cachegrind_out "$BIN/mutual-syms") || fail "cachegrind failed on mutual-syms"
    nm --defined-only "$BIN/mutual-syms" >syms || fail "nm failed on mutual-syms"
    pycheck "$b" "$cgo" syms <<'PY' || true
import os, re, subprocess, sys
from cyc import *
C = Checker()
b, cgo, symfile = sys.argv[1:4]
FUNCS = ["main", "A", "C", "P", "Q", "R", "work", "sort_some", "by_value"]
syms = {}
for line in open(symfile):
    v, t, n = line.split()
    if t in "Tt":
        syms[n] = int(v, 16)
C.true(all(f in syms for f in FUNCS), "nm of mutual-syms lacks some of %s" % FUNCS)
cg_self = cg_functions(cgo)[0]
r = parse_callgrind(b)
cg_by_name, obj_of = {}, {}
for (o, _f, n), v in r.fn_self_key.items():
    cg_by_name[n] = cg_by_name.get(n, 0) + v
    obj_of.setdefault(n, set()).add(o)
top = pprof_top(b + ".pb.gz")
for f in FUNCS:
    if f not in syms:
        continue
    name = "mutual-stripped+0x%x" % syms[f]
    C.true(name in cg_by_name, "callgrind file: no function %s (%s in nm of mutual-syms)" % (name, f))
    C.eq("callgrind file: self cost of %s (cachegrind's %s in mutual-syms)" % (name, f),
         cg_self[f], cg_by_name.get(name))
    C.eq("pprof: flat cost of %s (cachegrind's %s in mutual-syms)" % (name, f),
         cg_self[f], top.get(name, (None,))[0])
# every unnamed name: object file name + the address of one of its instructions
insns = {}
def instructions(path):
    if path not in insns:
        out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", path],
                             capture_output=True, text=True).stdout
        insns[path] = {int(m.group(1), 16) for m in re.finditer(r"^ *([0-9a-f]+):", out, re.M)}
    return insns[path]
unnamed = sorted(n for n in set(cg_by_name) | set(top) if is_unnamed_code(n))
C.true(len(unnamed) > len(FUNCS), "only %d unnamed functions in the run" % len(unnamed))
for n in unnamed:
    m = re.fullmatch(r"(.+)\+0x([0-9a-f]+)", n)
    if not C.true(m, "%s: not named <object>+0x<offset> (every code of the run is in an object)" % n):
        continue
    objs = obj_of.get(n, set())
    if not C.true(len(objs) == 1, "%s: in objects %s of the callgrind file, not one" % (n, sorted(objs))):
        continue
    o = next(iter(objs))
    C.eq("%s: object file name (ob=%s)" % (n, o), os.path.basename(o), m.group(1))
    C.true(int(m.group(2), 16) in instructions(o),
           "%s: no instruction at 0x%s in objdump -d %s" % (n, m.group(2), o))
C.done()
PY
}
register unnamed-names-where t_unnamed_names_where
