# Reliability guarantees (docs/reliability.md): hostile artifacts are rejected
# with exit 3 instead of crashing; outputs never replace inputs, the catalog,
# non-regular files or folders the program did not write; several outputs are
# committed together or not at all; non-regular inputs never hang a reader.
source "$(dirname "$0")/lib.sh"
seeds=$PROBEXPAN_ROOT/tests/fuzz/corpus-dists

# ---- row-matrix shapes whose byte size overflows 64 bits (fuzz seeds, tests/fuzz/gen_seeds.c) ----
for f in rows-stride-2p32 rows-2p58p1-stride-64 cols-2p62-stride-64; do
    expect_exit "overflowing_shape_inspect_$f" 3 "$f.mp: byte [0-9]+: (truncated|.*inconsistent shape)" \
        inspect --full "$seeds/$f.mp"
    expect_exit "overflowing_shape_expand_$f" 3 "$f.mp: byte [0-9]+: " \
        expand --dists "$seeds/$f.mp" --seeds Ohio --out "$WORK/exp.mp"
done

FX=$PROBEXPAN_ROOT/tests/fixtures/expansion
cp -r "$FX/tiny" "$WORK/ds"
# fresh copies of the two 9-entity dists fixtures (a test may run against programs that overwrite them)
mkdists() { "$PROBEXPAN_TESTBIN/test_dists" --write "$WORK/a.mp" <"$FX/model-a.txt" &&
    "$PROBEXPAN_TESTBIN/test_dists" --write "$WORK/b.mp" <"$FX/model-b.txt"; }
mkdists || { fail fixtures "cannot build dists"; exit 0; }
# the other readers of a dists artifact refuse the overflowing shapes the same way
expand --quiet --dists "$WORK/a.mp" --seeds Ohio,Texas --size 3 --out "$WORK/exp-a.mp" || fail fixtures "cannot expand"
for f in rows-stride-2p32 rows-2p58p1-stride-64 cols-2p62-stride-64; do
    expect_exit "overflowing_shape_rerank_$f" 3 "$f.mp: byte [0-9]+: " \
        rerank --dists "$seeds/$f.mp" --out "$WORK/r.mp" "$WORK/exp-a.mp"
    expect_exit "overflowing_shape_score_models_$f" 3 "$f.mp: byte [0-9]+: " \
        score-models --queries "$WORK/ds" --top 1 --out "$WORK/s.mp" "$WORK/a.mp" "$seeds/$f.mp"
done
sha() { sha256sum "$1" | cut -c1-64; }
# unchanged NAME FILE SHA: PASS when FILE still has the content it had
unchanged() { [ "$(sha "$2")" = "$3" ] && pass "$1" || fail "$1" "$2 was modified"; }

# ---- an output equal to an input, to another output or to the catalog: exit 2 before any work ----
a_sha=$(sha "$WORK/a.mp")
expect_exit out_is_input 2 "--out .*a.mp is the same file as --dists" expand --dists "$WORK/a.mp" --seeds Ohio,Texas --out "$WORK/a.mp"
unchanged out_is_input_kept "$WORK/a.mp" "$a_sha"
ln -s a.mp "$WORK/link.mp"
expect_exit out_is_input_via_symlink 2 "same file" expand --dists "$WORK/link.mp" --seeds Ohio,Texas --out "$WORK/./a.mp"
expect_exit out_is_positional_input 2 "same file as argument 1" rerank --dists "$WORK/b.mp" --out "$WORK/a.mp" "$WORK/a.mp"
expect_exit ensemble_is_input 2 "--ensemble .* same file as argument 2" \
    score-models --queries "$WORK/ds" --top 1 --ensemble "$WORK/b.mp" --out "$WORK/s.mp" "$WORK/a.mp" "$WORK/b.mp"
expect_exit two_outputs_same_path 2 "--ensemble .* and --out .* are the same path" \
    score-models --queries "$WORK/ds" --top 1 --ensemble "$WORK/e.mp" --out "$WORK/e.mp" "$WORK/a.mp" "$WORK/b.mp"
e2i_sha=$(sha "$WORK/ds/entity2id.txt")
expect_exit vocab_out_inside_input_dataset 2 "--vocab-out .*entity2id.txt lies inside the input folder" \
    tokenize "$WORK/ds" --learn-vocab 100 --vocab-out "$WORK/ds/entity2id.txt" --out "$WORK/corpus.mp"
unchanged vocab_out_inside_input_dataset_kept "$WORK/ds/entity2id.txt" "$e2i_sha"
expect_exit evaluate_out_is_label_input 2 "same file as argument 1" evaluate --gt "$WORK/ds" --out "$WORK/a.mp" x="$WORK/a.mp"
expect_exit out_is_explicit_catalog 2 "is also the catalog" \
    expand --catalog "$WORK/cat.sqlite" --dists "$WORK/a.mp" --seeds Ohio,Texas --out "$WORK/cat.sqlite"
