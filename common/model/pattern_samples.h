/* pattern_samples: the pattern model's input read from a samples artifact — each sample's
 * entity row and the PATTERN_SIDE ids on either side of its [MASK] (PATTERN_OUTSIDE past the
 * sequence). O(samples) time and memory. */
#ifndef PROBEXPAN_PATTERN_SAMPLES_H
#define PROBEXPAN_PATTERN_SAMPLES_H

#include "artifacts/samples.h"
#include "model/pattern_model.h"

/* Sample j's context into *out; ids: scratch room for samples_max_length(s) ids. */
void pattern_sample_read(const samples *s, int64_t j, int32_t *ids, pattern_sample *out);
/* malloc'd array of samples_count(s) contexts, in sample order. */
pattern_sample *pattern_samples_read(const samples *s);

#endif
