"""Readers and checks for the cycprof test suite.

The oracles' own files are read here, never their annotate scripts' display
(which changes between Valgrind releases): lackey's and the tool's log lines,
cachegrind's cachegrind.out file and the callgrind format (both documented
text formats), and pprof files through `go tool pprof`. callgrind_annotate is
only run to show that it reads the tool's files cleanly. Nothing here knows what the
tool is expected to print: expectations come from oracles and from the
structure of the test programs.
"""
import collections
import json
import os
import re
import subprocess
import sys

# ---------------------------------------------------------------- checker


class Checker:
    """Collects failed checks; prints them and exits 1 at done()."""

    def __init__(self):
        self.fails = []

    def fail(self, msg):
        self.fails.append(msg)

    def eq(self, what, expected, got):
        if expected != got:
            self.fail("%s: expected %r, got %r" % (what, expected, got))
            return False
        return True

    def true(self, cond, msg):
        if not cond:
            self.fail(msg)
        return bool(cond)

    def done(self):
        for f in self.fails:
            print("CHECK FAILED: " + f)
        # the first failure is what the runner shows on the FAIL line
        if self.fails:
            reason = self.fails[0]
            if len(self.fails) > 1:
                reason += " (+%d more, see log)" % (len(self.fails) - 1)
            rf = os.environ.get("REASON_FILE")
            if rf:
                with open(rf, "a") as f:
                    f.write(reason + "\n")
            sys.exit(1)
        sys.exit(0)


def run(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, errors="replace", **kw)
    return p.returncode, p.stdout, p.stderr


def num(s):
    return int(s.replace(",", ""))


# ---------------------------------------------------------------- valgrind logs

# CYCPROF_TESTS_SKEW=1 makes every oracle number off by one (lackey totals, and
# cachegrind's per-function Ir): used once to prove that each check can fail.
SKEW = int(os.environ.get("CYCPROF_TESTS_SKEW", "0") or 0)


def lackey_total(log):
    """'==N==   guest instrs:  1,234' from a lackey log (first process in the log)."""
    with open(log, errors="replace") as f:
        for line in f:
            m = re.match(r"^==\d+==\s+guest instrs:\s+([\d,]+)\s*$", line)
            if m:
                return num(m.group(1)) + SKEW
    raise ValueError("no 'guest instrs:' line in %s" % log)


def refs_total(log):
    """'==N== I   refs:      1,234,567' from a tool (cycprof or cachegrind) log."""
    vals = []
    with open(log, errors="replace") as f:
        for line in f:
            m = re.match(r"^==\d+==\s+I\s+refs:\s+([\d,]+)\s*$", line)
            if m:
                vals.append(num(m.group(1)))
    if len(vals) != 1:
        raise ValueError("expected exactly one 'I   refs:' line in %s, found %d" % (log, len(vals)))
    return vals[0]


# ---------------------------------------------------------------- names

UNKNOWN = "<unknown>"


def is_unnamed_code(name):
    """A name given to code without a symbol: '0x<hex>' (callgrind, and cycprof
    outside any object) or '<object file name>+0x<hex>' (cycprof)."""
    return re.fullmatch(r"(?:.+\+)?0x[0-9a-fA-F]+", name) is not None


def norm_fn(name):
    """Join key for function names across readers. Unknown functions (no symbol)
    are printed as '???' by cachegrind, as '0x...' by callgrind and as
    'OBJECT+0x...' by cycprof: they all go to one bucket."""
    name = name.strip()
    if name in ("", "???", "(unknown)") or is_unnamed_code(name) \
            or re.fullmatch(r"\?\?\?[+ ].*", name):
        return UNKNOWN
    # Valgrind's own sigreturn trampoline (arm64 has no SA_RESTORER, so the
    # signal handler returns into the tool binary): named from cycprof's
    # unstripped binary, '???' in Debian's stripped cachegrind.
    if re.fullmatch(r"vgPlain_[a-z0-9]+_linux_SUBST_FOR_rt_sigreturn", name):
        return UNKNOWN
    return name


# ---------------------------------------------------------------- cachegrind oracle

