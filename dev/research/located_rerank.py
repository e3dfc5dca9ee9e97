#!/usr/bin/env python3
"""located_rerank: prototype of a place-in-place ranking rule, measured on a `ranked` artifact.

A place is named with where it is ("Calgary , Alberta", "Bathurst , New Brunswick"): the first
name of such an apposition is inside the second, so it is not the second's peer. The rule: walk
a list from the top; an entity whose appositions "E , Y" with Y a seed or an entity kept above
it make up at least SHARE of E's mentions goes to the end of the list (order kept). The
appositions are read from the dataset's sentences.json ("A , B", neither preceded nor followed
by a comma run that makes a coordination list), not from the index, which does not store the
partner: this measures whether the rule is worth storing the pairs for.

Usage: located_rerank.py DATASET_DIR RANKED.mp POOL_DIR SHARE [INSPECT]
prints MAP@10 per class and overall (the official denominator, as `evaluate --pool`).
"""
import collections
import json
import os
import subprocess
import sys


def appositions(sentences):
    """(a, b) -> count of "a , b" outside coordination lists; and mentions per entity."""
    pairs, mentions = collections.Counter(), collections.Counter()
    with open(sentences) as f:
        for line in f:
            s = json.loads(line)
            t, ms = s["tokens"], sorted(s["entityMentions"], key=lambda m: m["start"])
            for m in ms:
                mentions[m["entityId"]] += 1
            for i in range(len(ms) - 1):
                a, b = ms[i], ms[i + 1]
                if b["start"] != a["end"] + 2 or t[a["end"] + 1] != ",":
                    continue
                if i > 0 and ms[i - 1]["end"] + 2 == a["start"] and t[a["start"] - 1] == ",":
                    continue  # a ends a comma run: a list
                j = b["end"] + 1
                if j + 1 < len(t) and t[j] == "," and t[j + 1] in ("and", "or"):
                    continue
                if i + 2 < len(ms) and ms[i + 2]["start"] == b["end"] + 2 and t[j] == ",":
                    continue
                if a["entityId"] != b["entityId"]:
                    pairs[(a["entityId"], b["entityId"])] += 1
    return pairs, mentions


def rerank(entities, seeds, inside, mentions, share):
    kept, moved, above = [], [], set(seeds)
    for e in entities:
        n = sum(c for y, c in inside.get(e, {}).items() if y in above)
        if mentions[e] and n >= share * mentions[e]:
            moved.append(e)
        else:
            kept.append(e)
            above.add(e)
    return kept + moved


def members(data, pool, cls):
    ids, names = set(), set()
    with open(os.path.join(data, "gt", cls + ".txt")) as f:
        for line in f:
            eid, name = line.rstrip("\n").split("\t")[:2]
            ids.add(int(eid))
            names.add(name)
    p = os.path.join(pool, cls + ".tsv")
    if os.path.exists(p):
        with open(p) as f:
            for line in f:
                t = line.rstrip("\n").split("\t")
                if len(t) > 1 and t[1] == "1":
                    names.add(t[0])
    return ids, names


def queries(ranked, inspect="bin/inspect"):
    """the queries of a `ranked` artifact, each its JSON object (class, seeds, entities, names)."""
    out = subprocess.run([inspect, "--full", "--quiet", ranked], capture_output=True, text=True,
                         check=True).stdout
    for line in out.splitlines():
        q = json.loads(line)
        if "class" in q:
            yield q


def ap10(order, is_member, n_members):
    """AP@10 of a list without its seeds, the official denominator min(|G|, 10)."""
    hits, s = 0, 0.0
    for i, e in enumerate(order[:10]):
        if is_member(e):
            hits += 1
            s += hits / (i + 1)
    return s / min(n_members, 10)


def print_maps(ap):
    """MAP@10 per class and overall from class -> the APs of its queries."""
    total = []
    for cls in sorted(ap):
        print("%-20s %.4f" % (cls, sum(ap[cls]) / len(ap[cls])))
        total += ap[cls]
    print("%-20s %.4f" % ("overall", sum(total) / len(total)))


def main():
    data, ranked, pool, share = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    inspect = sys.argv[5] if len(sys.argv) > 5 else "bin/inspect"
    pairs, mentions = appositions(os.path.join(data, "sentences.json"))
    inside = collections.defaultdict(collections.Counter)
    for (a, b), c in pairs.items():
        if pairs.get((b, a), 0) < c:  # one way only: peers stand on both sides
            inside[a][b] += c
    ap = collections.defaultdict(list)
    for q in queries(ranked, inspect):
        ids, names = members(data, pool, q["class"])
        name = dict(zip(q["entities"], q["names"]))
        order = rerank(q["entities"], q["seeds"], inside, mentions, share) if share > 0 else q["entities"]
        ents = [e for e in order if e not in q["seeds"]]
        ap[q["class"]].append(ap10(ents, lambda e: e in ids or name[e] in names, len(ids)))
    print_maps(ap)

if __name__ == "__main__":
    main()
