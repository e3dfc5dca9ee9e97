# help.awk — `make help`: lists the targets and variables of the make files it is given, from
# their `## text` lines: `## text` lines describe the target, or the variables
# (`NAME ?= default`), on the lines right below them.
function flush(   i) {
    if (n == 1) vars = vars sprintf("  %-18s %s [%s]\n", name[1], doc, value[1])
    else if (n > 1) {
        for (i = 1; i <= n; i++) vars = vars sprintf("  %-18s [%s]\n", name[i], value[i])
        vars = vars sprintf("  %-18s %s\n", "", doc)
    }
    doc = ""; n = 0
}
/^## / { if (n > 0) flush(); doc = (doc == "" ? "" : doc " ") substr($0, 4); next }
doc != "" && /^[A-Za-z_][A-Za-z0-9_]* *\?=/ {
    v = $0; sub(/^[^=]*\?= */, "", v)
    while (v ~ /\\$/ && (getline line) > 0) { sub(/^[ \t]+/, "", line); v = substr(v, 1, length(v) - 1) line }
    if (v ~ /\$\(error/) v = "required"
    name[++n] = $1; value[n] = v
    next
}
doc != "" && n == 0 && /^[a-z][a-z0-9 -]*:/ {
    split($0, t, ":")
    targets = targets sprintf("  %-18s %s\n", t[1], doc)
    doc = ""; next
}
{ flush() }
END {
    flush()
    printf "Targets:\n%s\nVariables [default]:\n%s", targets, vars
}
