# values.sh: what the programs read is checked for sense, not only for shape — dists rows
# (finite probabilities summing to 1, checked where a row is used), the checksum trailer
# (inspect --verify), query lines, ground truth, seed lists, option ranges — and every
# refusal exits 2/3 with a message naming the file and the position, leaving no output.
source "$(dirname "$0")/lib.sh"
FX=$PROBEXPAN_ROOT/tests/fixtures/expansion
DATA=$FX/tiny
td() { "$PROBEXPAN_TESTBIN/test_dists" "$@"; }
td --write "$WORK/a.mp" <"$FX/model-a.txt" || { fail fixtures "cannot build the dists"; exit 0; }

# --- dists values: a damaged row is refused where it is used (row 0 = Ohio, a seed)
for v in nan inf -0.5 1e30 0.9; do
    cp "$WORK/a.mp" "$WORK/bad.mp"
    td --poke "$WORK/bad.mp" mean_prob 0 1 "$v"
    expect_exit "expand_prob_$v" 3 'bad\.mp: byte [0-9]+: mean_prob row 0: (column 1 is|sums to)' \
        expand --dists "$WORK/bad.mp" --seeds Ohio,Texas --out "$WORK/x.mp"
done
check expand_bad_row_no_output test ! -e "$WORK/x.mp"
expect_exit score_models_bad_row 3 'bad\.mp: byte [0-9]+: mean_prob row 0: ' \
    score-models --queries "$DATA" --top 1 --ensemble "$WORK/ens.mp" --out "$WORK/s.mp" "$WORK/a.mp" "$WORK/bad.mp"
check score_models_bad_row_no_output test ! -e "$WORK/s.mp" -a ! -e "$WORK/ens.mp"
# rows never touched are not checked: the cities query reads no state row
td --poke "$WORK/bad.mp" mean_prob 0 1 nan
expect_exit untouched_rows_ok 0 '' expand --dists "$WORK/bad.mp" --seeds Chicago,Boston --size 2 --out "$WORK/c.mp"

# --- checksum trailer
if inspect --verify "$WORK/a.mp" >"$WORK/v" 2>&1 && grep -q 'a\.mp: ok (checksum matches, every row is a distribution)' "$WORK/v"; then
    pass verify_ok; else fail verify_ok "$(cat "$WORK/v")"; fi
expect_exit verify_changed_byte 3 'bad\.mp: byte [0-9]+: checksum mismatch' inspect --verify "$WORK/bad.mp"
# a file written before checksums (no trailer) is still read; --verify says it cannot check it
cp "$WORK/a.mp" "$WORK/old.mp"
truncate -s -105 "$WORK/old.mp"
expect_exit old_file_readable 0 '' expand --dists "$WORK/old.mp" --seeds Ohio,Texas --size 2 --out "$WORK/o.mp"
expect_exit old_file_verify 3 'old\.mp: no checksum trailer' inspect --verify "$WORK/old.mp"

# --- query lines, seeds and negatives
printf 'Ohio,Texas\n , \n' >"$WORK/commas.txt"
expect_exit query_line_only_commas 3 'commas\.txt: line 2: no seed entities' \
    expand --dists "$WORK/a.mp" --queries "$WORK/commas.txt" --out "$WORK/x.mp"
expect_exit seed_also_negative 2 '--negative-seeds: "Texas" is also a seed of seeds query 1' \
    expand --dists "$WORK/a.mp" --seeds Ohio,Texas --negative-seeds Utah,Texas --out "$WORK/x.mp"
# 200,000 repeated seeds: linear, one warning line
awk 'BEGIN { for (i = 0; i < 200000; i++) printf "%s%d", (i ? " " : ""), 10 + i % 3; print "" }' >"$WORK/long.txt"
if timeout 60 expand --dists "$WORK/a.mp" --queries "$WORK/long.txt" --size 2 --out "$WORK/long.mp" 2>"$WORK/err" &&
    [ "$(grep -c 'given more than once' "$WORK/err")" = 1 ]; then pass long_repeated_list; else fail long_repeated_list "$(head -c 300 "$WORK/err")"; fi
