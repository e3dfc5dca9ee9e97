# foldoc.awk: FOLDOC's dictd text (make foldoc-text) -> the silver-standard class lists and,
# with -v lines=1, one line per entry for `annotate --discover --lines` (the FOLDOC_FORMAT=lines
# reading of mk/foldoc-data.mk; by default annotate reads the dictd text itself).
#
#   awk -v classes=DIR -f foldoc.awk foldoc.txt
#   awk -v lines=1 -f foldoc.awk foldoc.txt > foldoc-lines.txt
#
# The dictd layout: a headword alone on a line at column 0 (other headwords of the
# same entry on the lines right below it: "Bjarne Stroustrup" / "Stroustrup, Bjarne"),
# its definition indented below, entries separated by blank lines. With lines=1 each entry becomes
# "Headword , Other : definition" on one line (the dictionary-head layout discovery reads
# as a name and its synonyms, README "No entity list"; another headword with a comma in
# it, an inverted "Surname, Forename", is left out), the markup dropped: {cross-reference}
# -> its text, <category tags> and <e-mail addresses> removed, the "(YYYY-MM-DD)" edit date
# removed. A company's
# ", Inc." / ", Ltd." suffix is dropped from the headword (discovery would read the
# part after the comma as a synonym). dictd's own entries (00-database-*, the "A%%%B" headword
# of its information entry) are skipped.
#
# With -v classes=DIR: DIR/<class>.txt lists the headwords whose definition starts with
# the class's category tag (one name a line) — FOLDOC's editors' own tags, a silver
# standard: programming_languages <language>, companies <company>, operating_systems
# <operating system>, people <person>, processors <processor>, computers <computer>,
# organisations <body>, protocols (any tag with the part "protocol", e.g.
# <networking, protocol>). Only the first tag group of a definition counts.
function flush(   t, n, parts, i, cls) {
    if (head == "" || head ~ /^00-database/ || head ~ /%%%/) { head = ""; others = ""; body = ""; return }
    t = body
    tag = ""
    if (match(t, /^ *<[^>@]*>/)) tag = substr(t, RSTART, RLENGTH)
    gsub(/<[^>]*>/, " ", t)
    gsub(/[{}]/, "", t)
    gsub(/\([0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]\)/, " ", t)
    gsub(/[ \t]+/, " ", t)
    sub(/^ /, "", t)
    sub(/ $/, "", t)
    if (lines && t != "") print head others " : " t
    if (classes != "" && tag != "") {
        gsub(/^ *<|> *$/, "", tag)
        n = split(tag, parts, / *, */)
        cls = ""
        if (parts[1] == "language") cls = "programming_languages"
        else if (parts[1] == "company") cls = "companies"
        else if (parts[1] == "operating system") cls = "operating_systems"
        else if (parts[1] == "person") cls = "people"
        else if (parts[1] == "processor") cls = "processors"
        else if (parts[1] == "computer") cls = "computers"
        else if (parts[1] == "body") cls = "organisations"
        for (i = 1; i <= n && cls == ""; i++) if (parts[i] == "protocol") cls = "protocols"
        if (cls != "") print head > (classes "/" cls ".txt")
    }
    head = ""
    others = ""
    body = ""
}
# a headword without a company suffix and trailing blanks
function headword(s) {
    sub(/[ \t]+$/, "", s)
    sub(/, *(Inc|Ltd|Corp|Co|plc|GmbH|AG|LLC)\.?$/, "", s)
    return s
}
/^[^ \t]/ && prev_blank { flush(); head = headword($0); in_heads = 1; prev_blank = 0; next }
/^[^ \t]/ && in_heads { h = headword($0); if (h !~ /,/ && h != head) others = others " , " h; next }
/^[ \t]*$/ { prev_blank = 1; in_heads = 0; next }
{ prev_blank = 0; in_heads = 0; if (head != "") body = body " " $0 }
END { flush() }
