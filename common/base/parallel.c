/* parallel: persistent worker threads with a generation counter and condition variables. */
#include "base/parallel.h"

#include <pthread.h>
#include <string.h>

#include "base/cli.h"
#include "base/error.h"

extern void openblas_set_num_threads(int num_threads);
extern int openblas_get_num_threads(void);

static int nthreads_set;      /* 0 = not set: cli_num_threads() */
static int nworkers;          /* started worker threads */
static pthread_t workers[PARALLEL_MAX_THREADS];
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv_start = PTHREAD_COND_INITIALIZER, cv_done = PTHREAD_COND_INITIALIZER;
static uint64_t generation;
static int pending;
static int inside;            /* a parallel_for is running (nested calls run serially) */

static struct {
    parallel_fn fn;
    void *ctx;
    int64_t n;
    int chunks;
} job;

static void chunk_range(int64_t n, int chunks, int i, int64_t *b, int64_t *e) {
    *b = n * i / chunks;
    *e = n * (i + 1) / chunks;
}

static void *worker_main(void *arg) {
    int id = (int)(intptr_t)arg;
    uint64_t seen = 0;
    for (;;) {
        pthread_mutex_lock(&mu);
        while (generation == seen) pthread_cond_wait(&cv_start, &mu);
        seen = generation;
        int chunks = job.chunks;
        pthread_mutex_unlock(&mu);
        if (id < chunks) {
            int64_t b, e;
            chunk_range(job.n, chunks, id, &b, &e);
            job.fn(job.ctx, b, e, id);
            pthread_mutex_lock(&mu);
            if (--pending == 0) pthread_cond_signal(&cv_done);
            pthread_mutex_unlock(&mu);
        }
    }
    return NULL;
}

int parallel_threads(void) {
    int n = nthreads_set ? nthreads_set : cli_num_threads();
    if (n < 1) n = 1;
    return n > PARALLEL_MAX_THREADS ? PARALLEL_MAX_THREADS : n;
}

void parallel_set_threads(int n) { nthreads_set = n; }

void parallel_for(int64_t n, int64_t grain, parallel_fn fn, void *ctx) {
    if (n <= 0) return;
    int chunks = parallel_threads();
    if (grain < 1) grain = 1;
    if (n / grain < chunks) chunks = (int)(n / grain);
    if (chunks <= 1 || inside) {
        fn(ctx, 0, n, 0);
        return;
    }
    while (nworkers < chunks - 1) {
        int err = pthread_create(&workers[nworkers + 1], NULL, worker_main, (void *)(intptr_t)(nworkers + 1));
        if (err)
            die("cannot start worker thread %d of %d: %s (not enough memory for its stack? try fewer --threads)",
                nworkers + 2, chunks, strerror(err));
        pthread_detach(workers[nworkers + 1]);
        nworkers++;
    }
    int blas = openblas_get_num_threads();
    openblas_set_num_threads(1);
    inside = 1;
    pthread_mutex_lock(&mu);
    job.fn = fn;
    job.ctx = ctx;
    job.n = n;
    job.chunks = chunks;
    pending = chunks - 1;
    generation++;
    pthread_cond_broadcast(&cv_start);
    pthread_mutex_unlock(&mu);
    int64_t b, e;
    chunk_range(n, chunks, 0, &b, &e);
    fn(ctx, b, e, 0);
    pthread_mutex_lock(&mu);
    while (pending > 0) pthread_cond_wait(&cv_done, &mu);
    pthread_mutex_unlock(&mu);
    inside = 0;
    openblas_set_num_threads(blas);
}