def read_cachegrind(cgout):
    """Reads a cachegrind.out file (fl=, fn=, 'LINE COST...' lines, events:,
    summary:) as cachegrind writes it; names are never compressed there.
    Returns (self Ir per function, self Ir per (file basename, line), summary Ir)."""
    fns = collections.Counter()
    lines = collections.Counter()
    events = summary = None
    fl = fn = None
    with open(cgout, errors="replace") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            if line[0].isdigit():
                toks = line.split()
                if fn is None or events is None or len(toks) < 2:
                    raise ValueError("%s:%d: cost line outside a function: %r" % (cgout, lineno, line))
                ir = int(toks[1 + events.index("Ir")]) if len(toks) > 1 + events.index("Ir") else 0
                fns[norm_fn(fn)] += ir
                lines[(os.path.basename(fl or ""), int(toks[0]))] += ir
                continue
            m = re.match(r"^(\w+)([=:])\s?(.*)$", line)
            if not m:
                raise ValueError("%s:%d: malformed line %r" % (cgout, lineno, line[:80]))
            key, sep, val = m.groups()
            if sep == "=" and key == "fl":
                fl = val
            elif sep == "=" and key == "fn":
                fn = val
            elif sep == ":" and key == "events":
                events = val.split()
            elif sep == ":" and key == "summary":
                summary = int(val.split()[events.index("Ir")])
            elif sep == "=":
                raise ValueError("%s:%d: unknown spec %r" % (cgout, lineno, key))
    if events is None or "Ir" not in events or summary is None:
        raise ValueError("%s: no 'events: Ir' or no 'summary:' line" % cgout)
    if sum(fns.values()) != summary:
        raise ValueError("%s: costs sum to %d, summary: says %d" % (cgout, sum(fns.values()), summary))
    return fns, lines, summary


def cg_functions(cgout):
    """Cachegrind's self Ir per function (summed over source files, unknowns
    bucketed) and its total."""
    fns, lines, summary = read_cachegrind(cgout)
    return collections.Counter({k: v + SKEW for k, v in fns.items()}), summary + SKEW


def cg_line_self(cgout):
    """Cachegrind's self Ir per (file basename, line)."""
    fns, lines, summary = read_cachegrind(cgout)
    return collections.Counter({k: v + SKEW if v else v for k, v in lines.items()})


# ---------------------------------------------------------------- callgrind_annotate
# Run only to show that it reads the tool's files cleanly: its display format
# changes between Valgrind releases, so no numbers are taken from it except the
# PROGRAM TOTALS line, which every release prints as 'N [(100.0%)]  PROGRAM TOTALS'.

WARN_RE = re.compile(r"^\s*warning|use of uninitiali[sz]ed|malformed|^\s*error", re.I)


def callgrind_annotate(path, *args):
    """Run callgrind_annotate; return (rc, stdout, stderr, warnings[]).
    Any stderr output is a warning (perl warnings and the script's own WARNING
    lines go there); on stdout, lines that look like warnings."""
    rc, out, err = run(["callgrind_annotate"] + list(args) + [path])
    warns = [l for l in err.splitlines() if l.strip()]
    warns += [l for l in out.splitlines() if WARN_RE.search(l)]
    return rc, out, err, warns


def annotate_program_totals(out):
    """The total of a cg_annotate/callgrind_annotate display (any release)."""
    m = re.search(r"^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?PROGRAM TOTALS", out, re.M)
    if not m:
        raise ValueError("no PROGRAM TOTALS line")
    return num(m.group(1))


# ---------------------------------------------------------------- callgrind format parser


class CgFile:
    pass


