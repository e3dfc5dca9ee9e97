# Reliability guarantees (README "Reliability"): hostile artifacts are rejected
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
