#!/usr/bin/env python3
"""Read speedscope's sandwich view from Chromium's --dump-dom output into
compare_functions.py's viewer JSON (names only: speedscope shows no
object).

usage: speedscope_table.py DOM.html TOTAL

The table is virtual: the DOM holds only the rows in the window (so the
window is made tall enough for all of them). speedscope prints no grand
total: the self column must add up to TOTAL, and every bar ("width:
52.0694%", 4 decimals) must be its row's cost over TOTAL, within the precision Chromium keeps."""
import html
import json
import re
import sys

dom = open(sys.argv[1], encoding="utf-8").read()
total = int(sys.argv[2])
title = re.search(r"<title>(.*?) - speedscope</title>", dom)
cell = r'<td class="[^"]*">([\d,]+) \([^)]*\)<div class="[^"]*"><div class="[^"]*" style="width: ([\d.e-]+)%;"></div></div></td>'
row = re.compile(r'<tr class="[^"]*">' + cell + cell +
                 r'<td(?: title="[^"]*")? class="[^"]*"><span[^>]*></span>(.*?)</td></tr>')
funcs = []
for t, tp, s, sp, n in row.findall(dom):
    t, s = int(t.replace(",", "")), int(s.replace(",", ""))
    for v, p in ((t, tp), (s, sp)):
        # The bar width is v / total * 100, as Chromium serialises a CSS
        # length: a float of 6 significant digits (28.01765 -> 28.0176).
        if abs(v * 100 / total - float(p)) > 0.0001:
            sys.exit("%s: %d is %s%% of speedscope's total, not of %d" % (n, v, p, total))
    funcs.append({"lib": None, "name": html.unescape(n), "self": s, "total": t})
if not title or not funcs:
    sys.exit("no speedscope sandwich table in %s" % sys.argv[1])
shown = sum(f["self"] for f in funcs)
if shown != total:
    sys.exit("the self column adds up to %d, not %d (rows missing from the DOM?)" % (shown, total))
print(json.dumps({"total": total, "functions": funcs}))