def parse_callgrind(path):
    """Parse a callgrind-format profile (format version 1) independently of the
    tool. Returns CgFile with: events, totals (dict or None), summary, header
    (dict), fn_self (Counter by normalised fn name), calls (list of
    (caller, callee, count, cost_of_first_event)), first_events_offset, errors[]."""
    r = CgFile()
    r.errors = []
    r.header = {}
    r.events = None
    r.totals = None
    r.summary = None
    r.fn_self = collections.Counter()      # by normalised name
    r.calls = []                            # (caller, callee, count, cost), normalised names
    r.fn_self_raw = collections.Counter()  # by name as written
    r.calls_raw = []
    r.positions = ["line"]
    names = {"ob": {}, "fl": {}, "fn": {}}
    kind_of = {"ob": "ob", "cob": "ob", "fl": "fl", "fi": "fl", "fe": "fl", "cfi": "fl",
               "cfl": "fl", "fn": "fn", "cfn": "fn", "jfi": "fl", "jfn": "fn"}
    raw = open(path, "rb").read()
    head = raw[:2048].decode("utf-8", "replace")
    r.events_in_first_2k = bool(re.search(r"^events:", head, re.M))
    text = raw.decode("utf-8", "replace")
    cur_fn = cur_fn_raw = None
    cur_cfn = cur_cfn_raw = None
    cur_ob = cur_fl = cur_cob = cur_cfl = None
    cur_key = cur_ckey = None
    r.fn_self_key = collections.Counter()   # by (object, file, fn) as the file defines them
    r.calls_key = []
    pending_call = None
    skip_next = False
    prev = {}

    def uncompress(kind, val):
        k = kind_of[kind]
        m = re.match(r"^\((\d+)\)(?:\s(.*))?$", val)
        if m:
            i = int(m.group(1))
            if m.group(2) is not None:
                names[k][i] = m.group(2)
                return m.group(2)
            if i not in names[k]:
                r.errors.append("undefined compressed name (%d) for %s" % (i, kind))
                return "?"
            return names[k][i]
        return val

    def parse_cost(line, lineno):
        toks = line.split()
        npos = len(r.positions)
        if len(toks) < npos:
            r.errors.append("line %d: short cost line" % lineno)
            return None
        for j in range(npos):
            t = toks[j]
            if not (re.fullmatch(r"[+-]\d+|\*|\d+|0x[0-9a-fA-F]+", t)):
                r.errors.append("line %d: bad position %r" % (lineno, t))
                return None
        costs = toks[npos:]
        try:
            vals = [int(c) for c in costs]
        except ValueError:
            r.errors.append("line %d: bad cost %r" % (lineno, line))
            return None
        if r.events is not None and len(vals) > len(r.events):
            r.errors.append("line %d: more costs than events" % lineno)
        return vals[0] if vals else 0

    for lineno, line in enumerate(text.split("\n"), 1):
        if not line.strip() or line.startswith("#"):
            continue
        if skip_next:
            skip_next = False
            continue
        if line[0].isdigit() or line[0] in "+-*" or line.startswith("0x"):
            c = parse_cost(line, lineno)
            if c is None:
                continue
            if pending_call is not None:
                r.calls.append((cur_fn, pending_call[1], pending_call[0], c))
                r.calls_raw.append((cur_fn_raw, pending_call[2], pending_call[0], c))
                r.calls_key.append((cur_key, pending_call[3], pending_call[0], c))
                pending_call = None
            else:
                if cur_fn is None:
                    r.errors.append("line %d: cost before fn=" % lineno)
                else:
                    r.fn_self[cur_fn] += c
                    r.fn_self_raw[cur_fn_raw] += c
                    r.fn_self_key[cur_key] += c
            continue
        m = re.match(r"^(\w+)[=:]\s?(.*)$", line)
        if not m:
            r.errors.append("line %d: malformed %r" % (lineno, line[:80]))
            continue
        key, val = m.group(1), m.group(2)
        if line[len(key)] == ":":
            if key == "events":
                r.events = val.split()
            elif key == "positions":
                r.positions = val.split()
            elif key == "totals":
                r.totals = [int(x) for x in val.split()]
            elif key == "summary":
                r.summary = [int(x) for x in val.split()]
            else:
                r.header.setdefault(key, val)
            continue
        if key in ("fn",):
            cur_fn_raw = uncompress("fn", val)
            cur_fn = norm_fn(cur_fn_raw)
            cur_key = (cur_ob, cur_fl, cur_fn_raw)
            cur_cfn = None
        elif key == "ob":
            cur_ob = uncompress(key, val)
        elif key == "fl":
            cur_fl = uncompress(key, val)
        elif key == "cob":
            cur_cob = uncompress(key, val)
        elif key in ("cfi", "cfl"):
            cur_cfl = uncompress(key, val)
        elif key in ("fi", "fe", "jfi", "jfn"):
            uncompress(key, val)
        elif key == "cfn":
            cur_cfn_raw = uncompress("cfn", val)
            cur_cfn = norm_fn(cur_cfn_raw)
            cur_ckey = (cur_cob if cur_cob is not None else cur_ob,
                        cur_cfl if cur_cfl is not None else cur_fl, cur_cfn_raw)
            cur_cob = cur_cfl = None
        elif key == "calls":
            toks = val.split()
            if not toks or not toks[0].isdigit():
                r.errors.append("line %d: bad calls= %r" % (lineno, val))
                continue
            if cur_cfn is None:
                r.errors.append("line %d: calls= without cfn=" % lineno)
            pending_call = (int(toks[0]), cur_cfn, cur_cfn_raw, cur_ckey)
        elif key in ("jump", "jcnd"):
            skip_next = True
        else:
            r.errors.append("line %d: unknown spec %r" % (lineno, key))
    if r.events is None:
        r.errors.append("no events: line")
    if pending_call is not None:
        r.errors.append("file ends after calls= line")
    r.self_total = sum(r.fn_self.values())
    return r


