/* prefix_cache: the frozen-prefix cache artifact (kind `cache`, schemas/cache.md).
 *
 * With F >= 1 frozen layers the embeddings and the bottom P = bert_prefix_layers(m)
 * layers never change, so their output for every sample ([len, H] per sample) is
 * computed once, stored as float16 (default) or bfloat16, and mmap'd by every epoch
 * and by the K models that train on the same samples and encoder in parallel processes
 * (the page cache holds one copy for all of them).
 *
 * Identity: the file records the sha256 of the samples artifact, an encoder fingerprint
 * (sha256 over the config fields that shape the prefix and the frozen tensors' names
 * and float32 data — so a pretrained directory and a seeded random init are treated
 * alike) and F. A cache whose identity differs from what the trainer has is refused
 * with exit 3 (never used, never overwritten).
 *
 * Concurrency: prefix_cache_obtain() takes an exclusive flock on PATH.lock before
 * building, re-checks, and builds through the artifact writer (PATH.tmp.XXXXXX, fsync,
 * rename); a second process asking for the same cache waits on the lock and then opens
 * the finished file. PATH.lock is left in place (removing it would race). */
#ifndef PROBEXPAN_PREFIX_CACHE_H
#define PROBEXPAN_PREFIX_CACHE_H

#include <stdint.h>

#include "artifacts/cache.h"
#include "artifacts/samples.h"
#include "nn/bert.h"

typedef struct prefix_cache prefix_cache;


/* Opens the cache at path for samples s (file sha256 samples_sha) and model m (F >= 1),
 * building it first if the file does not exist. dtype: "f16" or "bf16" (used only when
 * building). encoder_src: the model directory or config.json, recorded as an input. */
prefix_cache *prefix_cache_obtain(const char *path, const samples *s, const char *samples_sha,
                                  const bert_model *m, const char *encoder_src,
                                  const char *dtype);
/* Sample j's prefix output as float32 rows: out [len_j, H]. Thread-safe. */
void prefix_cache_rows(const prefix_cache *c, int64_t j, float *out);
/* Mean bytes per sample of the data (tokens·H·2 / samples). */
double prefix_cache_bytes_per_sample(const prefix_cache *c);
const char *prefix_cache_dtype(const prefix_cache *c);
void prefix_cache_close(prefix_cache *c);

#endif
