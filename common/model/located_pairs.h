/* located_pairs: which entity a corpus names with which — the appositions "A , B" of running
 * text ("Calgary , Alberta", "Bathurst , New Brunswick": coordination_located's LOCATED_BEFORE
 * mention A and the mention B after its comma), counted per pair of entities over the corpus,
 * and the place-in-place rule of the final ranking built on them.
 *
 * A place is named with where it is, so A, named with B more often than B with A, is inside B
 * and no peer of B: a list whose seeds are provinces drifts to the cities named with them
 * ("Calgary , Alberta"), a list of states to the cities named with the states. The rule walks a
 * ranked list from the top and moves to its end (their order kept) the entities whose
 * appositions with a seed, or with an entity kept above them, make up at least `share` of
 * their mentions. Pairs named both ways ("Ontario , Quebec" in a list cut short) count only the
 * excess of the more frequent way; runs "A , B , C" (a list whose end is no name: "Bahrain ,
 * Kuwait , Oman and the UAE") are no pairs. A glossary (list weight 0) records no pairs, so the rule
 * does nothing there.
 *
 * Cost: counting O(S log S) for S samples; the rule O(n^2 x pairs per entity) for a list of n
 * (100 by default: microseconds). */
#ifndef PROBEXPAN_LOCATED_PAIRS_H
#define PROBEXPAN_LOCATED_PAIRS_H

#include <stdint.h>

#include "model/pattern_model.h"

/* located_pairs, the pairs as the index stores them, and located_pairs_free: in
 * artifacts/pattern_settings.h. */

/* The pairs of the samples ps[0..S): each sample with LOCATED_BEFORE and a located_in other
 * than its own entity, except where B's name abbreviates A's (name[row]: "London Meat Futures
 * Exchange , LMFE", "New York , N.Y.": one word with A's initial after a name of several). */
void located_pairs_count(const pattern_sample *ps, int64_t S, const char *const *name, located_pairs *out);

/* The place-in-place rule on rows[0..n), a ranking of entity rows (mentions[] their mention
 * counts) for the seeds seeds[0..nseeds): order[0..n) receives the positions of rows in the new
 * order. Returns how many were moved (0: order is the identity). share <= 0: none moved. */
int located_pairs_demote(const located_pairs *p, const int64_t *mentions, const int64_t *seeds, int nseeds,
                         const int64_t *rows, int n, double share, int *order);

#endif
