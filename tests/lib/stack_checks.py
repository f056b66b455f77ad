"""Checks of the stack-event programs (tests/progs), reading the tool's pprof file
with `go tool pprof` and its callgrind file with the suite's own reader. Expected
numbers come from cachegrind (per-function self Ir) and from each program's
structure; never from the tool.

Usage: python3 stack_checks.py CHECK ARGS...  (see the functions below)
"""
import collections
import re
import sys

from inclusive import inclusive_by_function
from cyc import (Checker, cg_functions, parse_callgrind, pprof_raw, pprof_traces,
                 pprof, run, norm_fn, callgrind_annotate)

C = Checker()


def nf(name):
    """Normalise a frame/function name for matching: drop ' (inline)', a C++
    parameter list, a Rust hash suffix."""
    n = re.sub(r" \(inline\)$", "", name.strip())
    n = re.sub(r"::h[0-9a-f]{16}$", "", n)
    if not n.startswith("<") and not n.startswith("("):
        n = re.sub(r"\((?:[^()]|\([^()]*\))*\)( const)?$", "", n)
    return n


def is_fn(frame, name):
    n = nf(frame)
    return n == name or n.endswith("::" + name)


class Prof:
    """The pprof profile as read by `go tool pprof -raw`."""

    def __init__(self, pb):
        self.pb = pb
        self.types, raw = pprof_raw(pb)
        self.samples = []
        for s in raw:
            self.samples.append((s.value, [nf(f) for f in s.symframes], s.labels,
                                 [nf(f) for f in s.frames]))
        self.total = sum(s[0] for s in self.samples)

    def with_leaf(self, name):
        return [s for s in self.samples if s[1] and is_fn(s[1][0], name)]

    def containing(self, name):
        return [s for s in self.samples if any(is_fn(f, name) for f in s[1])]

    def distinct_stacks(self):
        return len(set(tuple(s[1]) for s in self.samples))

    def max_depth(self):
        return max((len(s[1]) for s in self.samples), default=0)


def prefix_is(frames, names):
    """frames (leaf first) start with the functions `names` (leaf first)."""
    return len(frames) >= len(names) and all(is_fn(f, n) for f, n in zip(frames, names))


def show(frames, n=8):
    return "<-".join(frames[:n]) + ("<-..." if len(frames) > n else "")


class Oracle:
    def __init__(self, cgo):
        self.d, self.total = cg_functions(cgo)

    def self_of(self, name):
        v = sum(c for k, c in self.d.items() if is_fn(k, name))
        if v == 0:
            C.fail("oracle: cachegrind has no cost for %s (test program problem)" % name)
        return v


def expect_all_under(p, leaf, stack, want, what=None):
    """All samples with leaf `leaf` have stack prefix `stack` (leaf first) and sum to `want`."""
    what = what or "%s under %s" % (leaf, "<-".join(stack))
    ss = p.with_leaf(leaf)
    bad = [s for s in ss if not prefix_is(s[1], stack)]
    got = sum(s[0] for s in ss if prefix_is(s[1], stack))
    C.true(not bad, "%s: %d samples of %s on other stacks, e.g. %s" % (
        what, len(bad), leaf, [(s[0], show(s[1])) for s in bad[:2]]))
    C.eq("%s: instructions" % what, want, got)


# ---------------------------------------------------------------- checks

