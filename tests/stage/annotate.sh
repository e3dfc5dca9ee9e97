# annotate: sentence splitting, longest match, aliases, case, --min-mentions,
# --max-words, inputs (files, --lines/--ids, stdin, archives), input formats
# (--format: detection, plain/lines/dictd/markdown/html, link markup), .tar.gz output,
# gt/queries, every bad-input case (exit 3, message, no partial output), and the
# WordNet example builder on the hand-written fake WordNet in tests/fixtures/wordnet.
# All expectations below are worked out by hand from the texts written here.
source "$(dirname "$0")/lib.sh"
FX=$PROBEXPAN_ROOT/tests/fixtures/wordnet
cd "$WORK" || exit 1
mkdir o
ann() { annotate --quiet "$@"; }
# compact JSON of a file (one object per line) for exact comparisons
js() { jq -c . "$1"; }

# --- splitting, tokens, longest match, aliases --------------------------------
printf 'New York\tNYC\tBig Apple\nYork\nNew York City\nDr. Smith\nU.S.\tUnited States\nElizabeth\n' >ents.tsv
cat >a.txt <<'EOF'
Dr. Smith moved from York to New York City in 1990. He loved the Big Apple! The U.S. Army
came to NYC. Elizabeth's reign began in 1558.

Nobody lives here. "Is New York big?" she asked.
EOF
cat >expect.json <<'EOF'
{"articleId":"a.txt","sentId":0,"tokens":["Dr.","Smith","moved","from","York","to","New","York","City","in","1990","."],"entityMentions":[{"start":0,"end":1,"entityId":3,"text":"Dr. Smith"},{"start":4,"end":4,"entityId":1,"text":"York"},{"start":6,"end":8,"entityId":2,"text":"New York City"}]}
{"articleId":"a.txt","sentId":1,"tokens":["He","loved","the","Big","Apple","!"],"entityMentions":[{"start":3,"end":4,"entityId":0,"text":"Big Apple"}]}
{"articleId":"a.txt","sentId":2,"tokens":["The","U.S.","Army","came","to","NYC","."],"entityMentions":[{"start":1,"end":1,"entityId":4,"text":"U.S."},{"start":5,"end":5,"entityId":0,"text":"NYC"}]}
{"articleId":"a.txt","sentId":3,"tokens":["Elizabeth","'s","reign","began","in","1558","."],"entityMentions":[{"start":0,"end":0,"entityId":5,"text":"Elizabeth"}]}
{"articleId":"a.txt","sentId":4,"tokens":["\"","Is","New","York","big","?","\"","she","asked","."],"entityMentions":[{"start":2,"end":3,"entityId":0,"text":"New York"}]}
EOF
if annotate --entities ents.tsv --out o/d1 a.txt 2>err && [ "$(js o/d1/sentences.json)" = "$(cat expect.json)" ]; then
    pass split_longest_match_aliases; else fail split_longest_match_aliases "$(tail -n 2 err; js o/d1/sentences.json 2>&1 | head -n 3)"; fi
[ "$(cat o/d1/entity2id.txt)" = "$(printf 'New York\t0\nYork\t1\nNew York City\t2\nDr. Smith\t3\nU.S.\t4\nElizabeth\t5')" ] &&
    pass entity2id_written || fail entity2id_written "$(cat o/d1/entity2id.txt)"
grep -q 'done: 1 documents, 5 sentences kept, 8 mentions, 6 entities kept, 0 dropped' err &&
    pass summary_line || fail summary_line "$(tail -n 1 err)"

[ "$(cat o/d1/aliases.txt)" = "$(printf 'New York\tNYC\tBig Apple\nU.S.\tUnited States')" ] &&
    pass aliases_written || fail aliases_written "$(cat o/d1/aliases.txt)"
# '#' starts a comment: a comment line, and fields from a '#' field on (the names file discovery writes)
printf '# reviewed list\nYork\t# 2 mentions\tfrom York to\nNew York\tNYC\t#\tBig Apple\n' >comm.tsv
ann --entities comm.tsv --out o/comm a.txt
[ "$(cut -f1 o/comm/entity2id.txt | tr '\n' ,)" = 'York,New York,' ] && [ "$(cat o/comm/aliases.txt)" = "$(printf 'New York\tNYC')" ] &&
    pass names_file_comments || fail names_file_comments "$(cat o/comm/entity2id.txt o/comm/aliases.txt)"

