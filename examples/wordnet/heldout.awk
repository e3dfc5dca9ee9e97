# heldout.awk: chooses held-out classes over a WordNet-built dataset by a fixed rule and writes
# their gt/ and query/ files for the dataset's own entity ids (heldout.sh; docs/quality.md
# "Held-out classes"). Reads no WordNet file itself: wordnet.awk's mode=instances output.
#
# Usage: awk -v out=DIR [-v min_members=15 -v max_dev_share=0.1 -v dup_share=0.5
#            -v max_classes=20 -v queries=5 -v seed=20220711] -f heldout.awk \
#            part=entities entity2id.txt part=mentions mentions.tsv part=dev GT... \
#            part=senses senses.tsv part=instances instances.tsv
#   entity2id.txt  name<TAB>id (the dataset's)     mentions.tsv  id<TAB>mentions
#   GT             the dataset's gt/<class>.txt files (id<TAB>name<TAB>label): the classes the
#                  defaults were chosen on
#   senses.tsv, instances.tsv: wordnet.awk -v mode=instances
# Writes DIR/gt/<class>.txt (id<TAB>name<TAB>1, by id), DIR/query/<class>.txt (seed ids, 3 a
# line) and DIR/classes.tsv (a line per class: name, synset, members, mentions, seed-eligible
# members, seed pool), and on stdout the rule's log.
#
# The rule. A member of the noun synset C is an entity whose name is a lemma of an instance of C
# or of one of C's hyponyms. C is a candidate when it has >= min_members members, at most
# max_dev_share of them are members of a dev class (GT, label >= 1), and >= min_members (and >= 3)
# of them are seed-eligible: every noun sense of the name is an instance below C. Two candidates are
# near-duplicates when they share more than dup_share of the smaller one's members; the
# candidates are taken from the smallest to the largest (ties by offset) and one is dropped when
# it is a near-duplicate of one already taken, so a chain such as event > military action >
# battle keeps its most specific member. Of those taken, the max_classes largest are the
# held-out classes (ties by offset). Queries, as the dev set's: `queries` seed sets of 3 drawn
# from the seed pool, the max(15, a third) most-mentioned seed-eligible members (ties by id), by
# a fixed-seed shuffle (Park-Miller, the same in every awk); no seed twice in a class before the
# pool is used up, no two seeds of a set from one synset.

BEGIN {
    if (out == "") { print "heldout.awk: set -v out=DIR" > "/dev/stderr"; exit 2 }
    if (min_members == "") min_members = 15
    if (max_dev_share == "") max_dev_share = 0.1
    if (dup_share == "") dup_share = 0.5
    if (max_classes == "") max_classes = 20
    if (queries == "") queries = 5
    if (seed == "") seed = 20220711
    FS = "\t"
}

part == "entities" { id[$1] = $2; name_of[$2] = $1; next }
part == "mentions" { count[$1] = $2; next }
part == "dev" { if ($3 >= 1) dev[$1] = 1; next }
part == "senses" { senses[$1] = $2; next }
part == "instances" {
    if (!($4 in id)) next
    c = $1; e = id[$4]
    if (!(c in lemma)) { lemma[c] = $2; cand[++ncand] = c }
    if (!((c, e) in syn)) { syn[c, e] = $3; mem[c] = mem[c] " " e; n[c]++; }
    if (!((c, e, $3) in seen_sense)) { seen_sense[c, e, $3] = 1; in_class[c, e]++ }
    next
}
{ print "heldout.awk: " FILENAME ": line " FNR ": no part=... before this file" > "/dev/stderr"; exit 3 }

# sorts idx[1..k] by key[] ascending (dir 1) or descending (dir -1), ties by tie[] ascending
function sort_by(idx, k, key, tie, dir,    i, j, v) {
    for (i = 2; i <= k; i++) {
        v = idx[i]
        for (j = i - 1; j >= 1 && (dir * (key[idx[j]] - key[v]) > 0 || (key[idx[j]] == key[v] && tie[idx[j]] > tie[v])); j--)
            idx[j + 1] = idx[j]
        idx[j + 1] = v
    }
}

function next_random() { rng = (rng * 16807) % 2147483647; return rng }

function string_hash(s,    h, i) {
    h = 0
    for (i = 1; i <= length(s); i++) h = (h * 31 + index(chars, substr(s, i, 1))) % 2147483647
    return h
}

function file_name(c,    s) {
    s = tolower(lemma[c]); gsub(/[^a-z0-9]+/, "_", s)
    return (s in used_name) ? s "_" c : s
}

