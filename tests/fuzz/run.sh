#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan+UBSan) and runs each for $1 seconds
# (default 30) on a seed corpus made by the test suite's own artifact writer.
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-30}
out=build-fuzz
mkdir -p $out
flags="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -std=c11 -D_GNU_SOURCE -Icommon $(pkg-config --cflags msgpack openblas libarchive jansson libutf8proc sqlite3)"
libs="$(pkg-config --libs msgpack openblas libarchive jansson libutf8proc sqlite3) -lm -pthread"
srcs=$(ls common/*.c)
for target in tests/fuzz/fuzz_*.c; do
    name=$(basename "$target" .c)
    clang $flags -o $out/$name "$target" $srcs $libs
    corpus=$out/corpus-${name#fuzz_}
    mkdir -p "$corpus"
    cp tests/fuzz/corpus-${name#fuzz_}/* "$corpus"/ 2>/dev/null || true
    [ -x tests/fuzz/seed-${name#fuzz_}.sh ] && tests/fuzz/seed-${name#fuzz_}.sh "$corpus"
    echo "fuzzing $name for $secs s"
    ASAN_OPTIONS=detect_leaks=0 $out/$name -max_total_time="$secs" -max_len=65536 -rss_limit_mb=2048 "$corpus" 2>&1 | tail -n 3
done
