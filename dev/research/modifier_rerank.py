#!/usr/bin/env python3
"""modifier_rerank: prototype of a ranking rule on how a name is used, measured on a `ranked` artifact.

In news a name stands either as a head ("in Japan .", "Japan said") or as a modifier of the
noun after it ("Japanese officials", "Canadian dollar"). Discovery keeps both kinds as
entities, and a set whose seeds are sometimes modifiers ("New Zealand dollar", "USSR grain
purchases") drifts to the nationality adjectives. The modifier share of an entity is the share
of its mentions followed by a content word: an alphabetic token not among the corpus's TOP most
frequent tokens (its function words, read from the corpus), smoothed toward the corpus-wide
share with PRIOR pseudo-mentions. The rule moves an entity ranked at position i to the score
i x exp(W x max(0, m_e - max over the seeds of m_s)): only names used as modifiers more than
any seed are pushed down; the list is sorted by that score.

Usage: modifier_rerank.py DATASET_DIR RANKED.mp POOL_DIR W [PRIOR] [TOP]
prints MAP@10 per class and overall (the official denominator, as `evaluate --pool`).
"""
import collections
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from located_rerank import ap10, members, print_maps, queries  # noqa: E402


def modifier_shares(sentences, top, prior):
    """entity -> smoothed share of its mentions followed by a content word."""
    sents = [json.loads(line) for line in open(sentences)]
    freq = collections.Counter(w.lower() for s in sents for w in s["tokens"])
    function = {w for w, _ in freq.most_common(top)}
    n, k = collections.Counter(), collections.Counter()
    for s in sents:
        t = s["tokens"]
        for m in s["entityMentions"]:
            e = m["entityId"]
            n[e] += 1
            nxt = t[m["end"] + 1].lower() if m["end"] + 1 < len(t) else "."
            k[e] += nxt[:1].isalpha() and nxt not in function
    base = sum(k.values()) / sum(n.values())
    return {e: (k[e] + prior * base) / (n[e] + prior) for e in n}, base


def judged_names(pool, cls):
    """every name of the pool file of a class, judged either way."""
    p = os.path.join(pool, cls + ".tsv")
    if not os.path.exists(p):
        return set()
    with open(p) as f:
        return {line.split("\t")[0] for line in f}


def main():
    data, ranked, pool, w = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    prior = float(sys.argv[5]) if len(sys.argv) > 5 else 5.0
    top = int(sys.argv[6]) if len(sys.argv) > 6 else 60
    share, _ = modifier_shares(os.path.join(data, "sentences.json"), top, prior)
    ap = collections.defaultdict(list)
    unjudged, lists = 0, 0
    for q in queries(ranked):
        ids, names = members(data, pool, q["class"])
        name = dict(zip(q["entities"], q["names"]))
        ms = max(share.get(s, 0.0) for s in q["seeds"])
        ents = [e for e in q["entities"] if e not in q["seeds"]]
        score = {e: (i + 1) * math.exp(w * max(0.0, share.get(e, 0.0) - ms)) for i, e in enumerate(ents)}
        order = sorted(ents, key=lambda e: score[e])
        judged = names | ids | judged_names(pool, q["class"])
        unjudged += sum(1 for e in order[:20] if e not in judged and name[e] not in judged)
        lists += 1
        ap[q["class"]].append(ap10(order, lambda e: e in ids or name[e] in names, len(ids)))
    print_maps(ap)
    print("%-20s %.2f" % ("unjudged@20", unjudged / lists))

if __name__ == "__main__":
    main()
