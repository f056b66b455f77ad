# Turns `go tool pprof -traces` output into collapsed stacks
# ("root;...;leaf COUNT", identical stacks summed) so that cycprof folded
# can be checked against the reference pprof reader. Frame names get the
# same ';' -> ':' substitution cycprof folded makes.
function flush(   s, i) {
    if (n > 0) {
        s = fr[n]
        for (i = n - 1; i >= 1; i--) s = s ";" fr[i]
        sum[s] += val
    }
    n = 0
}
/^-----------\+/ { flush(); inblock = 1; next }
!inblock { next }
/^ +[a-zA-Z_]+: / && !/^ +[0-9]/ { next }           # label lines (thread: 1)
# A sample's first line: its value, then the leaf frame. Wide values
# fill the column, so the leading blanks may be gone.
/^ *[0-9]+ +[^ ]/ {
    flush()
    val = $1
    line = $0
    sub(/^ *[0-9]+ +/, "", line)
    sub(/ \(inline\)$/, "", line)
    gsub(/;/, ":", line)
    fr[++n] = line
    next
}
/^ +[^ ]/ {
    line = $0
    sub(/^ +/, "", line)
    sub(/ \(inline\)$/, "", line)
    gsub(/;/, ":", line)
    fr[++n] = line
}
END { flush(); for (s in sum) if (sum[s] > 0) printf "%s %.0f\n", s, sum[s] }
