/* genus_heads: what the entities of a corpus index are said to be — the pattern model's
 * genus features (common/model/definition_genus.h: the head words of the definitions whose
 * subject is a mention, "Strauss : German composer of ..." -> composer) turned around, entity
 * by entity, from the index's feature postings; and the name of a set of entities: the heads
 * its members share.
 *
 * A feature is a genus feature when pattern_key_kind says so (feature kinds added later are
 * simply not genus features). The share of head f in entity e is c(f, e) / sum over e's
 * heads g of c(g, e): the part of e's definitions calling it f. Size O(E + genus pairs);
 * read-only after genus_heads_build, so any number of threads may query it at once. */
#ifndef PROBEXPAN_GENUS_HEADS_H
#define PROBEXPAN_GENUS_HEADS_H

#include <stdint.h>

#include "model/pattern_model.h"

typedef struct {
    int64_t E;
    int64_t features; /* genus features of the index */
    int64_t *off;     /* [E + 1] entity e's heads: feat / cnt [off[e] .. off[e + 1]) */
    int64_t *feat;    /* index feature ids, ascending within an entity */
    int32_t *cnt;     /* c(f, e): samples of e whose definition has head f */
    int64_t *total;   /* [E] sum of e's c(f, e) */
} genus_heads;

/* The heads of every entity of counts k. O(feature-entity pairs) to scan, O(genus pairs) kept. */
void genus_heads_build(genus_heads *h, const pattern_counts *k);
/* The same table over the features of another kind (the bag words near each entity's
 * mentions: class_proposals' narrowing words); `features` counts that kind. */
void genus_heads_build_kind(genus_heads *h, const pattern_counts *k, pattern_kind kind);
void genus_heads_free(genus_heads *h);

/* c(f, e), 0 when e's definitions never call it f. */
int32_t genus_heads_count(const genus_heads *h, int64_t e, int64_t f);

/* A head of a set of entities, with its support. */
typedef struct {
    int64_t feature;  /* index feature id */
    int set_holding;  /* members of the set whose definitions call them this */
    int list_holding; /* of the ranked list's entities */
} set_head;

/* The set's name: the heads held by at least half of set[0..nset) (rounded up; at least
 * one member), most members first, then most of list[0..nlist) (the expansion's ranking),
 * then the lowest feature id; up to max into out. Returns how many. O(genus pairs of the set
 * and the list). */
int genus_heads_of_set(const genus_heads *h, const int64_t *set, int nset, const int64_t *list, int nlist, set_head *out,
                       int max);

#endif
