# ap.awk: AP@10, AP@20 and AP@50 of one ranked list, by the project's rule
# (common/method/apk.h): AP@K = (1 / min(|gt|, K)) * sum of the precision at each
# position <= K holding a member (a repeated entity counts once).
#   awk -F'\t' -f ap.awk GT_FILE LIST_FILE   (GT_FILE: eid<TAB>name<TAB>label, label >= 1
#   = member; LIST_FILE: one eid a line, seeds already removed) -> "ap10<TAB>ap20<TAB>ap50"
BEGIN { K[1] = 10; K[2] = 20; K[3] = 50 }
NR == FNR { if ($3 >= 1) { gt[$1] = 1; n++ } next }
{ pos++; if (($1 in gt) && !seen[$1]++) { hits++; for (k = 1; k <= 3; k++) if (pos <= K[k]) s[k] += hits / pos } }
END { for (k = 1; k <= 3; k++) printf "%s%.6f", (k > 1 ? "\t" : ""), (n ? s[k] / (n < K[k] ? n : K[k]) : 0); print "" }