def call_balance(cg, by="obfn"):
    """For every function F: cost of calls into F from other functions (in) and
    self(F) + cost of calls from F to other functions (out). In any profile made
    from a calling-context tree these are equal for every F that has callers
    (derivation in tests/README.md). Functions are keyed by (object, name)
    ("key": (object, file, name); "raw": name). Returns {key: (in, out)}."""
    inn = collections.Counter()
    selfc, calls = {"key": (cg.fn_self_key, cg.calls_key), "raw": (cg.fn_self_raw, cg.calls_raw),
                    "obfn": ({(k[0], k[2]): 0 for k in cg.fn_self_key}, [])}[by]
    if by == "obfn":
        selfc = collections.Counter()
        for k, v in cg.fn_self_key.items():
            selfc[(k[0], k[2])] += v
        calls = [((a[0], a[2]), (b[0], b[2]), n, c) for a, b, n, c in cg.calls_key]
    out = collections.Counter(selfc)
    for caller, callee, count, cost in calls:
        if caller == callee:
            continue
        inn[callee] += cost
        out[caller] += cost
    return {f: (inn[f], out[f]) for f in set(inn) | set(out)}


# ---------------------------------------------------------------- pprof

def pprof(args, pb):
    """`go tool pprof ARGS PB`; PB is a profile, or a list of profiles that
    pprof merges first."""
    env = dict(os.environ)
    if env.get("GO_HOME"):
        env["HOME"] = env["GO_HOME"]
    files = [pb] if isinstance(pb, str) else list(pb)
    rc, out, err = run(["go", "tool", "pprof", "-symbolize=none"] + list(args) + files, env=env)
    if rc != 0:
        raise RuntimeError("go tool pprof %s failed rc=%d: %s" % (" ".join(args), rc, err[-800:]))
    return out, err


class Sample:
    def __init__(self, value, locs, labels):
        self.value = value
        self.locs = locs
        self.labels = labels
        self.frames = []     # leaf first, inline frames expanded (innermost first)
        self.symframes = []  # leaf first, one per location: the outermost (symbol) function

    def __repr__(self):
        return "Sample(%d, %s, %s)" % (self.value, self.frames, self.labels)


def pprof_raw_locations(lines):
    """The Locations section of `go tool pprof -raw` output lines:
    {location id: [(function name, file, line, start line), ...]}, innermost
    (inlined) frame first; file "" and lines 0 where -raw shows none."""
    locs, cur_loc, section = {}, None, None
    for line in lines:
        if line.startswith("Locations"):
            section = "locs"
            continue
        if section != "locs":
            continue
        if line.startswith("Mappings"):
            break
        m = re.match(r"^\s*(\d+): (0x[0-9a-f]+) (?:M=\d+ )?(?:\[F\] )?(.*)$", line)
        if m:
            cur_loc = int(m.group(1))
            locs[cur_loc] = []
            rest = m.group(3)
        elif cur_loc is not None and line.startswith("             "):
            rest = line.strip()
        else:
            continue
        if rest.strip() == "":
            continue
        # "name file:line s=start" (Go < 1.24) or "name file:line:column s=start"
        mm = re.match(r"^(.*) (\S*?):(-?\d+)(?::\d+)? s=(\d+)(?:\((.*)\))?$", rest)
        if mm:
            locs[cur_loc].append((mm.group(1), mm.group(2), int(mm.group(3)), int(mm.group(4))))
        else:
            locs[cur_loc].append((rest.strip(), "", 0, 0))
    return locs


