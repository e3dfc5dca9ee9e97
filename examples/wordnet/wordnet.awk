# wordnet.awk: turns WordNet 3.0 database files (wndb(5WN) format) into the
# inputs of `annotate`: a corpus, an entity list and class member lists.
#
# Usage: awk -v out=DIR -f wordnet.awk data.noun [data.verb data.adj data.adv]
#        awk -v out=DIR -v mode=instances -f wordnet.awk data.noun
#        awk -v out=DIR -v class_names=all -f wordnet.awk data.noun [...]
#   data.noun must come first. POSIX awk (mawk, gawk, busybox awk).
# Writes (mode=instances: only instances.tsv and senses.tsv, see below):
#   DIR/corpus.tsv    wn:<pos><offset><TAB>text, one line per definition
#                     ("lemma, lemma: definition") and one per usage example
#   DIR/entities.tsv  name<TAB>alias... : capitalised noun lemmas
#   DIR/classes/<class>.txt  member names (one per line) of the 13 classes
#   DIR/stats.txt     counts for the build log
#
# Entities: noun lemmas that start with a capital letter, underscores -> spaces,
# longer than 2 characters, without digits, not only in the animal/plant lexicon
# files (taxa: lex files 05 and 20), and not a common word: a one-word name is
# dropped when its lower-case form occurs more than twice as often in the corpus
# as the capitalised form away from the start of a line. A name belongs to one
# entity only: first every synset's first usable name claims itself (synsets in
# file order, so the first synset wins a shared name such as "Washington"),
# then the other names become aliases of their synset's entity when still free
# (a synset whose first name was taken gets its next free name as entity name).
#
# Classes: the class synset is the noun synset holding the class lemma with the
# most instances; members are the instances (~i pointers) of it and of all its
# hyponyms (~ pointers, transitively). A member synset lists its first
# capitalised lemma (even when an earlier synset owns that name, as with
# "Washington": an ambiguous name is a member of each of its classes) and its
# other lemmas that it owns; annotate maps the names to entities.
# class_names=all: a member synset lists every capitalised lemma, also those another
# synset owns or that are no entity names ("Champlain", the explorer's, is a name of
# Lake Champlain too): a name is a member when any of its senses is, the rule of
# wordnet-ese's gt (../shared/data), for scoring an entity list made some other way
# (dev/bench/bench-discover.sh).
#
# mode=instances (the held-out classes, heldout.sh) writes every noun synset's instances instead:
#   DIR/instances.tsv  class_offset<TAB>class_lemma<TAB>member_offset<TAB>name: a line per noun
#                      synset, instance synset below it (an instance, ~i, of it or of one of its
#                      hyponyms, ~ transitively) and lemma of that instance (underscores ->
#                      spaces); class_lemma is the class synset's first lemma
#   DIR/senses.tsv     name<TAB>senses: the number of noun synsets that hold each lemma of an
#                      instance synset (the same spelling), for the "every sense in the class" test

function hex(s,    i, v) {
    s = tolower(s); v = 0
    for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
    return v
}

function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }

