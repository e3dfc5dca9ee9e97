# noun_slots_replay_counts.py SENTENCES.json OUT.json [NAME...]: each entity's mentions and those in a
# noun's slot (the rule of common/model/noun_slots.h, read from the original-case tokens of a
# dataset's sentences.json), for noun_slots_replay.py; prints the figures of the NAMEs given.
import json, sys, collections
path = sys.argv[1]
n = collections.Counter(); ns = collections.Counter(); name = {}
PRE = {'in', 'to', 'from'}
END = set(". 's ' said says has is was will had would have are were to in for of on at with from by as ) ; : could can may might should".split())
for line in open(path):
    s = json.loads(line); t = s['tokens']
    for m in s['entityMentions']:
        e = m['entityId']; name[e] = m['text']; n[e] += 1
        prev = t[m['start'] - 1].lower() if m['start'] > 0 else ''
        nxt = t[m['end'] + 1] if m['end'] + 1 < len(t) else ''
        if prev in PRE or nxt.lower() in END: ns[e] += 1
json.dump({str(e): [n[e], ns[e], name[e]] for e in n}, open(sys.argv[2], 'w'))
for nm in sys.argv[3:]:
    for e in n:
        if name[e] == nm: print(nm, n[e], ns[e], round(ns[e] / n[e], 3))
