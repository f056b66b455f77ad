#!/usr/bin/env python3
"""Finds what the built objects export and nothing else uses, and what the
headers declare and nothing defines.

  - An exported (global) function or variable of an object that no other
    object of its world refers to (nm: U) is dead, or belongs to its own
    file alone and should be static.  The relocations of its own object
    source tells which: "only X.c uses it" or "nothing uses it".  A name
    that another source's code (comments aside) names is used by code
    this build leaves out (an #if of another architecture), not dead.
  - A prototype or extern variable of a header (ctags) that no object of
    its world defines is a promise nothing keeps.

Worlds, each checked on its own (OBJDIR is a build of cycprof):
  tool   OBJDIR/cycprof/tool/**/*-PLATFORM.o, for each PLATFORM built;
         Valgrind's core refers to the names it prefixes with vgPlain_
         (VG_ in a header)
  cli    OBJDIR/cycprof/cli/**/*.o (cycprof and cargo-cycprof), with the
         generated protobuf code's references; the fuzz harnesses
         (SRCDIR/tests/fuzz/*.c, not built by make) count as users

Usage: exports.py OBJDIR SRCDIR
Prints one line per finding; exits 1 if there is any, 2 if OBJDIR has no
objects.  Without ctags the header check is left out (a line says so)."""
import glob
import os
import re
import shutil
import subprocess
import sys

DEFINED = set("TDBRGSVWi")   # nm's global definitions (upper case)
IDENT = re.compile(r"\b[A-Za-z_]\w*\b")


def nm(obj):
    """(defined globals, undefined names) of one object."""
    out = subprocess.run(["nm", obj], capture_output=True, text=True,
                         check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1] in DEFINED:
            defined.add(parts[2])
    return defined, undefined


COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def code_of(path):
    """The file's text without its comments."""
    with open(path, encoding="utf-8", errors="replace") as f:
        return COMMENT.sub(" ", f.read())


def uses(path, sym):
    """How often the code of path names sym."""
    return len(re.findall(r"\b%s\b" % re.escape(sym), code_of(path)))


def source_of(obj, srcdir, objdir):
    """The .c a build object came from: X-PLATFORM.o, PROG-X.o -> X.c."""
    rel = os.path.relpath(obj, objdir)
    folder, name = os.path.split(rel)
    stem = name[:-2]
    for cand in (stem, re.sub(r"^[a-z_]+?-", "", stem),
                 re.sub(r"-[a-z0-9]+-linux$", "", stem)):
        path = os.path.join(srcdir, folder, cand + ".c")
        if os.path.exists(path):
            return path
    return None


def declared(headers):
    """{name: header} of prototypes and extern variables (ctags)."""
    if not headers:
        return {}
    out = subprocess.run(["ctags", "-x", "--c-kinds=px", "--language-force=C"]
                         + sorted(headers), capture_output=True, text=True,
                         check=True).stdout
    decl = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 4:
            decl.setdefault(parts[0], parts[3])
    return decl


def check_world(name, objs, srcdir, objdir, extra_users, headers, is_core):
    problems = []
    sources = {source_of(o, srcdir, objdir) for o in objs} - {None}
    defs, refs = {}, set(extra_users)
    for obj in sorted(objs):
        d, u = nm(obj)
        refs |= u
        for sym in d:
            defs.setdefault(sym, []).append(obj)
    for sym in sorted(defs):
        if sym in refs or is_core(sym):
            continue
        obj = defs[sym][0]
        src = source_of(obj, srcdir, objdir)
        shown = os.path.relpath(src, srcdir) if src else os.path.relpath(obj, objdir)
        if src is None:          # generated code (protobuf): not ours
            continue
        if any(uses(other, sym) for other in sources if other != src):
            continue             # used in code this build leaves out (#if)
        if uses(src, sym) > 1:
            problems.append("%s: %s is exported but only %s uses it: make it static"
                            % (name, sym, shown))
        else:
            problems.append("%s: %s is exported by %s and nothing uses it"
                            % (name, sym, shown))
    if headers is not None:
        for sym, hdr in sorted(declared(headers).items()):
            if sym not in defs and not is_core(sym):
                problems.append("%s: %s is declared in %s and defined nowhere"
                                % (name, sym, os.path.relpath(hdr, srcdir)))
    return problems


def fuzz_users(srcdir):
    users = set()
    for path in glob.glob(os.path.join(srcdir, "tests", "fuzz", "*.c")):
        with open(path, encoding="utf-8", errors="replace") as f:
            users |= set(IDENT.findall(f.read()))
    return users


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    objdir, srcdir = (os.path.abspath(a) for a in sys.argv[1:])
    have_ctags = shutil.which("ctags") is not None
    if not have_ctags:
        print("no ctags: headers' prototypes left unchecked")

    def headers_of(folder):
        if not have_ctags:
            return None
        return glob.glob(os.path.join(srcdir, folder, "**", "*.h"), recursive=True)

    problems, worlds = [], 0
    tool_objs = glob.glob(os.path.join(objdir, "cycprof", "tool", "**", "*.o"),
                          recursive=True)
    platforms = sorted({m.group(1) for m in
                        (re.search(r"-([a-z0-9]+-linux)\.o$", o) for o in tool_objs) if m})
    for plat in platforms:
        objs = [o for o in tool_objs if o.endswith("-%s.o" % plat)]
        # The one-file twin of a second platform declares nothing it uses.
        hdrs = headers_of(os.path.join("cycprof", "tool")) if len(objs) > 1 else None
        problems += check_world("tool " + plat, objs, srcdir, objdir, set(), hdrs,
                                lambda s: s.startswith("vgPlain_") or s == "VG_")
        worlds += 1
    cli_objs = glob.glob(os.path.join(objdir, "cycprof", "cli", "**", "*.o"),
                         recursive=True)
    if cli_objs:
        gen = glob.glob(os.path.join(objdir, "cycprof", "proto", "*.o"))
        users = fuzz_users(srcdir)
        for g in gen:
            users |= nm(g)[1]
        problems += check_world("cli", cli_objs, srcdir, objdir, users,
                                headers_of(os.path.join("cycprof", "cli")),
                                lambda s: s == "main")
        worlds += 1
    if worlds == 0:
        print("no objects under %s/cycprof: build first" % objdir)
        return 2
    for p in problems:
        print(p)
    print("%d worlds, %d problems" % (worlds, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