# --- case ----------------------------------------------------------------------
printf 'Texas\n' >tx.tsv
printf 'texas TEXAS Texas.\n' >tx.txt
ann --entities tx.tsv --out o/cs tx.txt && ann --ignore-case --entities tx.tsv --out o/ci tx.txt
[ "$(jq -c '[.entityMentions[] | [.start, .text]]' o/cs/sentences.json)" = '[[2,"Texas"]]' ] &&
    pass case_sensitive_default || fail case_sensitive_default
[ "$(jq -c '[.entityMentions[] | [.start, .text]]' o/ci/sentences.json)" = '[[0,"texas"],[1,"TEXAS"],[2,"Texas"]]' ] &&
    pass ignore_case || fail ignore_case
# an existing output folder is replaced as a whole
ann --ignore-case --entities tx.tsv --out o/cs tx.txt
[ "$(jq -c '[.entityMentions[].start]' o/cs/sentences.json)" = '[0,1,2]' ] && pass out_folder_replaced || fail out_folder_replaced

# --- min-mentions, entity2id input, max-words -------------------------------------
printf 'Ohio\nIowa\nUtah\n' >st.tsv
printf 'Ohio and Iowa met. Ohio again. Utah alone. Iowa too.\n' >st.txt
annotate --min-mentions 2 --entities st.tsv --out o/mm st.txt 2>err
if [ "$(cat o/mm/entity2id.txt)" = "$(printf 'Ohio\t0\nIowa\t1')" ] &&
   [ "$(jq -c '[.sentId, [.entityMentions[].entityId]]' o/mm/sentences.json | tr -d '\n')" = '[0,[0,1]][1,[0]][2,[1]]' ] &&
   grep -q '3 sentences kept, 4 mentions, 2 entities kept, 1 dropped' err; then
    pass min_mentions; else fail min_mentions "$(tail -n 1 err)"; fi
mkdir e2i && printf 'Ohio\t7\nIowa\t3\nUtah\t9\n' >e2i/entity2id.txt
ann --entities e2i/entity2id.txt --out o/e2i st.txt
[ "$(cat o/e2i/entity2id.txt)" = "$(printf 'Iowa\t3\nOhio\t7\nUtah\t9')" ] &&
   [ "$(jq -c '[.entityMentions[].entityId]' o/e2i/sentences.json | tr -d '\n')" = '[7,3][7][9][3]' ] &&
    pass entity2id_input_keeps_ids || fail entity2id_input_keeps_ids
printf 'Ohio is a state with many words in this one. Ohio is short.\n' >long.txt
ann --max-words 5 --entities st.tsv --out o/mt long.txt
[ "$(jq -c .tokens o/mt/sentences.json)" = '["Ohio","is","short","."]' ] && pass max_words || fail max_words

# --- inputs: --lines/--ids on stdin, archives; output archive ---------------------
printf 'doc1\tOhio is here.\ndoc2\tIowa is there. And Ohio.\n\n' | ann --lines --ids --entities st.tsv --out o/ids -
[ "$(jq -c '[.articleId, .sentId]' o/ids/sentences.json | tr -d '\n')" = '["doc1",0]["doc2",1]["doc2",2]' ] &&
    pass lines_ids_stdin || fail lines_ids_stdin
printf 'Ohio is here.\nIowa is there.\n' | ann --lines --entities st.tsv --out o/lines
[ "$(jq -c .articleId o/lines/sentences.json | tr -d '\n')" = '"stdin:1""stdin:2"' ] && pass lines_article_ids || fail lines_article_ids
mkdir -p docs/d && printf 'Ohio is here.\n' >docs/d/a.txt && printf 'Iowa is there.\n' >docs/d/b.txt
tar czf docs.tar.gz -C docs d/a.txt d/b.txt
ann --entities st.tsv --out o/arch.tar.gz docs.tar.gz && ann --entities st.tsv --out o/fold docs
if [ "$(tar tzf o/arch.tar.gz | sort | tr '\n' ' ')" = 'arch/entity2id.txt arch/sentences.json ' ] &&
   [ "$(tar xzOf o/arch.tar.gz arch/sentences.json | jq -c .articleId | tr -d '\n')" = '"docs.tar.gz:d/a.txt""docs.tar.gz:d/b.txt"' ] &&
   [ "$(jq -c .articleId o/fold/sentences.json | tr -d '\n')" = '"docs/d/a.txt""docs/d/b.txt"' ]; then
    pass archive_in_and_out; else fail archive_in_and_out "$(tar tzf o/arch.tar.gz | tr '\n' ' ')"; fi

