/* genus_agreement: an expansion re-ranked by what each candidate's own definitions call it,
 * against what the seeds' definitions share — a dictionary's answer to "is X one of these",
 * where the contexts only say "X goes with these".
 *
 * In a glossary the seeds' neighbours in running text are often their own products and parts
 * (FOLDOC: {Sun Microsystems, DEC, Hewlett-Packard} -> Sun-3, DECstation, HP-UX), whose
 * contexts are the seeds' contexts; their own entries say what they are ("DECstation :
 * computer A range of workstations ...", "Sequent : company ..."). The set's heads are the
 * genus heads held by at least half of the seeds and accepted entities (genus_heads_of_set);
 * a candidate's agreement a is the share of its genus counts on those heads (0..1), 1/2 when
 * no definition has it as subject (nothing known either way). The list is re-ordered by
 * position x exp(-weight (a - 1/2)): a candidate whose entry names the set's head moves up,
 * one whose entry names something else moves down, one without an entry keeps its place
 * relative to the others; ties keep the list's order. Only the heads held by the most members
 * count ("capital", not the "city" of "capital and largest city"). Without set heads (a set
 * whose definitions disagree) the list is unchanged. The entities whose definitions name the
 * set's heads are also candidates of their own (genus_agreement_candidates): in FOLDOC the
 * firms the seeds' contexts never reach.
 *
 * Cost: O(set and list genus pairs + n log n). Read-only on h: any number of threads. */
#ifndef PROBEXPAN_GENUS_AGREEMENT_H
#define PROBEXPAN_GENUS_AGREEMENT_H

#include <stdint.h>

#include "model/genus_heads.h"

#define GENUS_AGREEMENT_HEADS 8 /* set heads used, most held first */

/* 1 when the corpus reads as a glossary: its genus counts reach PATTERN_GLOSSARY_SHARE of its
 * samples (a sample yields at most GENUS_WORDS heads). Running text — news, where "X, a Y"
 * is the only definition — is left as its contexts rank it. */
int genus_agreement_glossary(const genus_heads *h, int64_t samples);

/* Candidate e's agreement with heads[0..n): the share of e's genus counts on them, or -1 when
 * e is no definition's subject. */
double genus_agreement_of(const genus_heads *h, int64_t e, const set_head *heads, int n);

/* The order of ranked[0..n) (best first) re-ranked as above with weight >= 0 into order[0..n)
 * (indices into ranked); set[0..nset) are the seeds and accepted entities. Returns the number
 * of set heads (0: order is the identity). */
int genus_agreement_order(const genus_heads *h, const int64_t *set, int nset, const int64_t *ranked, int n,
                          double weight, int *order);

/* The share of ranked[0..n) (a context ranking) whose definitions name one of the set's heads
 * (agreement > 0), among those that are some definition's subject; -1 when the set has no heads
 * or no listed entity has a definition. A low share says the contexts have drifted from what
 * the seeds are (their products, their authors' books); a high one that the definitions would
 * only repeat the contexts — and bring in the head's other holders (every state capital for
 * {Paris, Rome, Oslo}). O(the listed entities' genus pairs). */
double genus_agreement_list_share(const genus_heads *h, const int64_t *set, int nset, const int64_t *ranked, int n);

/* Up to max entities, not in set[0..nset) nor skip[0..nskip), whose definitions name one of
 * the set's heads, most agreeing first, then most mentions (mentions[e]), then lowest row,
 * into out; returns how many (0 without set heads). The candidates a search by context misses
 * when the seeds' contexts are their products'. O(genus pairs of the heads' entities + their
 * count x log). */
int genus_agreement_candidates(const genus_heads *h, const int64_t *set, int nset, const int64_t *skip, int nskip,
                               const int64_t *mentions, int64_t *out, int max);

#endif
