/* pattern_samples: the pattern model's input read from a samples artifact — each sample's
 * entity row, the PATTERN_SIDE ids on either side of its [MASK] (PATTERN_OUTSIDE past the
 * sequence) and the head words of the definition the mention is the subject of
 * (definition_genus.h). O(samples) time and memory. */
#ifndef PROBEXPAN_PATTERN_SAMPLES_H
#define PROBEXPAN_PATTERN_SAMPLES_H

#include "artifacts/samples.h"
#include "model/definition_genus.h"
#include "model/pattern_model.h"

/* The definition roles of the samples' vocabulary (genus_vocab_free after use). */
void pattern_genus_vocab(const samples *s, genus_vocab *v);
/* Sample j's context into *out; ids: scratch room for samples_max_length(s) ids; v: the
 * samples' pattern_genus_vocab. */
void pattern_sample_read(const samples *s, const genus_vocab *v, int64_t j, int32_t *ids, pattern_sample *out);
/* malloc'd array of samples_count(s) contexts, in sample order. */
pattern_sample *pattern_samples_read(const samples *s);

#endif