expect_exit out_is_default_catalog 2 "is also the catalog" \
    env PROBEXPAN_CATALOG= expand --dists "$WORK/a.mp" --seeds Ohio,Texas --out "$WORK/catalog.sqlite"
expect_exit catalog_is_input 2 "is also the catalog" \
    expand --catalog "$WORK/a.mp" --dists "$WORK/a.mp" --seeds Ohio,Texas --out "$WORK/x.mp"
unchanged catalog_is_input_kept "$WORK/a.mp" "$a_sha"
expect_exit index_out_is_input 2 "same file as --samples" index --samples "$WORK/a.mp" --out "$WORK/a.mp"
expect_exit query_out_is_index 2 "same file as --index" query --index "$WORK/a.mp" --seeds Ohio --out "$WORK/a.mp"
mkdir "$WORK/run" && cp "$WORK/a.mp" "$WORK/run/index.mp"
expect_exit query_out_is_run_index 2 "same file as --run's index" query --run "$WORK/run" --seeds Ohio --out "$WORK/run/index.mp"
expect_exit empty_out 2 "--out: empty output path" expand --dists "$WORK/a.mp" --seeds Ohio,Texas --out ''

# ---- non-regular targets are refused, never replaced (a device node made here, a symlink) ----
if mknod "$WORK/null" c 1 3 2>/dev/null; then
    expect_exit out_is_device 2 "null is a character device" expand --dists "$WORK/a.mp" --seeds Ohio,Texas --out "$WORK/null"
    [ -c "$WORK/null" ] && pass device_node_kept || fail device_node_kept "$WORK/null is no longer a device node"
else skip out_is_device "mknod not permitted"; fi
expect_exit out_is_dev_null 2 "/dev/null is a character device" expand --dists "$WORK/a.mp" --seeds Ohio,Texas --out /dev/null
ln -s "$WORK/elsewhere.mp" "$WORK/dangling.mp"
expect_exit out_is_symlink 2 "dangling.mp is a symbolic link" expand --dists "$WORK/a.mp" --seeds Ohio,Texas --out "$WORK/dangling.mp"
[ -L "$WORK/dangling.mp" ] && pass symlink_kept || fail symlink_kept
mkfifo "$WORK/fifo.mp"
expect_exit out_is_fifo 2 "fifo.mp is a FIFO" expand --dists "$WORK/a.mp" --seeds Ohio,Texas --out "$WORK/fifo.mp"

# ---- a FIFO as input: exit 3 at once, never a reader blocked in open() ----
expect_exit fifo_input_option 3 "fifo.mp: .*FIFO" timeout 10 expand --dists "$WORK/fifo.mp" --seeds Ohio,Texas --out "$WORK/x.mp"
expect_exit fifo_input_positional 3 "fifo.mp: .*FIFO" timeout 10 inspect "$WORK/fifo.mp"
mkdir "$WORK/m" && mkfifo "$WORK/m/config.json"
expect_exit fifo_inside_model_folder 3 "config.json: .*FIFO" timeout 10 infer --model "$WORK/m" --samples "$WORK/a.mp" --out "$WORK/x.mp"

# ---- several outputs: both or neither (--ensemble cannot be created) ----
mkdists
expect_exit ensemble_fails 1 "cannot create" \
    score-models --queries "$WORK/ds" --top 1 --ensemble "$WORK/no/such/dir/e.mp" --out "$WORK/scores.mp" "$WORK/a.mp" "$WORK/b.mp"
[ ! -e "$WORK/scores.mp" ] && pass ensemble_fails_no_out_left || fail ensemble_fails_no_out_left "--out was left behind"
ls "$WORK" | grep -q '\.tmp\.' && fail ensemble_fails_no_temp_left "$(ls "$WORK")" || pass ensemble_fails_no_temp_left

# ---- annotate --out: never empties a folder it did not write, nor one holding an input ----
printf 'Ohio\nTexas\n' >"$WORK/names.txt"
mkdir "$WORK/text" "$WORK/mine"
echo 'Ohio and Texas are states.' >"$WORK/text/t.txt"
echo 'keep me' >"$WORK/mine/notes.txt"
expect_exit annotate_foreign_folder 2 "files annotate did not write" annotate --entities "$WORK/names.txt" --out "$WORK/mine" "$WORK/text"
[ -f "$WORK/mine/notes.txt" ] && pass annotate_foreign_folder_kept || fail annotate_foreign_folder_kept
expect_exit annotate_out_is_text_input 2 "same folder as argument 1" annotate --force --entities "$WORK/names.txt" --out "$WORK/text" "$WORK/text"
[ -f "$WORK/text/t.txt" ] && pass annotate_text_input_kept || fail annotate_text_input_kept
expect_exit annotate_out_holds_input 2 "holds the input" annotate --force --entities "$WORK/names.txt" --out "$WORK" "$WORK/text"
mkdir "$WORK/classes" && printf 'Ohio\nTexas\n' >"$WORK/classes/states.txt"
expect_exit annotate_out_is_classes 2 "same folder as --classes" \
    annotate --force --entities "$WORK/names.txt" --classes "$WORK/classes" --out "$WORK/classes" "$WORK/text"
