# expand + rerank + evaluate on the real mini-ese archive (queries and gt read
# straight from the .tar.gz) with an "oracle" dists: row i puts weight 10 on the
# members of i's gt classes, 20 on itself, 1 elsewhere. Each query then finds all
# G-3 other members of its class first, so AP@K = min(G-3, K) / min(G, K), which
# the test computes from the gt files with awk — not from the code under test.
source "$(dirname "$0")/lib.sh"
DATA=$SHARED/data/mini-ese.tar.gz
if ! need_shared || [ ! -f "$DATA" ]; then skip oracle_map "no ../shared/data/mini-ese.tar.gz"; exit 0; fi
tar xzf "$DATA" -C "$WORK"
root=$(dirname "$(find "$WORK" -name entity2id.txt | head -n1)")
# spec for test_dists --write: N, eid<TAB>name lines, then the N x N rows
awk -F'\t' '
    FNR == 1 { f++ }
    f == 1 { n++; eid[n] = $2; name[n] = $1; row[$2] = n; next }
    $3 >= 1 { c = FILENAME; cls[$1] = cls[$1] " " c; members[c] = members[c] " " $1 }
    END {
        print n
        for (i = 1; i <= n; i++) print eid[i] "\t" name[i]
        for (i = 1; i <= n; i++) {
            delete w
            split(cls[eid[i]], mine, " ")
            for (k in mine) { split(members[mine[k]], m, " "); for (x in m) w[row[m[x]]] = 10 }
            w[i] = 20
            s = 0
            for (j = 1; j <= n; j++) s += (j in w) ? w[j] : 1
            line = ""
            for (j = 1; j <= n; j++) line = line sprintf("%.9g ", ((j in w) ? w[j] : 1) / s)
            print line
        }
    }' "$root/entity2id.txt" "$root"/gt/*.txt >"$WORK/oracle.txt"
"$PROBEXPAN_TESTBIN/test_dists" --write "$WORK/oracle.mp" <"$WORK/oracle.txt" || { fail oracle_map "cannot build the oracle dists"; exit 0; }
expected=$(for g in "$root"/gt/*.txt; do
    G=$(awk -F'\t' '$3 >= 1' "$g" | wc -l)
    Q=$(grep -cv '^EXIT$' "$root/query/$(basename "$g")")
    echo "$G $Q"
done | awk '{ G = $1; h = G - 3; k = 100; ap = (h < k ? h : k) / (G < k ? G : k); s += ap * $2; q += $2 } END { printf "%.6f", s / q }')
expand --dists "$WORK/oracle.mp" --queries "$DATA" --out "$WORK/exp.mp" 2>"$WORK/err" &&
    rerank --dists "$WORK/oracle.mp" --out "$WORK/ranked.mp" "$WORK/exp.mp" 2>>"$WORK/err" &&
    evaluate --json exp="$WORK/exp.mp" ranked="$WORK/ranked.mp" >"$WORK/json" 2>>"$WORK/err"
got=$(jq -r '[.runs[] | .overall.map | map(. * 1000000 | round / 1000000)] | tostring' "$WORK/json" 2>/dev/null)
want="[[1,1,1,$expected],[1,1,1,$expected]]"
want=$(jq -c -n "$want")
[ "$got" = "$want" ] && pass oracle_map || fail oracle_map "got $got, want $want; $(tail -n 3 "$WORK/err" | tr '\n' ' ')"
