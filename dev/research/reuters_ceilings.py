#!/usr/bin/env python3
"""reuters_ceilings: how far a ranking rule could take each class of a `ranked` artifact.

Per class, MAP@10 (the official denominator, as `evaluate --pool`) of three lists built from
each query's list: as ranked; with every name the pool judged "a Canadian city or town" taken
out (a perfect rule against the provinces' cities); with every non-member taken out, the
members' order kept (a perfect precision rule that finds nothing new); and the ground truth's
own ceiling (every member first). Then, for the Canadian provinces and their cities, the share
of mentions in an administrative-division context read from the original-case sentences:
"X government / provincial / Premier / province", "province(s) / state / city of X".

Usage: reuters_ceilings.py DATASET_DIR RANKED.mp POOL_DIR
"""
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from located_rerank import ap10, members, queries  # noqa: E402

AFTER = ("government", "provincial", "Premier", "province")
BEFORE = ("province of", "provinces of", "state of", "city of")
CITIES = ("Montreal", "Toronto", "Ottawa", "Vancouver", "Victoria", "Calgary", "Edmonton")


def ceilings(data, ranked, pool):
    cities = collections.defaultdict(set)
    for cls in os.listdir(pool):
        with open(os.path.join(pool, cls)) as f:
            for line in f:
                t = line.rstrip("\n").split("\t")
                if len(t) > 2 and "city or town" in t[2]:
                    cities[cls[:-4]].add(t[0])
    res = collections.defaultdict(lambda: collections.defaultdict(list))
    for q in queries(ranked):
        ids, names = members(data, pool, q["class"])
        name = dict(zip(q["entities"], q["names"]))
        ents = [e for e in q["entities"] if e not in q["seeds"]]
        mem = lambda e: e in ids or name.get(e) in names  # noqa: E731
        r = res[q["class"]]
        r["ranked"].append(ap10(ents, mem, len(ids)))
        r["no cities"].append(ap10([e for e in ents if name[e] not in cities[q["class"]]], mem, len(ids)))
        r["no non-members"].append(ap10([e for e in ents if mem(e)], mem, len(ids)))
        findable = len(ids - set(q["seeds"]))
        r["gt ceiling"].append(ap10(list(range(findable)), lambda e: True, len(ids)))
    for cls in sorted(res):
        print("%-20s " % cls + "  ".join("%s %.3f" % (k, sum(v) / len(v)) for k, v in res[cls].items()))


def contexts(data):
    prov = set()
    with open(os.path.join(data, "gt", "canadian_provinces.txt")) as f:
        for line in f:
            prov.add(int(line.split("\t")[0]))
    n, k, text = collections.Counter(), collections.Counter(), {}
    with open(os.path.join(data, "sentences.json")) as f:
        for line in f:
            s = json.loads(line)
            t = s["tokens"]
            for m in s["entityMentions"]:
                e = m["entityId"]
                if e not in prov and m["text"] not in CITIES:
                    continue
                text.setdefault(e, m["text"])
                n[e] += 1
                after = t[m["end"] + 1] if m["end"] + 1 < len(t) else ""
                before = " ".join(t[max(0, m["start"] - 2):m["start"]])
                k[e] += after in AFTER or before in BEFORE
    for e in sorted(n, key=lambda e: (e not in prov, -n[e])):
        print("%-18s %-8s mentions %4d  division contexts %d (%.2f)"
              % (text[e], "province" if e in prov else "city", n[e], k[e], k[e] / n[e]))


if __name__ == "__main__":
    ceilings(sys.argv[1], sys.argv[2], sys.argv[3])
    contexts(sys.argv[1])