# a two-byte character across the 64 KiB read boundary is neither an error nor lost
printf 'Z\303\274rich\n' >zu.tsv
{ printf '%65534s' ''; printf 'Z\303\274rich is here.\n'; } >zu.txt
ann --entities zu.tsv --out o/zu zu.txt && [ "$(jq -c '.entityMentions[0].text' o/zu/sentences.json)" = '"Z\u00fcrich"' -o \
    "$(jq -r '.entityMentions[0].text' o/zu/sentences.json)" = "$(printf 'Z\303\274rich')" ] && pass utf8_across_reads || fail utf8_across_reads

# --- classes: gt and queries -----------------------------------------------------
# mentions: Oregon 5, Ohio 4, Iowa 3, Utah 2, Texas 1; ids in list order
printf 'Texas\nUtah\nIowa\nOhio\nOregon\n' >cl.tsv
rep() { for _ in $(seq "$2"); do printf '%s is here. ' "$1"; done; }
{ rep Oregon 5; rep Ohio 4; rep Iowa 3; rep Utah 2; rep Texas 1; echo; } >cl.txt
mkdir classes && printf 'Oregon\nOhio\nIowa\nUtah\nTexas\nAtlantis\n' >classes/states.txt && printf 'Atlantis\n' >classes/myths.txt
annotate --classes classes --queries 4 --seed-pool 3 --random-seed 5 --entities cl.tsv --out o/c1 cl.txt 2>err
ann --classes classes --queries 4 --seed-pool 3 --random-seed 5 --entities cl.tsv --out o/c2 cl.txt 2>/dev/null
[ "$(cat o/c1/gt/states.txt)" = "$(printf '0\tTexas\t1\n1\tUtah\t1\n2\tIowa\t1\n3\tOhio\t1\n4\tOregon\t1')" ] &&
    pass gt_written || fail gt_written "$(cat o/c1/gt/states.txt)"
# every query: 3 distinct seeds, all among the 3 most-mentioned (Iowa 2, Ohio 3, Oregon 4)
if [ "$(wc -l <o/c1/query/states.txt)" -eq 4 ] &&
   awk '{ split($0, s, " "); if (NF != 3) exit 1; for (i = 1; i <= 3; i++) { if (s[i] < 2 || s[i] > 4) exit 1; for (j = 1; j < i; j++) if (s[i] == s[j]) exit 1 } }' o/c1/query/states.txt &&
   cmp -s o/c1/query/states.txt o/c2/query/states.txt; then
    pass queries_from_top_members_deterministic; else fail queries_from_top_members_deterministic "$(cat o/c1/query/states.txt)"; fi
[ ! -e o/c1/gt/myths.txt ] && grep -q 'class myths: 0 member' err && pass small_class_skipped || fail small_class_skipped

# --- input formats: detected per document, logged; markup stripped, links kept --------
# hard-wrapped prose: a sentence across line breaks stays whole (--lines cuts it at every line)
cat >wrapped.txt <<'EOF2'
The state of Ohio lies east of Iowa and its largest city is Columbus which
sits on the Scioto River near the middle of the state and has grown for two
hundred years while Utah lies far to the west of both of them beyond the wide
plains of Nebraska and the mountains of Colorado where the rivers run west to
the sea and the sun sets late in the summer over the long and quiet valleys
of the desert. Iowa grows corn.
EOF2
annotate --entities st.tsv --out o/wr wrapped.txt 2>err
[ "$(jq -c '[(.tokens | length), [.entityMentions[].text]]' o/wr/sentences.json | tr -d '\n')" = '[81,["Ohio","Iowa","Utah"]][4,["Iowa"]]' ] &&
   grep -q 'wrapped\.txt: format plain (detected: 5 of 5 line breaks end a full line of 77 columns: hard-wrapped text)' err &&
    pass format_plain_wrapped || fail format_plain_wrapped "$(grep format err; jq -c '.tokens | length' o/wr/sentences.json | tr '\n' ' ')"
ann --lines --entities st.tsv --out o/wrl wrapped.txt
[ "$(jq -c '.tokens | length' o/wrl/sentences.json | tr '\n' ' ')" = '15 16 4 ' ] && pass format_lines_cuts_wrapped || fail format_lines_cuts_wrapped
# one sentence per line, the last words of a line with no final stop: each line its own document
printf 'Ohio in the east\nIowa in the middle of the country with corn\nUtah in the west\nOhio again\nIowa and Utah\nthe end of the list\n' >perline.txt
annotate --entities st.tsv --out o/pl perline.txt 2>err
[ "$(jq -c .articleId o/pl/sentences.json | tr '\n' ' ')" = '"perline.txt:1" "perline.txt:2" "perline.txt:3" "perline.txt:4" "perline.txt:5" ' ] &&
   grep -q 'perline\.txt: format lines (detected: ' err && pass format_lines_detected || fail format_lines_detected "$(grep format err)"
