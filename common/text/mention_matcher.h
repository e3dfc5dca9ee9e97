/* mention_matcher: longest-match lookup of entity names in token sequences.
 *
 * Names are token sequences (tokenised like the text, see sentence_split.h),
 * stored in a trie whose edges live in one hash table keyed by (parent node,
 * token). A name maps to one value (an entity index >= 0); several names (an
 * entity's aliases) may map to the same value. With ignore_case, names and text
 * tokens are compared after Unicode case folding (NFC + casefold). */
#ifndef PROBEXPAN_MENTION_MATCHER_H
#define PROBEXPAN_MENTION_MATCHER_H

#include <stdint.h>

typedef struct mention_matcher mention_matcher;

mention_matcher *matcher_new(int ignore_case);
void matcher_free(mention_matcher *m);

/* Adds the name tokens[0..n) (n >= 1) -> value (>= 0). Returns -1 when the name
 * was new or already mapped to `value`; otherwise the value it already maps to
 * (left unchanged). */
int32_t matcher_add(mention_matcher *m, char *const *tokens, int n, int32_t value);

/* Longest name starting at tokens[pos] within tokens[0..n): returns its length
 * in tokens and sets *value, or returns 0 when no name starts there. With
 * ignore_case the text tokens are folded here (callers pass the original). */
int matcher_longest(const mention_matcher *m, char *const *tokens, int n, int pos, int32_t *value);

/* Value of the name that is exactly tokens[0..n), or -1. */
int32_t matcher_get(const mention_matcher *m, char *const *tokens, int n);

/* Number of names added (distinct token sequences). */
int64_t matcher_size(const mention_matcher *m);

#endif
