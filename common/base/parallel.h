/* parallel: a small persistent thread pool for the encoder's loops (what llm.c does with
 * "#pragma omp parallel for", without OpenMP).
 *
 * parallel_for(n, grain, fn, ctx) splits [0, n) into at most parallel_threads() contiguous
 * chunks of at least `grain` items, runs fn(ctx, begin, end, tid) for each (chunk 0 on the
 * calling thread, tid = chunk index < PARALLEL_MAX_THREADS) and returns when all are done.
 * Chunks are a fixed function of n and the thread count, so results are deterministic for a
 * given thread count. While a parallel_for runs, OpenBLAS is single-threaded (each chunk
 * calls it on its own part) and restored afterwards, so the two never oversubscribe the
 * cores. Calls must come from one thread at a time (the encoder's main thread); nesting runs
 * the inner loop serially. */
#ifndef PROBEXPAN_PARALLEL_H
#define PROBEXPAN_PARALLEL_H

#include <stdint.h>

#define PARALLEL_MAX_THREADS 64

typedef void (*parallel_fn)(void *ctx, int64_t begin, int64_t end, int tid);

/* Threads used: set by parallel_set_threads, else cli_num_threads() (--threads / cores). */
int parallel_threads(void);
void parallel_set_threads(int n);
void parallel_for(int64_t n, int64_t grain, parallel_fn fn, void *ctx);

#endif