# dictd: "Headword , Variant : definition", the category tag kept as words, {links} stripped
printf 'Ohio\nIowa\nPascal\nBlaise Pascal\nAT&T\n' >dict.tsv
cat >dict.txt <<'EOF2'
00-database-short
     A test dictionary

Pascal
PASCAL

   <programming language> (After {Blaise Pascal}) A language.
   It was {AT&T}'s rival.

   (1995-01-01)

Ohio

   <state> A state east of {Iowa}.
EOF2
annotate --entities dict.tsv --out o/dict dict.txt 2>err
[ "$(jq -r '.tokens | join(" ")' o/dict/sentences.json)" = "$(printf '%s\n' 'Pascal , PASCAL : programming language ( After Blaise Pascal ) A language .' \
    "It was AT&T 's rival ." 'Ohio : state A state east of Iowa .')" ] &&
   grep -q 'dict\.txt: format dictd (detected: 3 headwords at column 0 followed by indented blocks; {link} markup: 3 links)' err &&
   grep -q 'dictd: 2 entries read as "Headword : definition"' err && grep -q '3 links to 3 distinct names' err &&
    pass format_dictd || fail format_dictd "$(jq -r '.tokens | join(" ")' o/dict/sentences.json; grep -e format -e links err)"
printf '# Ohio\n\nSee [Iowa](https://iowa.gov) and **Utah**.\n\n- Ohio\n- Utah\n\n```\nIowa in code\n```\n' >notes.md
ann --entities st.tsv --out o/md notes.md
[ "$(jq -r '.tokens | join(" ")' o/md/sentences.json | tr '\n' '|')" = 'Ohio|See Iowa and Utah .|Ohio|Utah|' ] && pass format_markdown || fail format_markdown
printf '<html><head><title>Ohio</title><script>var Iowa;</script></head>\n<body><p><a href="x">Iowa</a> &amp; Utah &#233;t&eacute;</p></body></html>\n' >page.html
ann --entities st.tsv --out o/html page.html
[ "$(jq -r '.tokens | join(" ")' o/html/sentences.json | tr '\n' '|')" = 'Ohio|Iowa & Utah été|' ] && pass format_html || fail format_html "$(jq -r '.tokens | join(" ")' o/html/sentences.json)"
# told --format plain, the same file keeps its layout: headwords and definitions apart, the tag as markup
ann --format plain --entities dict.tsv --out o/dplain dict.txt
[ "$(jq -r '.tokens | join(" ")' o/dplain/sentences.json | head -n 2 | tr '\n' '|')" = 'Pascal PASCAL|<programming language> ( After Blaise Pascal ) A language .|' ] &&
    pass format_told_plain || fail format_told_plain "$(jq -r '.tokens | join(" ")' o/dplain/sentences.json | head -n 2)"

# --- bad input: exit 3, message naming file and line, nothing left behind ----------
printf 'Ohio is fine.\nbad \377 byte\n' >bad.txt
expect_exit bad_utf8_text 3 'bad\.txt: line 2, byte 5: invalid UTF-8' annotate --entities st.tsv --out o/x bad.txt
printf 'Ohio\nIow\303\n' >badents.tsv
expect_exit bad_utf8_entities 3 'badents\.tsv: line 2' annotate --entities badents.tsv --out o/x st.txt
printf '\n\n' >empty.tsv
expect_exit empty_entity_list 3 'empty\.tsv: empty entity list' annotate --entities empty.tsv --out o/x st.txt
printf 'Ohio\nOhio State\tOhio\n' >dup.tsv
expect_exit duplicate_name 3 'dup\.tsv: line 2: name "Ohio" already belongs to entity "Ohio" \(line 1\)' \
    annotate --entities dup.tsv --out o/x st.txt
mkdir dupe2i && printf 'Ohio\t1\nOhio\t2\n' >dupe2i/entity2id.txt
expect_exit duplicate_name_entity2id 3 'line 2: duplicate entity name "Ohio"' annotate --entities dupe2i --out o/x st.txt
mkdir -p big/d && for i in $(seq 3000); do echo "Ohio line $i with some words $((i * 7919 % 10007)) and more words $((i * 104729 % 99991))"; done >big/d/big.txt
tar czf big.tar.gz -C big d && head -c "$(($(wc -c <big.tar.gz) / 2))" big.tar.gz >trunc.tar.gz
expect_exit unreadable_archive_member 3 'trunc\.tar\.gz: d/big\.txt: unreadable archive member' \
    annotate --entities st.tsv --out o/x trunc.tar.gz
printf 'no tab here\n' >noids.txt
expect_exit ids_without_tab 3 'noids\.txt: line 1: expected ID<TAB>text' annotate --lines --ids --entities st.tsv --out o/x noids.txt
expect_exit missing_out_is_usage 2 '--out is required' annotate --entities st.tsv st.txt
# input formats (--format, docs/input-formats.md): bad input of any format
printf 'Ohio is here.\n\000\001binary' >bin.dat
expect_exit binary_text 3 'bin\.dat: line 2, byte 1: NUL byte' annotate --entities st.tsv --out o/x bin.dat
: >empty.txt
expect_exit empty_file 3 'empty\.txt: line 1: no text' annotate --entities st.tsv --out o/x empty.txt
printf ' \n\t\n' >blank.txt
expect_exit blank_file 3 'blank\.txt: line 1: no text' annotate --entities st.tsv --out o/x blank.txt
expect_exit empty_stdin 3 'stdin: line 1: no text' annotate --entities st.tsv --out o/x - </dev/null
mkdir -p mixed && printf 'Ohio is here.\n' >mixed/a.txt && : >mixed/b.txt
expect_exit empty_file_in_folder 3 'mixed/b\.txt: line 1: no text' annotate --entities st.tsv --out o/x mixed
# a line of 280,000 bytes (over the reader's 64 KiB pieces and the 256 KiB detection sample):
# streamed, every mention found, in every format; over --max-line it is bad input, in any format
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "Ohio is here. "; print "" }' >longline.txt
for f in auto plain lines dictd markdown html; do
    ann --format $f --entities st.tsv --out o/longline longline.txt
    [ "$(jq -s '[.[].entityMentions | length] | add' o/longline/sentences.json)" = 20000 ] && pass long_line_streamed_$f || fail long_line_streamed_$f