def pprof_raw(pb):
    """Parse `go tool pprof -raw` (profile.String()). Returns (sample_types, samples)."""
    out, err = pprof(["-raw"], pb)
    lines = out.splitlines()
    samples = []
    sample_types = None
    section = None
    for line in lines:
        if line.startswith("Samples:"):
            section = "samples"
            continue
        if line.startswith("Locations"):
            break
        if section == "samples":
            if sample_types is None:
                sample_types = line.split()
                continue
            m = re.match(r"^\s*((?:-?\d+\s*)+):\s((?:\d+\s*)*)$", line)
            if m:
                vals = [int(x) for x in m.group(1).split()]
                samples.append(Sample(vals[0], [int(x) for x in m.group(2).split()], {}))
                continue
            if samples and line.startswith(" "):
                for k, v in re.findall(r"(\S+?):\[([^\]]*)\]", line):
                    samples[-1].labels.setdefault(k, []).extend(v.split())
                continue
    locs = {i: [f[0] for f in fr] for i, fr in pprof_raw_locations(lines).items()}
    for s in samples:
        for l in s.locs:
            fl = locs.get(l, [])
            if not fl:
                fl = ["??"]
            s.frames.extend(fl)
            s.symframes.append(fl[-1])
    return sample_types, samples


def pprof_traces(pb, *args):
    """Parse `go tool pprof -traces`. Returns list of (value_str, frames leaf-first
    with ' (inline)' kept, labels dict)."""
    out, err = pprof(["-traces"] + list(args), pb)
    traces = []
    blocks = re.split(r"^-{5,}\+-{5,}\s*$", out, flags=re.M)
    for b in blocks[1:]:
        frames, labels, value = [], {}, None
        for line in b.splitlines():
            if not line.strip():
                continue
            m = re.match(r"^\s*(\S+):\s\s(.*)$", line)
            if m and value is None and not frames:
                labels[m.group(1)] = m.group(2).split()
                continue
            if len(line) >= 13 and line[10:13] == "   ":
                v = line[:10].strip()
                if v:
                    value = v
                frames.append(line[13:])
        if frames:
            traces.append((value, frames, labels))
    return traces


def value_int(s):
    """A -traces/-top value printed without scaling ('1234' or '1234unit')."""
    m = re.match(r"^(-?\d+)([A-Za-z]*)$", s)
    if not m:
        raise ValueError("scaled or odd value %r (cannot compare exactly)" % s)
    return int(m.group(1))


def pprof_top_rows(pb, args):
    """The table rows of `go tool pprof -top` (no fraction cut-offs), after
    its `flat flat% ...` header line."""
    out, err = pprof(["-top", "-nodefraction=0", "-edgefraction=0"] + args, pb)
    started = False
    for line in out.splitlines():
        if re.match(r"^\s*flat\s+flat%", line):
            started = True
        elif started and line.strip():
            yield line


def pprof_top(pb, *args):
    """Parse -top: returns {name: (flat, cum)} (values must be unscaled integers)."""
    res = {}
    for line in pprof_top_rows(pb, ["-nodecount=1000000"] + list(args)):
        m = re.match(r"^\s*(\S+)\s+\S+%\s+\S+%\s+(\S+)\s+\S+%\s+(.*)$", line)
        if not m:
            raise ValueError("unparsable -top line %r" % line)
        name = m.group(3)
        flat, cum = value_int(m.group(1)), value_int(m.group(2))
        if name in res:
            raise ValueError("duplicate -top node %r" % name)
        res[name] = (flat, cum)
    return res


