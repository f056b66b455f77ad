# Extracts the function table of callgrind_annotate or `cycprof report`
# output as "count1,count2,...<TAB>file:function" lines (commas and
# percentages removed, "[object]" suffix dropped, zero rows dropped), so the
# two can be compared with diff.
# mode=cga: rows follow the "file:function" heading and its dashes line.
# mode=cyc: rows follow the heading ("file:function", "file", "object",
#           "file:line function") directly.
function strip(s) { gsub(/,/, "", s); return s }
/file:function$/ || (mode == "cyc" && / (file|object|file:line function)$/) {
    intable = 1; if (mode == "cga") skipdash = 1; next
}
intable && skipdash { skipdash = 0; next }
intable && /^$/ { intable = 0; next }
intable && /^\(/ { intable = 0; next }
intable {
    line = $0
    sub(/^ +/, "", line)
    counts = ""; nz = 0
    # leading count columns, each optionally followed by "(12.3%)"
    while (match(line, /^([0-9,]+|\.)( \([ 0-9.]+%\))? +/)) {
        tok = substr(line, 1, RLENGTH)
        sub(/ .*/, "", tok)
        tok = strip(tok)
        if (tok == ".") tok = 0
        if (tok + 0 != 0) nz = 1
        counts = counts (counts == "" ? "" : ",") tok
        line = substr(line, RLENGTH + 1)
    }
    sub(/ \[[^]]*\]$/, "", line)
    if (nz) print counts "\t" line
}