# more than 1,000 distinct seeds in one query
awk 'BEGIN { n = 1100; print n; for (i = 0; i < n; i++) print i "\te" i
             for (i = 0; i < n; i++) { for (j = 0; j < n; j++) printf "%s%g", (j ? " " : ""), 1 / n; print "" } }' |
    td --write "$WORK/big.mp"
awk 'BEGIN { for (i = 0; i < 1001; i++) printf "%s%d", (i ? " " : ""), i; print "" }' >"$WORK/many.txt"
expect_exit too_many_seeds 3 'many\.txt: many query 1: 1001 distinct seeds, at most 1000' \
    expand --dists "$WORK/big.mp" --queries "$WORK/many.txt" --out "$WORK/x.mp"

# --- rerank takes expansions, not a ranking
expand --quiet --dists "$WORK/a.mp" --queries "$DATA" --size 2 --out "$WORK/exp.mp" &&
    rerank --quiet --dists "$WORK/a.mp" --out "$WORK/ranked.mp" "$WORK/exp.mp" || fail setup "expand/rerank"
expect_exit rerank_of_ranked 3 'ranked\.mp: header: kind "ranked": expected the "expansions"' \
    rerank --dists "$WORK/a.mp" --out "$WORK/r2.mp" "$WORK/ranked.mp"

# --- ground truth: a repeated member or an unknown eid
cp -r "$DATA" "$WORK/dup"
printf '11\tTexas\t1\n' >>"$WORK/dup/gt/states.txt"
last=$(wc -l <"$WORK/dup/gt/states.txt")
expect_exit gt_duplicate 3 "gt/states\\.txt: line $last: duplicate eid 11 \\(first on line 2\\)" \
    evaluate --gt "$WORK/dup" "$WORK/ranked.mp"
cp -r "$DATA" "$WORK/unk"
printf '99\tAtlantis\t1\n' >>"$WORK/unk/gt/cities.txt"
expect_exit gt_unknown_eid 3 'gt/cities\.txt: line [0-9]+: eid 99 is not an entity of entity2id\.txt' \
    evaluate --gt "$WORK/unk" "$WORK/ranked.mp"

# --- empty inputs: sentences.json without sentences, annotate keeping no entity
mkdir "$WORK/empty"
printf 'Ohio\t0\n' >"$WORK/empty/entity2id.txt"
printf '\n  \n' >"$WORK/empty/sentences.json"
expect_exit empty_sentences 3 'sentences\.json: no sentences' tokenize "$WORK/empty" --learn-vocab 100 --out "$WORK/corpus.mp"
check empty_sentences_no_output test ! -e "$WORK/corpus.mp"
printf 'Ohio\n' >"$WORK/names.tsv"
printf 'Ohio is a state. Texas is too.\n' >"$WORK/t.txt"
expect_exit annotate_no_entity_kept 3 't\.txt: no entity of .*names\.tsv is mentioned --min-mentions 5 times \(the most mentioned: 1\)' \
    annotate --entities "$WORK/names.tsv" --min-mentions 5 --out "$WORK/ann" "$WORK/t.txt"
check annotate_no_entity_no_output test ! -e "$WORK/ann"

# --- option ranges that used to blame the wrong thing
expect_exit temperature_range 2 '--cl-temperature: 1e-6 is out of range \[0.01, 1000\]' \
    train-cl --cl-temperature 1e-6 --samples "$WORK/a.mp" --pairs "$WORK/a.mp" --out "$WORK/cl"
expect_exit threads_range 2 '--threads: 1024 is out of range \[0, 64\]' \
    expand --threads 1024 --dists "$WORK/a.mp" --seeds Ohio,Texas --out "$WORK/x.mp"