# Counts the words of a corpus line for the common-word test.
function count_words(text,    n, w, i) {
    n = split(text, w, /[^A-Za-z'-]+/)
    for (i = 1; i <= n; i++) {
        if (w[i] == "") continue
        if (w[i] ~ /^[a-z]/) lower[w[i]]++
        else if (i > 2 || (i == 2 && w[1] != "")) capital[w[i]]++
    }
}

function emit(id, text) {
    text = trim(text)
    if (text == "") return
    print id "\t" text > corpus
    count_words(text)
    lines++
}

# Splits a gloss into its definition and its examples: the ";"-separated parts
# that start with a quote ("..."; text after the closing quote, such as
# "- Shakespeare", is dropped). Quoted phrases inside a definition stay in it.
function gloss_parts(id, prefix, g,    i, c, inq, seg, def, nseg, segs, k, s, q) {
    nseg = 0
    if (index(g, "\"") == 0) {
        nseg = split(g, segs, ";")
    } else {
        seg = ""; inq = 0
        for (i = 1; i <= length(g); i++) {
            c = substr(g, i, 1)
            if (c == "\"") inq = !inq
            if (c == ";" && !inq) { segs[++nseg] = seg; seg = "" } else seg = seg c
        }
        segs[++nseg] = seg
    }
    def = ""
    for (k = 1; k <= nseg; k++) {
        s = trim(segs[k])
        if (substr(s, 1, 1) == "\"") {
            s = substr(s, 2)
            q = index(s, "\"")
            if (q) s = substr(s, 1, q - 1)
            examples[++nex] = s
        } else if (s != "") {
            def = def (def == "" ? "" : "; ") s
        }
    }
    emit(id, prefix ": " def)
}

BEGIN {
    if (out == "") { print "wordnet.awk: set -v out=DIR" > "/dev/stderr"; exit 2 }
    if (mode != "" && mode != "instances") { print "wordnet.awk: mode is instances or unset, not " mode > "/dev/stderr"; exit 2 }
    corpus = out "/corpus.tsv"
    if (mode == "") printf "" > corpus
    split("American_state national_capital river lake Greek_deity composer poet actor chemist mathematician philosopher King_of_England general", cls_lemma, " ")
    split("us_states national_capitals rivers lakes greek_deities composers poets actors chemists mathematicians philosophers kings_of_england generals", cls_file, " ")
    ncls = 13
}

/^  / { next }   # licence header lines

{
    off = $1; lex = $2; pos = $3; wcnt = hex($4)
    if (pos == "s") pos = "a"
    id = "wn:" pos off
    prefix = ""; caps = ""
    for (i = 0; i < wcnt; i++) {
        w = $(5 + 2 * i)
        sub(/\([a-z]+\)$/, "", w)       # adjective syntactic markers
        if (FILENAME ~ /data\.noun$/) {
            if (w in has_word) has_word[w] = has_word[w] " " off; else has_word[w] = off
            if (w ~ /^[A-Z]/) caps = caps (caps == "" ? "" : "\t") w
            lemmas[off] = lemmas[off] (i ? "\t" : "") w
        }
        gsub(/_/, " ", w)
        prefix = prefix (i ? ", " : "") w
    }
    if (FILENAME ~ /data\.noun$/) {
        nsyn++; noun[nsyn] = off
        if (caps != "") { capnames[off] = caps; caplex[off] = lex; capsyn[++ncap] = off }
        p = 5 + 2 * wcnt
        pcnt = $p + 0
        for (j = 0; j < pcnt; j++) {
            sym = $(p + 1 + 4 * j); tgt = $(p + 2 + 4 * j)
            if (sym == "~") hypo[off] = hypo[off] " " tgt
            else if (sym == "~i") inst[off] = inst[off] " " tgt
        }
    }
    if (mode == "instances") next
    g = $0
    k = index(g, " | ")
    g = k ? substr(g, k + 3) : ""
    nex = 0
    gloss_parts(id, prefix, g)
    for (k = 1; k <= nex; k++) emit(id, examples[k])
}

function class_members(lemma, file,    n, cand, c, best, bestn, q, head, tail, seen, node, kids, nk, k, m, members, nm, names, nn, x, cnt, sep) {
    if (!(lemma in has_word)) { missing_classes = missing_classes " " lemma; return }
    n = split(has_word[lemma], cand, " ")
    best = ""; bestn = -1
    for (c = 1; c <= n; c++) {
        # breadth-first over hyponyms, counting instances
        split("", seen); split("", members)
        head = 1; tail = 1; q[1] = cand[c]; seen[cand[c]] = 1; cnt = 0
        while (head <= tail) {
            node = q[head++]
            nk = split(inst[node], kids, " ")
            for (k = 1; k <= nk; k++) if (!(kids[k] in members)) { members[kids[k]] = 1; cnt++ }
            nk = split(hypo[node], kids, " ")
            for (k = 1; k <= nk; k++) if (!(kids[k] in seen)) { seen[kids[k]] = 1; q[++tail] = kids[k] }
        }
        if (cnt > bestn) { bestn = cnt; best = cand[c]; split("", bestm); for (m in members) bestm[m] = 1 }
    }
    nm = 0; printf "" > (out "/classes/" file ".txt")
    for (m in bestm) {
        if (!(m in capnames)) continue
        nn = split(capnames[m], names, "\t")
        for (x = 1; x <= nn; x++) {
            gsub(/_/, " ", names[x])
            if (x == 1 || class_names == "all" || claimed[names[x]] == m) print names[x] > (out "/classes/" file ".txt")
        }
        nm++
    }
    close(out "/classes/" file ".txt")
    printf "class\t%s\t%s\tn%s\t%d member synsets\n", file, lemma, best, nm > stats
}

# mode=instances: instances.tsv and senses.tsv (see the top). Walks up from each instance synset
# through the inverted ~i and ~ pointers, so every ancestor lists it once.
function write_instances(    c, n, spaced, first, kids, k, i, node, q, head, tail, seen, nl, names, x, w, nsense) {
    for (c in hypo) { n = split(hypo[c], kids, " "); for (k = 1; k <= n; k++) up[kids[k]] = up[kids[k]] " " c }
    for (c in inst) { n = split(inst[c], kids, " "); for (k = 1; k <= n; k++) iup[kids[k]] = iup[kids[k]] " " c }
    printf "" > (out "/instances.tsv"); printf "" > (out "/senses.tsv")
    for (i = 1; i <= nsyn; i++) {
        if (!(noun[i] in iup)) continue
        split("", seen); head = 1; tail = 0
        n = split(iup[noun[i]], kids, " ")
        for (k = 1; k <= n; k++) if (!(kids[k] in seen)) { seen[kids[k]] = 1; q[++tail] = kids[k] }
        nl = split(lemmas[noun[i]], names, "\t")
        for (x = 1; x <= nl; x++) { spaced[x] = names[x]; gsub(/_/, " ", spaced[x]) }
        while (head <= tail) {
            node = q[head++]
            split(lemmas[node], first, "\t")
            for (x = 1; x <= nl; x++) print node "\t" first[1] "\t" noun[i] "\t" spaced[x] > (out "/instances.tsv")
            n = split(up[node], kids, " ")
            for (k = 1; k <= n; k++) if (!(kids[k] in seen)) { seen[kids[k]] = 1; q[++tail] = kids[k] }
        }
        for (x = 1; x <= nl; x++) if (!(names[x] in nsense)) nsense[names[x]] = split(has_word[names[x]], kids, " ")
    }
    for (w in nsense) { x = w; gsub(/_/, " ", x); print x "\t" nsense[w] > (out "/senses.tsv") }
    close(out "/instances.tsv"); close(out "/senses.tsv")
}

END {
    if (mode == "instances") { write_instances(); exit }
    close(corpus)
    stats = out "/stats.txt"
    ents = out "/entities.tsv"
    printf "" > ents
    # pass 1: each synset's first usable name claims itself as an entity name;
    # pass 2: the remaining unclaimed names become aliases (or the entity name
    # of a synset whose first name was taken by an earlier synset)
    for (pass = 1; pass <= 2; pass++) {
        for (s = 1; s <= ncap; s++) {
            off = capsyn[s]
            if (caplex[off] == "05" || caplex[off] == "20") continue
            nn = split(capnames[off], names, "\t")
            for (x = 1; x <= nn; x++) {
                nm = names[x]
                gsub(/_/, " ", nm)
                if (length(nm) <= 2 || nm ~ /[0-9]/) continue
                if (nm ~ /^[A-Za-z][A-Za-z'-]*$/ && lower[tolower(nm)] > 2 * capital[nm]) { common[nm] = 1; continue }
                if (pass == 1) {
                    if (!(nm in claimed)) { claimed[nm] = off; entline[off] = nm }
                    break
                }
                if (nm in claimed) continue
                claimed[nm] = off
                entline[off] = (off in entline) ? entline[off] "\t" nm : nm
            }
        }
    }
    nent = 0
    for (s = 1; s <= ncap; s++)
        if (capsyn[s] in entline) { print entline[capsyn[s]] > ents; nent++ }
    close(ents)
    ncommon = 0
    for (nm in common) ncommon++
    printf "synsets_noun\t%d\ncorpus_lines\t%d\nentities\t%d\ncommon_words_dropped\t%d\n", nsyn, lines, nent, ncommon > stats
    for (c = 1; c <= ncls; c++) class_members(cls_lemma[c], cls_file[c])
    if (missing_classes != "") printf "missing_classes\t%s\n", missing_classes > stats
    close(stats)
}
