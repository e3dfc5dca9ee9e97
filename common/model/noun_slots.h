/* noun_slots: how often an entity's mentions stand where a noun phrase ends — and the modifier
 * rule of the final ranking built on it.
 *
 * News names many things by an adjective or a modifier of theirs: "Japanese exporters",
 * "West German bonds", "Swiss franc". A discovered or hand-made entity list holds such words
 * ("Japanese", "Swiss" with hundreds of mentions), and they share every context of the
 * countries they stand for but the noun's own: a country is "in Japan", goes "to Canada", has
 * "Egypt 's debt", and "Kenya said"; an adjective almost never. A mention is in a noun's slot
 * when the word before it is "in", "to" or "from", or the word after it ends a noun phrase: a
 * possessive "'", a full stop, a colon or semicolon, a closing parenthesis, a preposition, or
 * an auxiliary or speech verb ("said", "has", "will"...). On reuters-ese dev the countries'
 * share is 0.4-0.8, the nationality adjectives' 0.02-0.10; glossaries' entities are nouns.
 *
 * The rule walks a ranked list and moves to its end (their order kept) the entities with at
 * least NOUN_SLOTS_MIN_MENTIONS mentions whose share is below `ratio` times the median share
 * of the seeds (and accepted entities) — when the seeds are nouns, a list of what modifies
 * them is no list of their peers. Seeds that are modifiers themselves (median share 0) move
 * nothing.
 *
 * Cost: counting O(S) for S samples; the rule O(n + m log m) for a list of n and m seeds. */
#ifndef PROBEXPAN_NOUN_SLOTS_H
#define PROBEXPAN_NOUN_SLOTS_H

#include <stdint.h>

#include "model/pattern_model.h"

/* An entity's share of noun slots is estimated only from this many mentions on. */
#define NOUN_SLOTS_MIN_MENTIONS 10

/* The mentions of each entity row in a noun's slot into out[0..E), from the samples ps[0..S)
 * and their vocabulary tokens[0..ntokens) (a wordpiece vocabulary, id -> text). */
void noun_slots_count(const pattern_sample *ps, int64_t S, const char *const *tokens, int32_t ntokens, int64_t E,
                      int32_t *out);

/* The modifier rule on rows[0..n), a ranking of entity rows, for the members members[0..m)
 * (slots[] and mentions[] per row): order[0..n) receives the positions of rows in the new
 * order. Returns how many were moved (0: order is the identity). ratio <= 0 or slots NULL:
 * none moved. */
int noun_slots_demote(const int32_t *slots, const int64_t *mentions, const int64_t *members, int m,
                      const int64_t *rows, int n, double ratio, int *order);

#endif