def check_split(pb, cgfile, cgo):
    p, o = Prof(pb), Oracle(cgo)
    L = o.self_of("leaf")
    C.true(L % 400 == 0, "oracle: leaf's self cost %d is not a multiple of 400 calls" % L)
    expect_all_under(p, "a", ["a", "main"], o.self_of("a"))
    expect_all_under(p, "b", ["b", "main"], o.self_of("b"))
    via_a = sum(s[0] for s in p.with_leaf("leaf") if prefix_is(s[1], ["leaf", "a", "main"]))
    via_b = sum(s[0] for s in p.with_leaf("leaf") if prefix_is(s[1], ["leaf", "b", "main"]))
    C.eq("pprof: leaf under main->a->leaf (1/4 of leaf)", L // 4, via_a)
    C.eq("pprof: leaf under main->b->leaf (3/4 of leaf)", 3 * L // 4, via_b)
    C.eq("pprof: all of leaf's cost", L, sum(s[0] for s in p.with_leaf("leaf")))
    # callgrind file: the inclusive cost on each call edge (the cost line after calls=)
    rc, out, err, warns = callgrind_annotate(cgfile, "--tree=caller")
    C.true(rc == 0 and not warns, "callgrind_annotate --tree=caller problems: rc=%d %s" % (rc, warns[:2]))
    r = parse_callgrind(cgfile)
    ec, n = collections.Counter(), collections.Counter()
    for a, b, cnt, cost in r.calls:
        ec[(a, b)] += cost
        n[(a, b)] += cnt
    C.eq("callgrind file: a->leaf inclusive", L // 4, ec[("a", "leaf")])
    C.eq("callgrind file: b->leaf inclusive", 3 * L // 4, ec[("b", "leaf")])
    C.eq("callgrind file: main->a inclusive", o.self_of("a") + L // 4, ec[("main", "a")])
    C.eq("callgrind file: main->b inclusive", o.self_of("b") + 3 * L // 4, ec[("main", "b")])
    C.eq("calls= count a->leaf", 100, n[("a", "leaf")])
    C.eq("calls= count b->leaf", 300, n[("b", "leaf")])
    C.eq("calls= count main->a", 100, n[("main", "a")])


def check_recursion(pb, cgo, mode, depth, reps):
    """mode fold|nofold. Program: recurse REPS (rec depth DEPTH, ping/pong depth DEPTH)."""
    p, o = Prof(pb), Oracle(cgo)
    depth, reps = int(depth), int(reps)
    rw, pw, qw = o.self_of("rec_work"), o.self_of("ping_work"), o.self_of("pong_work")
    rec_incl = o.self_of("rec") + rw
    mut_incl = o.self_of("ping") + o.self_of("pong") + pw + qw
    C.eq("instructions with rec on the stack = rec + rec_work", rec_incl,
         sum(s[0] for s in p.containing("rec")))
    C.eq("instructions with ping on the stack = ping + pong + their work", mut_incl,
         sum(s[0] for s in p.containing("ping")))
    for s in p.samples:
        if any(is_fn(f, "rec") for f in s[1]):
            i = max(k for k, f in enumerate(s[1]) if is_fn(f, "rec"))
            if not (i + 1 < len(s[1]) and is_fn(s[1][i + 1], "main")):
                C.fail("outermost rec not called from main: %s" % show(s[1], 30))
                break
    # pong is active from its first call to its last return: everything of
    # the mutual recursion but the outermost ping's own code and work (all
    # DEPTH/2 ping calls per repetition run the same code).
    C.eq("instructions with pong on the stack = all but the outermost ping's own",
         mut_incl - (o.self_of("ping") + pw) // (depth // 2),
         sum(s[0] for s in p.containing("pong")))
    if mode == "fold":
        # Direct recursion stays in one frame; ping, re-entered from pong,
        # gets one re-entry frame, and pong called from it goes back to its
        # own (docs/attribution.md).
        for name, most in (("rec", 1), ("ping", 2), ("pong", 1)):
            worst = max((sum(1 for f in s[1] if is_fn(f, name)) for s in p.samples), default=0)
            C.eq("fold: max number of %s frames in one stack" % name, most, worst)
        expect_all_under(p, "rec_work", ["rec_work", "rec", "main"], rw)
        for leaf, inner, want in (("ping_work", "ping", pw), ("pong_work", "pong", qw)):
            got = 0
            for s in p.with_leaf(leaf):
                chain = [f for f in s[1][1:]]
                k = next((i for i, f in enumerate(chain) if is_fn(f, "main")), None)
                ok = (k is not None and k >= 1 and is_fn(chain[0], inner)
                      and all(is_fn(f, "ping") or is_fn(f, "pong") for f in chain[:k])
                      and is_fn(chain[k - 1], "ping"))
                if not ok:
                    C.fail("fold: %s on an unexpected stack %s" % (leaf, show(s[1], 30)))
                else:
                    got += s[0]
            C.eq("fold: %s under %s, ping/pong frames, main: instructions" % (leaf, inner), want, got)
    else:
        worst = max((sum(1 for f in s[1] if is_fn(f, "rec")) for s in p.samples), default=0)
        C.eq("no fold: max number of rec frames in one stack (recursion depth)", depth, worst)
        C.true(rw % depth == 0, "oracle: rec_work cost %d not divisible by depth" % rw)
        per = collections.Counter()
        for s in p.with_leaf("rec_work"):
            k = sum(1 for f in s[1] if is_fn(f, "rec"))
            if not prefix_is(s[1], ["rec_work"] + ["rec"] * k + ["main"]):
                C.fail("no fold: rec_work on an unexpected stack %s" % show(s[1], 30))
            per[k] += s[0]
        C.eq("no fold: rec_work cost per recursion depth 1..%d" % depth,
             {k: rw // depth for k in range(1, depth + 1)}, dict(per))
        chain = 0
        for s in p.samples:
            c = best = 0
            for f in s[1]:
                if is_fn(f, "ping") or is_fn(f, "pong"):
                    c += 1
                    best = max(best, c)
                else:
                    c = 0
            chain = max(chain, best)
        C.eq("no fold: longest ping/pong chain", depth, chain)


def check_tailcall(pb, cgo):
    p, o = Prof(pb), Oracle(cgo)
    expect_all_under(p, "tb", ["tb", "ta", "main"], o.self_of("tb"), "tail-called tb under main->ta->tb")
    expect_all_under(p, "ta", ["ta", "main"], o.self_of("ta"))
    expect_all_under(p, "tc", ["tc", "main"], o.self_of("tc"), "tc (called after ta returned via tb)")
    bad = [s for s in p.with_leaf("main") if len(s[1]) > 1 and (is_fn(s[1][1], "ta") or is_fn(s[1][1], "tb"))]
    C.true(not bad, "main's own cost on a stack below ta/tb: %s" % [show(s[1]) for s in bad[:2]])


RESOLVER = re.compile(r"_dl_runtime_resolve|_dl_fixup")


def check_lazy_binding(p1, p2, cgfile1, caller, n1, n2):
    """What holds however libfn is reached through its lazily bound PLT
    entry (p1 with n1 calls, p2 with n2): no PLT stub frame; the resolver
    runs once, whatever the number of calls; the callgrind file counts
    the n1 calls from caller."""
    for p in (p1, p2):
        plt = [s for s in p.samples if any("@plt" in f or f in (".plt", ".plt.got", ".plt.sec") for f in s[1])]
        C.true(not plt, "PLT stub frames in stacks: %s" % [show(s[1]) for s in plt[:2]])
    r1, r2 = (sum(s[0] for s in p.samples if any(RESOLVER.match(f) for f in s[1]))
              for p in (p1, p2))
    C.true(r1 > 0, "no lazy-binding resolver (_dl_runtime_resolve/_dl_fixup) cost in the profile")
    C.eq("resolver cost with %d calls vs %d calls (must not grow with calls)" % (n2, n1), r1, r2)
    r = parse_callgrind(cgfile1)
    C.eq("callgrind calls= count %s->libfn" % caller, n1,
         sum(c for a, b, c, cost in r.calls if a == caller and b == "libfn"))


def check_plt(pb1, pb2, cgfile1, cgo1, n1, n2):
    p1, p2, o1 = Prof(pb1), Prof(pb2), Oracle(cgo1)
    expect_all_under(p1, "libfn", ["libfn", "main"], o1.self_of("libfn"), "libfn under main->libfn")
    for p in (p1, p2):
        callers = collections.Counter()
        for s in p.containing("libfn"):
            i = next(k for k, f in enumerate(s[1]) if is_fn(f, "libfn"))
            callers[s[1][i + 1] if i + 1 < len(s[1]) else "<root>"] += s[0]
        C.true(set(callers) == {"main"}, "libfn's caller is not always main: %s" % dict(callers))
    check_lazy_binding(p1, p2, cgfile1, "main", int(n1), int(n2))


def check_plt_tail(pb1, pb2, cgfile1, cgo1, n1, n2):
    """libfn reached by a tail jump through a lazily bound PLT entry: the
    resolver's frame is replaced by libfn, as after a call (main->via->libfn,
    never ...->_dl_runtime_resolve->libfn), and both files agree on via."""
    p1, p2, o1 = Prof(pb1), Prof(pb2), Oracle(cgo1)
    expect_all_under(p1, "libfn", ["libfn", "via", "main"], o1.self_of("libfn"))
    for p in (p1, p2):
        bad = [s for s in p.containing("libfn") if any(RESOLVER.match(f) for f in s[1])]
        C.true(not bad, "libfn under the resolver: %s" % [(s[0], show(s[1])) for s in bad[:2]])
    check_lazy_binding(p1, p2, cgfile1, "via", int(n1), int(n2))
    incl, _ = inclusive_by_function(cgfile1)
    via_file = sum(v for (obj, name), v in incl.items() if name == "via")
    via_cum = sum(s[0] for s in p1.containing("via"))
    C.eq("via: cum in pprof vs inclusive in the callgrind file", via_file, via_cum)


def check_jump_out(pb_many, pb_few, cgo_many, after, catcher, extra_stack=""):
    """longjmp / exceptions / panics: work after the jump/catch is under
    main->catcher->after; the number of distinct stacks does not grow with repetitions."""
    p, q, o = Prof(pb_many), Prof(pb_few), Oracle(cgo_many)
    expect_all_under(p, after, [after, catcher, "main"], o.self_of(after))
    C.eq("distinct stacks: many repetitions vs few (bounded)", q.distinct_stacks(), p.distinct_stacks())
    C.true(p.max_depth() < 200, "a stack %d frames deep" % p.max_depth())
    for name in extra_stack.split(",") if extra_stack else []:
        pass


def check_chain(pb, cgo, leaf, chain):
    p, o = Prof(pb), Oracle(cgo)
    stack = chain.split(",")
    expect_all_under(p, leaf, stack, o.self_of(leaf))


def check_signal(pb_many, pb_few, cgo):
    p, q, o = Prof(pb_many), Prof(pb_few), Oracle(cgo)
    for work, handler, victim, signo in (("usr1_work", "on_usr1", "victim_usr1", 10),
                                         ("alrm_work", "on_alrm", "victim_alrm", 14),
                                         ("usr2_work", "on_usr2", "jumper", 12)):
        ss = p.with_leaf(work)
        want = o.self_of(work)
        C.eq("%s: instructions" % work, want, sum(s[0] for s in ss))
        for s in ss:
            f = s[1]
            ok = (len(f) > 3 and is_fn(f[1], handler) and f[2].startswith("<signal"))
            if ok:
                nums = re.findall(r"\d+", f[2])
                ok = not nums or int(nums[0]) == signo
            if ok:
                rest = f[3:]
                iv = [k for k, x in enumerate(rest) if is_fn(x, victim)]
                ok = bool(iv) and iv[0] + 1 < len(rest) and is_fn(rest[iv[0] + 1], "main")
            if not ok:
                C.fail("%s: expected stack main->%s->...-><signal %d>->%s->%s, got %s" % (
                    work, victim, signo, handler, work, show(f[::-1][-12:], 12)))
                break
    expect_all_under(p, "after_usr1", ["after_usr1", "victim_usr1", "main"], o.self_of("after_usr1"),
                     "work after the SIGUSR1 handler returned")
    expect_all_under(p, "after_alrm", ["after_alrm", "victim_alrm", "main"], o.self_of("after_alrm"),
                     "work after the SIGALRM handler returned")
    expect_all_under(p, "jumper_after", ["jumper_after", "jumper", "main"], o.self_of("jumper_after"),
                     "work after siglongjmp out of the handler")
    C.eq("distinct stacks: 1000 vs 100 handler siglongjmps (bounded)", q.distinct_stacks(), p.distinct_stacks())


def check_threads(pb, cgo):
    p, o = Prof(pb), Oracle(cgo)
    tid = {}
    for fn, worker in (("spin_a", "worker_a"), ("spin_b", "worker_b"), ("spin_m", "main_work")):
        ss = p.with_leaf(fn)
        C.eq("%s instructions" % fn, o.self_of(fn), sum(s[0] for s in ss))
        labs = set()
        for s in ss:
            labs.add(tuple(s[2].get("thread", [])))
            if not prefix_is(s[1], [fn, worker]):
                C.fail("%s not under %s: %s" % (fn, worker, show(s[1])))
                break
        C.true(len(labs) == 1 and labs != {()}, "%s: samples should carry one thread label, got %s" % (fn, labs))
        tid[worker] = labs
    for w in ("worker_a", "worker_b"):
        bad = [s for s in p.containing(w) if any(is_fn(f, "main") for f in s[1])]
        C.true(not bad, "%s's stacks contain main: %s" % (w, [show(s[1]) for s in bad[:2]]))
    C.true(len({tuple(v) for v in tid.values()}) == 3, "threads not told apart by label: %s" % tid)
    nolabel = [s for s in p.samples if "thread" not in s[2]]
    C.true(not nolabel, "%d samples without a thread label" % len(nolabel))
    # the real reader's tag filter: -tagfocus on worker_a's thread keeps only its stacks
    for w, other in (("worker_a", "worker_b"), ("worker_b", "worker_a")):
        vals = list(tid[w])[0] if tid[w] else ()
        if not vals:
            continue
        tr = pprof_traces(pb, "-tagfocus=thread=%s" % vals[0])
        names = {nf(f) for v, fr, lab in tr for f in fr}
        C.true(any(is_fn(n, w) for n in names), "-tagfocus=thread=%s lost %s" % (vals[0], w))
        C.true(not any(is_fn(n, other) or is_fn(n, "main") for n in names),
               "-tagfocus=thread=%s (%s) still shows %s/main" % (vals[0], w, other))


def check_fork(dirpath, rolefile, parent_want, child_want, mode):
    import os
    roles = dict(l.split() for l in open(rolefile) if l.strip())
    for role in ("parent", "child"):
        pid = roles.get(role)
        pid = pid and str(int(pid))   # written zero-padded (forkexec.c)
        base = os.path.join(dirpath, "cp.%s" % pid)
        if not os.path.exists(base):
            C.fail("%s (pid %s): no callgrind file %s (dir has %s)" % (role, pid, base, sorted(os.listdir(dirpath))))
            continue
        if not os.path.exists(base + ".pb.gz"):
            C.fail("%s (pid %s): no pprof file %s.pb.gz" % (role, pid, base))
            continue
        rc, out, err, warns = callgrind_annotate(base)
        C.true(rc == 0 and not warns, "%s: callgrind_annotate problems: %s" % (role, warns[:2]))
        r = parse_callgrind(base)
        want = int(parent_want if role == "parent" else child_want)
        C.eq("%s: callgrind file total vs lackey (same process)" % role, want, r.self_total)
        p = Prof(base + ".pb.gz")
        C.eq("%s: pprof total vs lackey" % role, want, p.total)
        if mode == "fork":
            mine, other = ("parent_work", "child_work") if role == "parent" else ("child_work", "parent_work")
            C.true(p.with_leaf(mine), "%s: no %s samples" % (role, mine))
            C.true(not p.with_leaf(other), "%s: has %s samples" % (role, other))
        elif role == "child":
            cmd = [l for l in open(base, errors="replace").read(4096).splitlines() if l.startswith("cmd:")]
            C.true(not cmd or "echo" in cmd[0], "exec'd child's cmd: line is %s" % cmd)


def check_bounded(pb_many, pb_few, cgo, pairs):
    """pairs: 'leaf:caller,leaf2:caller2' that must hold exactly."""
    p, q, o = Prof(pb_many), Prof(pb_few), Oracle(cgo)
    C.eq("distinct stacks: many vs few repetitions (bounded)", q.distinct_stacks(), p.distinct_stacks())
    C.true(p.max_depth() < 64, "a stack %d frames deep" % p.max_depth())
    for pair in filter(None, pairs.split(",")):
        leaf, caller = pair.split(":")
        expect_all_under(p, leaf, [leaf, caller], o.self_of(leaf))


def check_inline(pb):
    tr = pprof_traces(pb)
    found = False
    for v, fr, lab in tr:
        names = [f.strip() for f in fr]
        for i, f in enumerate(names):
            if f.endswith("(inline)") and nf(f) in ("mix", "step"):
                below = [nf(x) for x in names[i + 1:]]
                if "hot" in below:
                    found = True
    C.true(found, "no '(inline)' frame of mix/step above hot in -traces")


def main():
    fn = globals()["check_" + sys.argv[1]]
    try:
        fn(*sys.argv[2:])
    except Exception as e:  # a reader failing is a test failure with its message
        C.fail("%s: %s" % (type(e).__name__, str(e)[:400]))
    C.done()


if __name__ == "__main__":
    main()
