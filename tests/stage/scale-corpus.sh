# scale-corpus: dev/bench/scale_corpus (make bench-scale's corpus) on the first 3,000
# sentences of mini-ese — three copies: ids, names, gt and queries as documented; each copy's words outside mentions are
# a permutation of copy 0's (same frequency spectrum, half of the vocabulary moved, a word
# replaced by one of similar frequency rank); deterministic; tokenize reads the output;
# bad input is exit 3 and leaves nothing.
source "$(dirname "$0")/lib.sh"
GEN=$PROBEXPAN_TESTBIN/../bench/scale_corpus
DATA=$SHARED/data/mini-ese.tar.gz
if ! need_shared || [ ! -f "$DATA" ]; then skip copies "no ../shared/data/mini-ese.tar.gz"; exit 0; fi
if [ ! -x "$GEN" ]; then skip copies "no $GEN (make all builds it)"; exit 0; fi
tar -xzf "$DATA" -C "$WORK"
IN=$WORK/mini-ese
head -n 3000 "$IN/sentences.json" >"$WORK/s" && mv "$WORK/s" "$IN/sentences.json"
check generate "$GEN" --quiet --copies 3 --out "$WORK/x3" "$IN"
X=$WORK/x3
n=$(wc -l <"$IN/entity2id.txt") s=$(wc -l <"$IN/sentences.json")
stride=$(( $(cut -f2 "$IN/entity2id.txt" | sort -n | tail -n 1) + 1 ))
check entities_tripled [ "$(wc -l <"$X/entity2id.txt")" -eq $((3 * n)) ]
check ids_unique [ "$(cut -f2 "$X/entity2id.txt" | sort -u | wc -l)" -eq $((3 * n)) ]
e=$(head -n 1 "$IN/entity2id.txt")
check copy2_entity grep -qxF "$(printf '%s_2\t%s' "${e%%$'\t'*}" $(( ${e##*$'\t'} + 2 * stride )))" "$X/entity2id.txt"
check sentences_tripled [ "$(wc -l <"$X/sentences.json")" -eq $((3 * s)) ]
check queries_of_copy0 diff -r "$IN/query" "$X/query"
g=$(ls "$IN/gt" | head -n 1)
check gt_every_copy [ "$(wc -l <"$X/gt/$g")" -eq $((3 * $(wc -l <"$IN/gt/$g"))) ]
# the words outside mentions of copy c, one a line
words() { sed -n "$(($1 * s + 1)),$((($1 + 1) * s))p" "$X/sentences.json" |
    jq -r '. as $x | [$x.entityMentions[] | range(.start; .end + 1)] as $m
           | $x.tokens | to_entries[] | select(.key as $k | $m | index($k) | not) | .value'; }
words 0 >"$WORK/w0"; words 1 >"$WORK/w1"
spectrum() { sort "$1" | uniq -c | awk '{ print $1 }' | sort -n; }
check same_frequency_spectrum cmp -s <(spectrum "$WORK/w0") <(spectrum "$WORK/w1")
moved=$(paste "$WORK/w0" "$WORK/w1" | awk -F'\t' '$1 != $2 { m[$1] = 1 } { t[$1] = 1 }
    END { print int(100 * length(m) / length(t)) }')
if [ "$moved" -ge 30 ] && [ "$moved" -le 50 ]; then pass half_moved; else fail half_moved "$moved% of the words moved"; fi
# a moved word's replacement has a similar frequency: within a factor 3 for words seen 10+ times
far=$(paste "$WORK/w0" "$WORK/w1" | awk -F'\t' 'NR == FNR { c[$1]++; next } $1 != $2 && c[$1] >= 10 && !seen[$1]++ {
    r = c[$1] / c[$2]; n++; if (r > 3 || r < 1 / 3) f++ } END { print (n ? f / n : 1) }' "$WORK/w0" - )
if awk -v f="$far" 'BEGIN { exit !(f < 0.1) }'; then pass similar_frequency; else fail similar_frequency "$far of frequent moved words far in frequency"; fi
check mention_renamed grep -q '"text":"[^"]*_1"' <(sed -n "$((s + 1)),$((2 * s))p" "$X/sentences.json")
check deterministic_gen "$GEN" --quiet --copies 3 --out "$WORK/x3b" "$IN"
check deterministic diff -r "$X" "$WORK/x3b"
check tokenize_reads tokenize --quiet "$X" --learn-vocab 2000 --vocab-out "$WORK/v.txt" --out "$WORK/c.mp"
mkdir -p "$WORK/bad/gt" "$WORK/bad/query"
cp "$IN/entity2id.txt" "$WORK/bad/"
printf '{"tokens": ["a"], "entityMentions": [{"start": 0, "end": 3, "entityId": 0}]}\n' >"$WORK/bad/sentences.json"
cp "$IN/gt/$g" "$WORK/bad/gt/"; cp "$IN/query/$g" "$WORK/bad/query/"
expect_exit bad_span 3 'bad:sentences.json: line 1: entityMentions\[0\]: expected start' "$GEN" --quiet --copies 2 --out "$WORK/xb" "$WORK/bad"
check bad_leaves_nothing [ -z "$(ls -d "$WORK"/xb* 2>/dev/null)" ]
expect_exit out_exists 2 'exists' "$GEN" --quiet --copies 2 --out "$X" "$IN"
# a malformed gt line is found while the output is being written: the partial folder goes
cp "$IN/sentences.json" "$WORK/bad/sentences.json"
printf 'not a gt line\n' >>"$WORK/bad/gt/$g"
expect_exit bad_gt 3 "gt/$g: line $(wc -l <"$WORK/bad/gt/$g")" "$GEN" --quiet --copies 2 --out "$WORK/xg" "$WORK/bad"
check bad_gt_leaves_nothing [ -z "$(ls -d "$WORK"/xg* 2>/dev/null)" ]