[ -f "$WORK/classes/states.txt" ] && pass annotate_classes_kept || fail annotate_classes_kept
expect_exit annotate_new_folder 0 "" annotate --entities "$WORK/names.txt" --out "$WORK/ds2" "$WORK/text"
expect_exit annotate_rewrites_own_folder 0 "" annotate --entities "$WORK/names.txt" --out "$WORK/ds2" "$WORK/text"
expect_exit annotate_force_replaces 0 "" annotate --force --entities "$WORK/names.txt" --out "$WORK/mine" "$WORK/text"
[ -f "$WORK/mine/entity2id.txt" ] && [ ! -e "$WORK/mine/notes.txt" ] && pass annotate_force_replaced || fail annotate_force_replaced

# ---- a catalog in a folder this user cannot write is still readable ----
mkdir "$WORK/ro"
expand --quiet --catalog "$WORK/ro/catalog.sqlite" --dists "$WORK/a.mp" --seeds Ohio,Texas --out "$WORK/ro/e.mp"
chmod 555 "$WORK/ro"
as_other=()
[ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && as_other=(setpriv --reuid=65534 --regid=65534 --clear-groups)
if [ "$(id -u)" != 0 ] || [ ${#as_other[@]} -gt 0 ]; then
    chmod o+rx "$WORK" "$WORK/ro" 2>/dev/null
    expect_exit catalog_read_only_folder 0 "" "${as_other[@]}" "$PROBEXPAN_BIN/catalog" --catalog "$WORK/ro/catalog.sqlite" ls
    grep -q 'e.mp' "$WORK/out" && pass catalog_read_only_lists || fail catalog_read_only_lists "$(cat "$WORK/out")"
else skip catalog_read_only_folder "root without setpriv"; fi
chmod 755 "$WORK/ro"

# ---- the pipeline: unsafe RUN/DATA paths rejected; clean-run deletes only what it created ----
MK=$PROBEXPAN_ROOT/pipelines/probexpan.mk
mkdir -p "$WORK/p/victim" "$WORK/p/victim dir" && touch "$WORK/p/victim/precious"
expect_exit pipeline_run_with_space 2 "RUN='.*victim dir': use a path of" make -s -f "$MK" DATA=x RUN="$WORK/p/victim dir" clean-run
expect_exit pipeline_data_with_quote 2 "DATA=.*: use a path of" make -s -f "$MK" DATA="it's.tar.gz" RUN="$WORK/p/r" clean-run
expect_exit pipeline_clean_foreign_run 2 "refusing to delete" make -s -f "$MK" DATA=x RUN="$WORK/p/victim" clean-run
[ -f "$WORK/p/victim/precious" ] && pass pipeline_victim_kept || fail pipeline_victim_kept
expect_exit pipeline_foreign_run_folder 2 "holds files this pipeline did not write" make -s -f "$MK" DATA=x RUN="$WORK/p/victim" "$WORK/p/victim/params-text.txt"
make -s -f "$MK" DATA=x RUN="$WORK/p/r" "$WORK/p/r/params-text.txt" >/dev/null 2>&1
expect_exit pipeline_clean_own_run 0 "" make -s -f "$MK" DATA=x RUN="$WORK/p/r" clean-run
[ ! -e "$WORK/p/r" ] && pass pipeline_own_run_removed || fail pipeline_own_run_removed

# ---- a dists output needs its size free: checked up front, with the figures ----
# (a 300-entity ensemble, 0.4 MB, into a 256 KB file system of a private mount namespace)
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
    awk 'BEGIN { n = 300; print n; for (i = 0; i < n; i++) print i "\te" i;
                 for (i = 0; i < n; i++) { l = ""; for (j = 0; j < n; j++) l = l (i == j ? 0.5 : 0.5 / (n - 1)) " "; print l } }' |
        "$PROBEXPAN_TESTBIN/test_dists" --write "$WORK/big.mp"
    printf '0 1 2\n' >"$WORK/big-q.txt"
    mkdir "$WORK/small"
    expect_exit dists_free_space 1 "ens.mp needs 0.4 MB of free space in its folder while it is written, only 0.[23] MB are available" \
        unshare -m sh -c 'mount -t tmpfs -o size=256k tmpfs "$1" && shift && exec "$@"' sh "$WORK/small" \
        score-models --queries "$WORK/big-q.txt" --top 1 --ensemble "$WORK/small/ens.mp" --out "$WORK/sc.mp" "$WORK/big.mp"
else skip dists_free_space "needs root and unshare for a small file system"; fi
