#!/usr/bin/env bash
# measure-stage.sh LOG CMD [ARGS...]: runs CMD and appends one tab-separated line to LOG:
# program ($MEASURE_NAME, else CMD's file name), wall s, CPU s (user + sys), peak RSS KB, bytes of its --out (file or folder),
# bytes of the folder $MEASURE_FOLDER afterwards (0 when unset), 1-min load average at the
# start. Exit status is CMD's. For `make bench-scale`: the pipeline's stage variables point here.
log=$1; shift
out=
prev=
for a in "$@"; do [ "$prev" = --out ] && out=$a; prev=$a; done
load=$(cut -d' ' -f1 /proc/loadavg)
times=$(mktemp "${TMPDIR:-/tmp}/measure.XXXXXX")
/usr/bin/time -f '%e %U %S %M' -o "$times" "$@"
rc=$?
read -r wall user sys rss < <(tail -n 1 "$times")
rm -f "$times"
bytes=0 folder=0
if [ -n "$out" ] && [ -e "$out" ]; then
    bytes=$(du -sb "$out" | cut -f1)
fi
if [ -n "${MEASURE_FOLDER:-}" ] && [ -e "$MEASURE_FOLDER" ]; then folder=$(du -sb "$MEASURE_FOLDER" | cut -f1); fi
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "${MEASURE_NAME:-$(basename "$1")}" "$wall" "$(awk -v u="$user" -v s="$sys" 'BEGIN{print u+s}')" \
    "$rss" "$bytes" "$folder" "$load" >>"$log"
exit $rc
