#!/usr/bin/env python3
"""Writes a synthetic stacks dump with N distinct stacks, to measure
`cycprof pprof` speed and memory (docs/internals/stacks-format.md).

usage: gen_big_dump.py [--samples-per-node K] N [OUT]   (OUT: stdout)

Shape: 5,000 functions, 50,000 locations (1 in 10 with an inlined frame),
N + 2 nodes in two threads, and one sample per non-root node, each at its own
node, so every sample is a distinct stack. With --samples-per-node K each
node gets K samples (with different leaves): the same tree, K times the
samples, to show that memory does not grow with the sample count. A node extends its predecessor half
the time and otherwise hangs off a random earlier node, which gives stacks
about 15-30 frames deep. Deterministic (fixed seed)."""
import argparse
import random
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples-per-node", type=int, default=1)
    ap.add_argument("n", type=int)
    ap.add_argument("out", nargs="?")
    args = ap.parse_args()
    n, k = args.n, args.samples_per_node
    out = open(args.out, "w") if args.out else sys.stdout
    rnd = random.Random(1)
    nfn, nloc = 5000, 50000
    w = []
    w.append("cycprof-stacks\t1\ncmd\t./bench --size %d\npid\t4242\n"
             "duration_ns\t123456789\n" % n)
    counts = [rnd.randint(1, 1000) for _ in range(n)]
    w.append("total\t%d\n" % (k * sum(counts)))
    w.append("map\t1\t400000\t4000000\t0\t/nonexistent/bench\n")
    for f in range(1, nfn + 1):
        w.append("fn\t%d\t%d\tns::func_%d(int)\t_ZN2ns7func_%diE\tsrc/file_%d.cc\n"
                 % (f, f, f, f, f % 300))
    for l in range(1, nloc + 1):
        fn = rnd.randint(1, nfn)
        lines = "%d:%d" % (fn, l % 977)
        if l % 10 == 0:
            lines = "%d:%d,%s" % (rnd.randint(1, nfn), l % 311, lines)
        w.append("loc\t%d\t1\t%x\t%s\n" % (l, 0x400000 + 16 * l, lines))
    out.write("".join(w))
    w = []
    # Two roots (threads 1 and 2), then N nodes.
    w.append("node\t1\t0\t0\nnode\t2\t0\t0\n")
    thread = [0, 1, 2]
    for i in range(3, n + 3):
        parent = i - 1 if rnd.random() < 0.5 else rnd.randint(1, i - 1)
        thread.append(thread[parent])
        w.append("node\t%d\t%d\t%d\n" % (i, parent, rnd.randint(1, nloc)))
        if len(w) > 100000:
            out.write("".join(w))
            w = []
    for _ in range(k):
        for i in range(3, n + 3):
            w.append("sample\t%d\t%d\t%d\t%d\n"
                     % (i, rnd.randint(1, nloc), thread[i], counts[i - 3]))
            if len(w) > 100000:
                out.write("".join(w))
                w = []
    w.append("end\t%d\n" % (n * k))
    out.write("".join(w))
    out.close()


if __name__ == "__main__":
    main()
