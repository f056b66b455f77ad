#!/usr/bin/env python3
"""Reads the sources of the Valgrind tool (cycprof/tool/) or of the cycprof
command (cycprof/cli/, with --cli) and checks that their dependencies run
one way (docs/internals/architecture.md):

  - a module is A.c with its A.h (or a lone header); module A depends on
    module B when A.c or A.h has #include "B.h";
  - no two modules depend on each other, directly or round a circle;
  - a module depends on none of a higher folder (FLOORS, lowest first).

Usage: layering.py DIR [--cli] [--graph]
Prints each circle and each upward include; exits 1 if there is any.
--graph also prints every module's dependencies, lowest folder first."""
import os
import re
import sys

# The folders of each program, lowest first: a file may include headers of
# its own folder and of the folders before it, never of one after it. The
# command's main.c is in its top folder itself (".").
FLOORS = {
    "tool": ["base", "memory", "symbols", "determinism", "counting", "control", "output",
             "main"],
    "cli": ["util", "model", "read", "analyse", "write", "commands", "cargo", "."],
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def modules(src_dir):
    """{module: folder}, {module: [file paths]}."""
    folder_of, files_of = {}, {}
    for root, _dirs, names in os.walk(src_dir):
        for name in names:
            base, ext = os.path.splitext(name)
            if ext not in (".c", ".h"):
                continue
            path = os.path.join(root, name)
            folder = os.path.relpath(root, src_dir)
            if base in folder_of and folder_of[base] != folder:
                sys.exit("layering: %s.c and %s.h are in different folders (%s, %s)"
                         % (base, base, folder_of[base], folder))
            folder_of[base] = folder
            files_of.setdefault(base, []).append(path)
    return folder_of, files_of


def dependencies(folder_of, files_of):
    """{module: {module it depends on: the file that includes it}}."""
    deps = {}
    for mod, paths in files_of.items():
        deps[mod] = {}
        for path in sorted(paths):
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for inc in INCLUDE.findall(text):
                target = os.path.splitext(os.path.basename(inc))[0]
                if inc.endswith(".h") and target in folder_of and target != mod:
                    deps[mod].setdefault(target, os.path.basename(path))
    return deps


def circles(deps):
    """One circle per strongly connected component of two or more modules
    (Tarjan's algorithm, iterative)."""
    index, low, on_stack, stack, sccs = {}, {}, set(), [], []
    counter = [0]
    for start in sorted(deps):
        if start in index:
            continue
        work = [(start, iter(sorted(deps[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(deps[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                scc = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    scc.append(m)
                    if m == node:
                        break
                if len(scc) > 1:
                    sccs.append(sorted(scc))
    result = []
    for scc in sccs:
        # A shortest circle through the component's first module (BFS).
        members, first = set(scc), scc[0]
        prev, queue, found = {first: None}, [first], None
        while queue and found is None:
            nxt = []
            for m in queue:
                for d in sorted(deps[m]):
                    if d == first:
                        found = m
                        break
                    if d in members and d not in prev:
                        prev[d] = m
                        nxt.append(d)
                if found is not None:
                    break
            queue = nxt
        path, m = [], found
        while m is not None:
            path.append(m)
            m = prev[m]
        path.reverse()
        result.append((scc, path + [first]))
    return result


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        sys.exit(__doc__)
    floors = FLOORS["cli" if "--cli" in sys.argv[1:] else "tool"]
    folder_of, files_of = modules(args[0])
    deps = dependencies(folder_of, files_of)
    rank = {f: i for i, f in enumerate(floors)}
    failures = 0

    for scc, path in circles(deps):
        print("circle of %d modules (%s): %s"
              % (len(scc), " ".join(scc), " -> ".join(path)))
        failures += 1

    for mod in sorted(deps):
        for dep, via in sorted(deps[mod].items()):
            a, b = folder_of[mod], folder_of[dep]
            if a in rank and b in rank and rank[b] > rank[a]:
                print("upward include: %s/%s includes %s.h of %s/, a higher folder"
                      % (a, via, dep, b))
                failures += 1

    for mod in sorted(folder_of):
        if folder_of[mod] not in rank:
            print("module %s is in folder '%s', which is not one of the layers %s"
                  % (mod, folder_of[mod], " < ".join(floors)))
            failures += 1

    if "--graph" in sys.argv[2:]:
        order = sorted(deps, key=lambda m: (rank.get(folder_of[m], -1), folder_of[m], m))
        for mod in order:
            print("%s/%s: %s" % (folder_of[mod], mod, " ".join(sorted(deps[mod]))))
    edges = sum(len(d) for d in deps.values())
    print("%d modules, %d dependencies, %d problems" % (len(deps), edges, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
