/* pattern_samples: the pattern model's input read from a samples artifact — each sample's
 * entity row, the PATTERN_SIDE ids on either side of its [MASK] (PATTERN_OUTSIDE past the
 * sequence), the head words of the definition the mention is the subject of
 * (definition_genus.h), the coordination list it is in among the mentions of its sentence
 * (coordination.h: samples with the same sentence index), the class nouns of the patterns
 * around it or its list (hearst_heads.h) and the head of its entity's name (name_head.h).
 * O(samples) memory; time O(samples log samples) (grouping by sentence) plus O(tokens). */
#ifndef PROBEXPAN_PATTERN_SAMPLES_H
#define PROBEXPAN_PATTERN_SAMPLES_H

#include "artifacts/samples.h"
#include "model/definition_genus.h"
#include "model/pattern_model.h"

/* The definition roles of the samples' vocabulary (genus_vocab_free after use). */
void pattern_genus_vocab(const samples *s, genus_vocab *v);
/* Sample j's context on its own into *out: the signals of its sentence's other mentions
 * (lists, and the patterns around a list) and its entity's name head and titles are left
 * out (nlisted 0, heads of the mention alone, name -1, no titles); ids: scratch room for samples_max_length(s) ids;
 * v: the samples' pattern_genus_vocab. */
void pattern_sample_read(const samples *s, const genus_vocab *v, int64_t j, int32_t *ids, pattern_sample *out);
/* The head word of each entity's name into name[E][GENUS_PIECES] (-1 padded; all -1: none), and
 * the words before it in the entity's longer names into title[E][NAME_TITLES][GENUS_PIECES]
 * (ntitle[E] of them): "Finance Minister Kiichi Miyazawa" gives Miyazawa kiichi, minister,
 * finance (the names encoded with the samples' vocabulary, as the sentences were); E =
 * samples_entities(s), gv: the samples' pattern_genus_vocab. */
void pattern_name_heads(const samples *s, const genus_vocab *gv, int32_t (*name)[GENUS_PIECES],
                        int32_t (*title)[NAME_TITLES][GENUS_PIECES], int *ntitle);
/* malloc'd array of samples_count(s) contexts, in sample order, with every signal; the titles
 * of each entity's name are held once, after the array, for all its samples (free() releases
 * both). */
pattern_sample *pattern_samples_read(const samples *s);

#endif