# query/<class>.txt of the chosen class c, from its seed-eligible members
function write_queries(c, file,    k, m, e, ne, elig, pool, perm, used, q, j, t, set, picked, cls, i) {
    ne = split(mem[c], m, " ")
    k = 0
    for (i = 1; i <= ne; i++) {
        e = m[i]
        if (in_class[c, e] == senses[name_of[e]]) { elig[++k] = e; mkey[e] = count[e] + 0; mtie[e] = e + 0 }
    }
    sort_by(elig, k, mkey, mtie, -1)
    pool = int((k + 2) / 3); if (pool < 15) pool = 15; if (pool > k) pool = k
    rng = (seed + string_hash(file)) % 2147483646 + 1
    used = pool
    printf "" > (out "/query/" file ".txt")
    for (q = 1; q <= queries; q++) {
        if (used + 3 > pool) {
            for (i = 1; i <= pool; i++) perm[i] = elig[i]
            for (i = pool; i > 1; i--) { j = next_random() % i + 1; t = perm[i]; perm[i] = perm[j]; perm[j] = t }
            used = 0
        }
        split("", set); picked = ""
        for (i = 1; i <= 3; i++) {
            for (j = used + 1; j < pool && ((c SUBSEP syn[c, perm[j]]) in set); j++) ;
            t = perm[used + 1]; perm[used + 1] = perm[j]; perm[j] = t
            e = perm[++used]; set[c SUBSEP syn[c, e]] = 1
            picked = picked (i > 1 ? " " : "") e
        }
        print picked > (out "/query/" file ".txt")
    }
    close(out "/query/" file ".txt")
    eligible = k; seed_pool = pool
}

END {
    chars = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~"
    # candidates
    for (i = 1; i <= ncand; i++) {
        c = cand[i]
        if (n[c] < min_members) continue
        nbig++
        ne = split(mem[c], m, " "); d = 0; k = 0
        for (j = 1; j <= ne; j++) { d += (m[j] in dev); k += (in_class[c, m[j]] == senses[name_of[m[j]]]) }
        if (d > max_dev_share * n[c]) { ndev++; continue }
        if (k < min_members || k < 3) { nfew++; continue }
        ok[++nok] = c; size[c] = n[c]; off[c] = c + 0
    }
    # near-duplicates: the smaller (more specific) one stays
    sort_by(ok, nok, size, off, 1)
    for (i = 1; i <= nok; i++) {
        c = ok[i]; ne = split(mem[c], m, " "); dup = ""
        for (a = 1; a <= ntaken && dup == ""; a++) {
            shared = 0
            for (j = 1; j <= ne; j++) shared += ((taken[a], m[j]) in syn)
            if (shared > dup_share * n[taken[a]]) dup = taken[a]
        }
        if (dup == "") taken[++ntaken] = c
        else ndup++
    }
    # the largest max_classes of those taken
    sort_by(taken, ntaken, size, off, -1)
    printf "synsets\t%d with a member among the entities, %d with >= %d\ndropped\t%d (dev share > %s), %d (< %d seed-eligible), %d (near-duplicates)\ntaken\t%d, the largest %d kept\n",
           ncand, nbig + 0, min_members, ndev + 0, max_dev_share, nfew + 0, (min_members < 3 ? 3 : min_members), ndup + 0, ntaken, (ntaken > max_classes ? max_classes : ntaken)
    system("mkdir -p '" out "/gt' '" out "/query'")
    printf "class\tsynset\tlemma\tmembers\tmentions\tseed_eligible\tseed_pool\n" > (out "/classes.tsv")
    for (i = 1; i <= ntaken && i <= max_classes; i++) {
        c = taken[i]; f = file_name(c); used_name[f] = 1
        ne = split(mem[c], m, " "); total = 0
        for (j = 1; j <= ne; j++) { gkey[m[j]] = m[j] + 0; total += count[m[j]] }
        sort_by(m, ne, gkey, gkey, 1)
        for (j = 1; j <= ne; j++) print m[j] "\t" name_of[m[j]] "\t1" > (out "/gt/" f ".txt")
        close(out "/gt/" f ".txt")
        write_queries(c, f)
        printf "%s\tn%s\t%s\t%d\t%d\t%d\t%d\n", f, c, lemma[c], n[c], total, eligible, seed_pool > (out "/classes.tsv")
        printf "class\t%s\tn%s\t%d members\n", f, c, n[c]
    }
    close(out "/classes.tsv")
}
