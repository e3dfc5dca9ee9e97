/* epoch_sampler: which samples one training epoch visits (docs/design.md §3, train-mlm).
 *
 * Per epoch every entity contributes k samples: k distinct ones drawn without
 * replacement when it has n >= k, else k independent draws with replacement (the
 * official code's random.sample / random.choices split). The E·k drawn sample indices
 * are then shuffled together. Everything comes from the caller's rng, so an epoch is a
 * pure function of the rng state (resume restores that state). */
#ifndef PROBEXPAN_EPOCH_SAMPLER_H
#define PROBEXPAN_EPOCH_SAMPLER_H

#include <stdint.h>

#include "base/rng.h"

#define EPOCH_ALL 0   /* k meaning "every sample of every entity once" */

/* k from a --samples-per-entity value: a whole number >= 1, "avg" = the average number
 * of samples per entity, total/entities rounded to nearest (>= 1), or "all" = EPOCH_ALL
 * (each entity contributes all its own samples once, no repeats).
 * Anything else exits 2 naming the option. */
int64_t epoch_per_entity(const char *spec, int64_t total_samples, int64_t entities);

/* Samples in one epoch: E·k, or the total with EPOCH_ALL. */
int64_t epoch_size(int64_t E, const int64_t *count, int64_t k);

/* Fills out[epoch_size()] for entities 0..E-1 whose samples are
 * [first[e], first[e]+count[e]): entity by entity draws (see above), then one shuffle of
 * the whole list. */
void epoch_draw(int64_t E, const int64_t *first, const int64_t *count, int64_t k, rng_t *rng,
                int64_t *out);

#endif