def pprof_lines(pb, *args):
    """Flat cost per source line from `go tool pprof -top -lines`: Counter keyed
    by (file basename, line); every node without a line goes to (None, 0).
    Nodes are summed (one file:line can be printed under several functions,
    or the same name in two objects)."""
    res = collections.Counter()
    for line in pprof_top_rows(pb, ["-lines", "-nodecount=100000000"] + list(args)):
        m = re.match(r"^\s*(\S+)\s+\S+%\s+\S+%\s+\S+\s+\S+%\s+(.*)$", line)
        if not m:
            raise ValueError("unparsable -top -lines line %r" % line)
        flat = value_int(m.group(1))
        ml = re.match(r"^.* (\S+):(\d+)(?: \((?:partial-)?inline\))?$", m.group(2))
        key = (os.path.basename(ml.group(1)), int(ml.group(2))) if ml else (None, 0)
        if key[1] == 0:
            key = (None, 0)
        res[key] += flat
    return res


def callgrind_line_self(path):
    """Self cost per source line of a callgrind-format file, keyed like
    pprof_lines: (file basename, line), line 0 as (None, 0). Follows the
    format's rules: fl=/fi=/fe= set the file of the following cost lines,
    name compression '(id) name', subposition compression (+N, -N, *) on
    every position line, and the cost line after calls= is a call's
    inclusive cost (not self cost)."""
    names = {}
    res = collections.Counter()
    positions = ["line"]
    last = [0] * 8
    cur = None
    after_calls = False
    for raw in open(path, errors="replace"):
        line = raw.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        if line[0].isdigit() or line[0] in "+-*" or line.startswith("0x"):
            toks = line.split()
            pos = []
            for j in range(len(positions)):
                t = toks[j]
                if t == "*":
                    v = last[j]
                elif t[0] in "+-":
                    v = last[j] + int(t)
                else:
                    v = int(t, 0)
                last[j] = v
                pos.append(v)
            if after_calls:
                after_calls = False
                continue
            ln = pos[positions.index("line")]
            cost = int(toks[len(positions)]) if len(toks) > len(positions) else 0
            key = (os.path.basename(cur or ""), ln) if ln else (None, 0)
            res[key] += cost
            continue
        m = re.match(r"^(\w+)([=:])\s?(.*)$", line)
        if not m:
            continue
        k, sep, v = m.groups()
        if sep == ":":
            if k == "positions":
                positions = v.split()
            continue
        mc = re.match(r"^\((\d+)\)(?:\s(.*))?$", v)
        kind = "fl" if k in ("fl", "fi", "fe", "cfi", "cfl", "jfi") else k
        if mc:
            if mc.group(2) is not None:
                names[(kind, mc.group(1))] = mc.group(2)
            v = names.get((kind, mc.group(1)), "?")
        if k in ("fl", "fi", "fe"):
            cur = v
        elif k == "calls":
            after_calls = True
        elif k in ("jump", "jcnd"):
            after_calls = True   # the next position line is the jump's, not a cost
    return res


# ---------------------------------------------------------------- stack helpers

def contains_seq(frames, seq):
    """frames leaf-first; seq leaf-first; contiguous match anywhere."""
    n = len(seq)
    for i in range(len(frames) - n + 1):
        if frames[i:i + n] == seq:
            return True
    return False


def root_first(frames):
    return list(reversed(frames))


def fn_matches(frame, name):
    """A frame names function `name` (exact, or Rust/C++ qualified path ending in ::name)."""
    f = re.sub(r" \(inline\)$", "", frame)
    f = re.sub(r"\(.*\)$", "", f)  # C++ parameter list
    return f == name or f.endswith("::" + name)


def main_cli():
    cmd = sys.argv[1]
    if cmd == "lackey-total":
        print(lackey_total(sys.argv[2]))
    elif cmd == "refs-total":
        print(refs_total(sys.argv[2]))
    elif cmd == "parse-callgrind":
        r = parse_callgrind(sys.argv[2])
        print(json.dumps({"events": r.events, "totals": r.totals, "summary": r.summary,
                          "self_total": r.self_total, "errors": r.errors[:20],
                          "nfn": len(r.fn_self), "ncalls": len(r.calls)}, indent=1))
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main_cli()

