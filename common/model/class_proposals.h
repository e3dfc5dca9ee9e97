/* class_proposals: the classes a corpus holds, proposed from its index alone, before anyone
 * gives a seed — groups of entities whose definitions share a head word (genus_heads.h:
 * "composer", "river", "programming language" -> language), each with its most typical
 * members.
 *
 * Every genus feature f is a candidate class; its entities are those whose definitions call
 * them f, each weighted by its share s(f, e) (the part of e's definitions calling it f:
 * Berlin, a capital in most definitions and a composer in one, is a weak composer). Then
 *   size      = sum over its entities of s(f, e)        (entities that are mainly f, softly)
 *   coherence = size / entities                          (1: f is all its entities are called)
 *   score     = size x coherence
 * and the classes are ranked by score. The core of a class is its entities with s >= 1/2; a
 * class with fewer than min_core of them is no proposal.
 * A head is narrowed by a word near the mentions (a bag feature of the index): "god" by
 * "greek", "king" by "england", "state" by "united" — up to `words` words per head, each held
 * by at least min_core of the head's core and by at most 80 % of it, min_lift times more often
 * than by the corpus' entities, best by (core holding it) x log(lift); the narrowed class is
 * the head's entities whose contexts show the word, sized and ranked like any class. The typical members are the
 * entities by share, then by c(f, e) (how often a definition says so), then by mentions, then
 * by row. A class whose typical members are mostly (> half) the typical members of a
 * better-ranked class is dropped as its duplicate ("capital" and "city" of the same cities, or
 * a head narrowed by a word most of its typical members show).
 * Cost O(genus pairs log); no text is read (names: common/model/feature_text.h). */
#ifndef PROBEXPAN_CLASS_PROPOSALS_H
#define PROBEXPAN_CLASS_PROPOSALS_H

#include <stdint.h>

#include "artifacts/index.h"
#include "model/genus_heads.h"

typedef struct {
    int min_core; /* entities with share >= 1/2 a class needs (>= 1) */
    int members;  /* typical members kept per class (>= 1) */
    int limit;    /* classes returned, best first (>= 1) */
    int words;    /* narrowing words per head (0: none) */
    double min_lift;
} class_options;

class_options class_options_defaults(void);

typedef struct {
    int64_t row;   /* entity row of the index */
    double share;  /* s(f, e) */
    int32_t count; /* c(f, e) */
} class_member;

typedef struct {
    int64_t feature;   /* the genus feature: index feature id */
    int64_t word;      /* the narrowing word (a bag feature), or -1 */
    int64_t entities;  /* entities whose definitions call them this */
    int64_t core;      /* of which mainly this (share >= 1/2) */
    double size, coherence, score;
    int nmembers;
    class_member *members; /* the most typical first */
} class_proposal;

/* The proposals of index x (its genus heads h) into *out (class_proposals_free); returns how
 * many (0 when the corpus has no definitions). */
int class_proposals_build(const corpus_index *x, const genus_heads *h, const class_options *o, class_proposal **out);
void class_proposals_free(class_proposal *p, int n);

#endif