done
for f in plain lines dictd markdown html; do
    expect_exit "long_line_$f" 3 'longline\.txt: line 1: line longer than 100000 bytes' \
        annotate --format $f --max-line 100000 --entities st.tsv --out o/x longline.txt
done
expect_exit format_unknown 2 '--format rtf: expected auto, plain' annotate --format rtf --entities st.tsv --out o/x st.txt
expect_exit format_lines_conflict 2 '--lines is --format lines' annotate --lines --format plain --entities st.tsv --out o/x st.txt
expect_exit format_ids_needs_lines 2 '--ids needs the lines format' annotate --ids --format dictd --entities st.tsv --out o/x st.txt
[ -z "$(ls -A o | grep -v -e '^d1$' -e '^cs$' -e '^ci$' -e '^mm$' -e '^e2i$' -e '^mt$' -e '^ids$' -e '^lines$' -e '^arch.tar.gz$' -e '^fold$' -e '^zu$' -e '^c1$' -e '^c2$' -e '^comm$' -e '^longline$' -e '^wr$' -e '^wrl$' -e '^pl$' -e '^dict$' -e '^md$' -e '^html$' -e '^dplain$' -e '^catalog')" ] &&
    pass no_partial_output || fail no_partial_output "$(ls -A o | tr '\n' ' ')"
annotate --help | grep -q '^e.g.:' && pass help || fail help

# --- the WordNet example builder on the fake WordNet ------------------------------
B=$PROBEXPAN_ROOT/examples/wordnet/build.sh
if sh "$B" --wordnet "$FX" --annotate "$PROBEXPAN_BIN/annotate" --min-mentions 1 --queries 2 --out wn/ds 2>err; then
    pass wordnet_builder_runs; else fail wordnet_builder_runs "$(tail -n 3 err)"; fi
names() { cut -f2 "wn/ds/gt/$1.txt" | sort | tr '\n' ','; }
[ "$(ls wn/ds/gt | tr '\n' ' ')" = 'composers.txt generals.txt national_capitals.txt rivers.txt us_states.txt ' ] &&
    pass wordnet_classes || fail wordnet_classes "$(ls wn/ds/gt | tr '\n' ' ')"
