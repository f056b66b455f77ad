"""Python workload of scripts/bench: JSON, regular expressions and recursion.

Deterministic (no clock, no randomness, no hash-order dependence; the bench
sets PYTHONHASHSEED=0 anyway). Usage: pywork.py [ROUNDS], default 1; one round
takes ~40 ms natively on a current x86-64 core, scripts/bench runs 7 (1 with
--quick). Prints one checksum line.
"""
import json
import re
import sys

WORDS = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu "
         "nu xi omicron pi rho sigma tau upsilon phi chi psi omega").split()


def lcg(seed):
    while True:
        seed = (seed * 6364136223846793005 + 1442695040888963407) % 2**64
        yield seed >> 33


def make_tree(rnd, depth):
    """A nested dict/list document, 3**depth leaves, built recursively."""
    r = next(rnd)
    if depth == 0:
        return {"id": r % 100000, "name": WORDS[r % len(WORDS)],
                "mail": "%s.%d@example.org" % (WORDS[(r >> 5) % len(WORDS)], r % 977),
                "score": (r % 10000) / 100.0}
    return {"kind": WORDS[r % len(WORDS)],
            "children": [make_tree(rnd, depth - 1) for _ in range(3)]}


def walk(node, depth=0):
    """Recursive fold: (leaf count, depth sum, score sum)."""
    if "children" not in node:
        return 1, depth, node["score"]
    n = d = s = 0
    for child in node["children"]:
        cn, cd, cs = walk(child, depth + 1)
        n, d, s = n + cn, d + cd, s + cs
    return n, d, s


TOKEN = re.compile(r"\s*(?:(\d+)|(.))")


def parse_expr(toks, i):
    """Recursive descent over + - * ( ): expr := term (('+'|'-') term)*."""
    v, i = parse_term(toks, i)
    while i < len(toks) and toks[i] in "+-":
        w, j = parse_term(toks, i + 1)
        v, i = (v + w if toks[i] == "+" else v - w), j
    return v, i


def parse_term(toks, i):
    v, i = parse_atom(toks, i)
    while i < len(toks) and toks[i] == "*":
        w, i = parse_atom(toks, i + 1)
        v = v * w % 1000003
    return v, i


def parse_atom(toks, i):
    if toks[i] == "(":
        v, i = parse_expr(toks, i + 1)
        return v, i + 1          # skip ')'
    return int(toks[i]), i + 1


def make_expr(rnd, depth):
    r = next(rnd)
    if depth == 0:
        return str(r % 1000)
    op = "+-*"[r % 3]
    return "(%s %s %s)" % (make_expr(rnd, depth - 1), op, make_expr(rnd, depth - 1))


def main(rounds):
    rnd = lcg(12345)
    check = 0
    for _ in range(rounds):
        doc = make_tree(rnd, 7)
        text = json.dumps(doc, sort_keys=True)
        doc2 = json.loads(text)
        n, d, s = walk(doc2)
        mails = re.findall(r"\b([a-z]+)\.(\d+)@example\.org\b", text)
        names = re.sub(r'"name": "([a-z]+)"', lambda m: m.group(1).upper(), text)
        check += n + d + int(s) + len(mails) + len(names)
        for _ in range(40):
            expr = make_expr(rnd, 9)
            toks = [a or b for a, b in TOKEN.findall(expr)]
            check += parse_expr(toks, 0)[0]
    print("pywork checksum", check % 2**32)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
