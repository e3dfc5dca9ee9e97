#!/usr/bin/env python3
"""title_replay: a capitalised-title ranking rule replayed on the lists of a `ranked` artifact.

News writes a formal title capitalised before a name ("Finance Minister Kiichi Miyazawa",
"Treasury Secretary James Baker") and an occupation in lower case ("bank chairman R. Donald
Fullerton", "economist Alan Greenspan"). The dataset's sentences.json keeps the case. An entity
is titled when a title word stands, capitalised, in the run of capitalised words before one of
its mentions or in the mention itself. Title words come from one of two sources:

  learned  read from the text: a capitalised word, not sentence-initial, that the text also
           writes in lower case, standing before a full name (two capitalised words the text
           never writes in lower case, then a word that is not capitalised) of at least
           NAMES distinct surnames, with at least LOWER lower-case uses, and used before a
           full name at least RATIO times as often as in lower case (a formal title, not an
           occupation: "minister" 2.53, "secretary" 2.60, "chairman" 0.17, "president" 0.16);
  hand     English public-office titles (HAND_TITLES below).

The rule: when the seeds are titled (gate "any": at least one seed; "all": no gate), the
titled entities of the list's first L places move up: the list is sorted by position x F for
them, position for the others (F = 0: ahead of the untitled, in their order); gate "shared":
only the entities with a title word of a seed move. Prints MAP@10 per class and overall (official denominator, pool applied
as `evaluate --pool` does: judged 1 added, judged 0 removed) before and after, and the
P@10 and the names of the new top 20s that are neither in the ground truth nor judged.

Usage: title_replay.py DATASET_DIR RANKED.mp POOL_DIR learned|hand any|all|shared L F
       [NAMES LOWER RATIO] [--inspect BIN/inspect] [-v]
"""
import collections
import json
import os
import subprocess
import sys

HAND_TITLES = {"minister", "secretary", "governor", "premier", "chancellor", "senator", "ambassador",
               "prime", "king", "sheikh", "commissioner", "undersecretary", "deputy"}


def capitalised(w):
    return w[:1].isupper()


def learned_titles(sents, min_names, min_lower, ratio):
    lower = collections.Counter(t for s in sents for t in s["tokens"] if t.islower())

    def name_word(t):
        return capitalised(t) and t.replace(".", "").isalpha() and lower[t.lower()] == 0

    surnames, uses = collections.defaultdict(set), collections.Counter()
    for s in sents:
        tk = s["tokens"] + ["."]
        for i in range(1, len(tk) - 3):
            w = tk[i]
            if (capitalised(w) and w.isalpha() and lower[w.lower()] > 0 and name_word(tk[i + 1])
                    and name_word(tk[i + 2]) and not capitalised(tk[i + 3])):
                surnames[w.lower()].add(tk[i + 2])
                uses[w.lower()] += 1
    return {w for w in surnames
            if len(surnames[w]) >= min_names and lower[w] >= min_lower and uses[w] >= ratio * lower[w]}


def titled_mentions(sents, titles):
    """entity id -> {title word: its mentions with it capitalised before them (in the capitalised run) or in them}."""
    titled = collections.defaultdict(collections.Counter)
    for s in sents:
        tk = s["tokens"]
        for m in s["entityMentions"]:
            t = m["start"] - 1
            while t >= 1 and capitalised(tk[t]):
                t -= 1
            words = tk[t + 1:m["end"] + 1]
            for w in {w.split("-")[0].lower() for w in words if capitalised(w)} & titles:
                titled[m["entityId"]][w] += 1
    return titled


def ground_truth(data, pool, cls, eid_of):
    members = set()
    with open(os.path.join(data, "gt", cls + ".txt")) as f:
        for line in f:
            field = line.split("\t")[0].strip()
            if field.isdigit():
                members.add(int(field))
    judged = set()
    path = os.path.join(pool, cls + ".tsv")
    if os.path.exists(path):
        for line in open(path):
            t = line.rstrip("\n").split("\t")
            if line.startswith("#") or len(t) < 2 or t[0] not in eid_of:
                continue
            e = eid_of[t[0]]
            judged.add(e)
            (members.add if t[1] == "1" else members.discard)(e)
    return members, judged


def ap_at(order, members, k=10):
    hits, s = 0, 0.0
    for i, e in enumerate(order[:k]):
        if e in members:
            hits += 1
            s += hits / (i + 1)
    return s / min(len(members), k)


def main():
    args = [a for a in sys.argv[1:] if a != "-v"]
    verbose = len(args) < len(sys.argv) - 1
    inspect = "bin/inspect"
    if "--inspect" in args:
        i = args.index("--inspect")
        inspect = args[i + 1]
        del args[i:i + 2]
    data, ranked, pool, source, gate, limit, factor = args[:7]
    limit, factor = int(limit), float(factor)
    min_names, min_lower, ratio = (int(args[7]), int(args[8]), float(args[9])) if len(args) > 9 else (5, 5, 0.3)
    sents = [json.loads(line) for line in open(os.path.join(data, "sentences.json"))]
    titles = HAND_TITLES if source == "hand" else learned_titles(sents, min_names, min_lower, ratio)
    print("titles:", " ".join(sorted(titles)))
    titled = titled_mentions(sents, titles)
    name_of = {}
    for line in open(os.path.join(data, "entity2id.txt")):
        t = line.rstrip("\n").split("\t")
        if len(t) >= 2 and t[1].isdigit():
            name_of[int(t[1])] = t[0]
    eid_of = {n: e for e, n in name_of.items()}
    out = subprocess.run([inspect, "--full", "--quiet", ranked], capture_output=True, text=True, check=True).stdout
    before, after, unjudged, p10 = collections.defaultdict(list), collections.defaultdict(list), [], [[], []]
    for line in out.splitlines():
        q = json.loads(line)
        if "class" not in q:
            continue
        members, judged = ground_truth(data, pool, q["class"], eid_of)
        seeds = set(q["seeds"])
        order = [e for e in q["entities"] if e not in seeds]
        new = order
        seed_titles = set().union(*(titled[s] for s in seeds))
        if gate == "all" or seed_titles:
            promoted = {e for e in order[:limit] if titled[e] and (gate != "shared" or seed_titles & set(titled[e]))}
            new = sorted(order, key=lambda e: (order.index(e) + 1) * (factor if e in promoted else 1))
        p10[0].append(len(set(order[:10]) & members) / 10)
        p10[1].append(len(set(new[:10]) & members) / 10)
        before[q["class"]].append(ap_at(order, members))
        after[q["class"]].append(ap_at(new, members))
        unjudged += [q["class"] + ":" + name_of.get(e, str(e)) for e in new[:20] if e not in members and e not in judged]
        if verbose and new != order:
            print("%s %s %.3f -> %.3f" % (q["class"], [name_of.get(s) for s in q["seeds"]], before[q["class"]][-1],
                                          after[q["class"]][-1]))
    for cls in sorted(before):
        print("%-20s %.4f -> %.4f" % (cls, sum(before[cls]) / len(before[cls]), sum(after[cls]) / len(after[cls])))
    b, a = sum(before.values(), []), sum(after.values(), [])
    print("%-20s %.4f -> %.4f  P@10 %.4f -> %.4f  unjudged in top 20: %d %s" % (
        "overall", sum(b) / len(b), sum(a) / len(a), sum(p10[0]) / len(b), sum(p10[1]) / len(b), len(unjudged),
        sorted(set(unjudged))))


if __name__ == "__main__":
    main()