# Washington (city first, also the state's first name) is in both classes; Evergreen
# State is the state synset's own entity; Irving Berlin comes via the hyponym songwriter;
# "general" resolves to the officer sense (the one with instances).
[ "$(names us_states)" = 'Evergreen State,Iowa,Ohio,Texas,Washington,' ] &&
   [ "$(names national_capitals)" = 'Berlin,Paris,Washington,' ] &&
   [ "$(names composers)" = 'Bach,Berlin,Irving Berlin,Mozart,' ] &&
   [ "$(names rivers)" = 'Mississippi River,Ohio,Ohio River,' ] &&
   [ "$(names generals)" = 'Grant,Lee,Sherman,' ] && pass wordnet_members || fail wordnet_members "$(names us_states) $(names composers)"
# class_names=all (bench-discover.sh): every capitalised lemma of a member synset, also one
# that is no entity name (TX, two letters: owned by no entity) or that an earlier synset owns;
# without it only the first lemma and the owned ones
mkdir -p wn/own/classes wn/all/classes
awk -v out=wn/own -f "$PROBEXPAN_ROOT/examples/wordnet/wordnet.awk" "$FX/data.noun" >/dev/null
awk -v out=wn/all -v class_names=all -f "$PROBEXPAN_ROOT/examples/wordnet/wordnet.awk" "$FX/data.noun" >/dev/null
[ "$(sort wn/own/classes/us_states.txt | tr '\n' ,)" = 'Buckeye State,Evergreen State,Hawkeye State,Iowa,Lone Star State,Ohio,Texas,Washington,' ] &&
    [ "$(comm -13 <(sort wn/own/classes/us_states.txt) <(sort wn/all/classes/us_states.txt) | tr '\n' ,)" = 'IA,OH,TX,WA,' ] &&
    diff -q wn/own/classes/composers.txt wn/all/classes/composers.txt >/dev/null &&
    pass wordnet_class_names_all || fail wordnet_class_names_all "$(tr '\n' , <wn/all/classes/us_states.txt)"
# entities: capitalised noun lemmas; not taxa (Canis), common words (March: "march"
# is frequent), names with digits (B-52) or of <= 2 characters (IA); aliases are no entities
cut -f1 wn/ds/entity2id.txt >wn/names
if grep -qx 'Ohio River' wn/names && grep -qx 'Irving Berlin' wn/names && grep -qx 'American state' wn/names &&
   ! grep -qx -e Canis -e March -e B-52 -e IA -e 'Hawkeye State' -e 'Israel Baline' wn/names && [ "$(wc -l <wn/names)" -eq 18 ]; then
    pass wordnet_entities; else fail wordnet_entities "$(tr '\n' ',' <wn/names)"; fi
iowa=$(awk -F'\t' '$1 == "Iowa" { print $2 }' wn/ds/entity2id.txt)
ohio=$(awk -F'\t' '$1 == "Ohio" { print $2 }' wn/ds/entity2id.txt)
river=$(awk -F'\t' '$1 == "Ohio River" { print $2 }' wn/ds/entity2id.txt)
got=$(jq -c 'select(.articleId == "wn:n00003300" and .tokens[0] == "the") | [.tokens, .entityMentions]' wn/ds/sentences.json)
[ "$got" = '[["the","Hawkeye","State","grows","corn"],[{"start":1,"end":2,"entityId":'"$iowa"',"text":"Hawkeye State"}]]' ] &&
    pass wordnet_alias_sentence || fail wordnet_alias_sentence "$got"
got=$(jq -c 'select(.articleId == "wn:n00003400" and .tokens[0] == "the") | [.entityMentions[] | [.start, .end, .entityId]]' wn/ds/sentences.json)
[ "$got" = "[[1,2,$river],[5,5,$ohio]]" ] && pass wordnet_longest_match || fail wordnet_longest_match "$got"
[ "$(jq -c 'select(.articleId == "wn:n00003100") | .tokens | join(" ")' wn/ds/sentences.json | sed -n '2,3p' | tr -d '\n')" = \
  '"Dr. Smith moved to Paris in 1990 .""He loved the City of Light ."' ] && pass wordnet_example_split || fail wordnet_example_split
expect_exit wordnet_missing 3 'data\.noun: not found' sh "$B" --wordnet "$WORK/nowhere" --annotate "$PROBEXPAN_BIN/annotate" --out wn/none
if [ -x "$PROBEXPAN_BIN/tokenize" ]; then
    check wordnet_dataset_tokenizes tokenize wn/ds --learn-vocab 200 --out wn/corpus.mp --quiet
else skip wordnet_dataset_tokenizes "tokenize not built"; fi
