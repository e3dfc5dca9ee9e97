/* coordination: the coordination lists among the entity mentions of one sentence —
 *   "Japan , West Germany and Britain"      -> one list of three members
 *   "Alberta , Saskatchewan or Manitoba"    -> one list of three members
 * Entities named in one list are usually of one kind (Hearst 1992; the lists SetExpan-like
 * systems mine), so members of a list share features (pattern_model.h's list features).
 *
 * The mentions of a sentence come as its samples: each is the sentence with one mention
 * replaced by [MASK], so no sample shows the spans of the others. Two mentions A before B
 * are read from A's sample and B's: B's sample keeps the text before B (A included), A's
 * keeps the text after A, so the text between A and B is the longest g tokens that both end
 * B's prefix and start what follows A's mask. A list is a run of neighbouring mentions whose
 * gaps are "," and whose last gap is "and" / "or" / ", and" / ", or" (a comma alone is also
 * an apposition: "Houston , Texas", which coordination_located reads). Lists do not overlap;
 * the leftmost is taken first.
 *
 * Works on wordpiece ids with the roles of a genus_vocab (definition_genus.h). Cost: O(sum
 * over neighbouring pairs of the gap's length squared) per sentence, in practice O(length). */
#ifndef PROBEXPAN_COORDINATION_H
#define PROBEXPAN_COORDINATION_H

#include <stdint.h>

#include "model/definition_genus.h"

/* One mention of a sentence: the sample that masks it. */
typedef struct {
    const int32_t *ids; /* [CLS] ... [SEP], the mention as one [MASK] at ids[mask] */
    int len, mask;
} sentence_mention;

/* The lists among m[0..n), mentions of one sentence in order of mask (ascending): mention i
 * is in the list m[first[i] .. last[i]] (first[i] == last[i] == i: in no list). */
void coordination_lists(const genus_vocab *v, const sentence_mention *m, int n, int *first, int *last);

/* The appositions "A , B" of m[0..n), neither A nor B in a list that first/last mark
 * (coordination_lists): "Houston , Texas", "Trenton , Nova Scotia ." - the name after the comma
 * says where the first one is. located[i] has LOCATED_BEFORE when mention i is such an A (a
 * comma and another mention follow it: Houston), and LOCATED_AFTER when it is such a B that
 * closes the phrase (a comma, punctuation or the sentence's end follows it: Texas; not "Texas
 * Instruments", nor the person in "the Bundesbank , Poehl said"). */
#define LOCATED_BEFORE 1
#define LOCATED_AFTER 2
void coordination_located(const genus_vocab *v, const sentence_mention *m, int n, const int *first,
                          const int *last, int *located);

/* Whether mention i (LOCATED_BEFORE in located, coordination_located's) and mention i + 1 are
 * an apposition pair of their own ("Calgary , Alberta"), the pair located_pairs.h counts: not
 * a run of names joined by commas alone, nor one a conjunction goes on from after the second
 * (lists whose end is no name: "Bahrain , Kuwait , Oman and the UAE", "Maryland , Virginia
 * and the District"). */
int coordination_pair(const genus_vocab *v, const sentence_mention *m, int n, const int *located, int i);

#endif
