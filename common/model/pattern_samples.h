/* pattern_samples: the pattern model's input read from a samples artifact — each sample's
 * entity row and the PATTERN_SIDE ids on either side of its [MASK] (PATTERN_OUTSIDE past the
 * sequence). O(samples) time and memory. */
#ifndef PROBEXPAN_PATTERN_SAMPLES_H
#define PROBEXPAN_PATTERN_SAMPLES_H

#include "artifacts/samples.h"
#include "model/pattern_model.h"

/* malloc'd array of samples_count(s) contexts, in sample order. */
pattern_sample *pattern_samples_read(const samples *s);

#endif
