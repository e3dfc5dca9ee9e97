/* cluster: MPI ranks when built with PROBEXPAN_MPI and launched by mpirun, else one rank. */
#include "base/cluster.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"
#include "base/error.h"

/* cluster_gather_rows of a single process. */
static int64_t gather_one(const float *mine, int64_t rows, int64_t width, float *all, int64_t cap_rows,
                          int64_t *first) {
    if (rows > cap_rows) die("internal: cluster_gather_rows: %lld rows for %lld", (long long)rows, (long long)cap_rows);
    if (mine != all) memcpy(all, mine, sizeof(float) * (size_t)(rows * width));
    *first = 0;
    return rows;
}

#ifdef PROBEXPAN_MPI
#include <mpi.h>

static int initialised, rank, size = 1;

void cluster_init(int *argc, char ***argv) {
    if (initialised || !getenv("OMPI_COMM_WORLD_SIZE")) return;
    if (MPI_Init(argc, argv) != MPI_SUCCESS) die("MPI_Init failed");
    initialised = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank > 0) cli_quiet = 1; /* progress and messages once, from rank 0 (errors still print) */
    atexit(cluster_finish);
}

int cluster_has_mpi(void) { return 1; }
int cluster_rank(void) { return rank; }
int cluster_size(void) { return size; }

static void sum(void *buf, size_t n, MPI_Datatype type, size_t elem) {
    if (size == 1) return;
    const size_t max = (size_t)1 << 28; /* elements per call: counts are int */
    for (size_t off = 0; off < n; off += max) {
        size_t k = n - off < max ? n - off : max;
        void *p = (char *)buf + off * elem;
        int ok = rank == 0 ? MPI_Reduce(MPI_IN_PLACE, p, (int)k, type, MPI_SUM, 0, MPI_COMM_WORLD)
                           : MPI_Reduce(p, NULL, (int)k, type, MPI_SUM, 0, MPI_COMM_WORLD);
        if (ok != MPI_SUCCESS || MPI_Bcast(p, (int)k, type, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
            die("MPI sum over %d ranks failed", size);
    }
}

void cluster_sum_f32(float *buf, size_t n) { sum(buf, n, MPI_FLOAT, sizeof(float)); }
void cluster_sum_f64(double *buf, size_t n) { sum(buf, n, MPI_DOUBLE, sizeof(double)); }
void cluster_sum_i64(int64_t *buf, size_t n) { sum(buf, n, MPI_INT64_T, sizeof(int64_t)); }

int64_t cluster_gather_rows(const float *mine, int64_t rows, int64_t width, float *all, int64_t cap_rows,
                            int64_t *first) {
    if (size == 1) return gather_one(mine, rows, width, all, cap_rows, first);
    int64_t *n = xmalloc(sizeof(int64_t) * (size_t)size);
    MPI_Allgather(&rows, 1, MPI_INT64_T, n, 1, MPI_INT64_T, MPI_COMM_WORLD);
    int *counts = xmalloc(sizeof(int) * (size_t)size * 2), *displs = counts + size;
    int64_t total = 0;
    for (int r = 0; r < size; r++) {
        if (r == rank) *first = total;
        if ((n[r] + total) * width > INT_MAX || n[r] + total > cap_rows)
            die("internal: cluster_gather_rows: %lld rows of %lld floats do not fit", (long long)(n[r] + total),
                (long long)width);
        counts[r] = (int)(n[r] * width);
        displs[r] = (int)(total * width);
        total += n[r];
    }
    if (MPI_Allgatherv(mine, (int)(rows * width), MPI_FLOAT, all, counts, displs, MPI_FLOAT, MPI_COMM_WORLD) !=
        MPI_SUCCESS)
        die("MPI_Allgatherv failed");
    free(counts);
    free(n);
    return total;
}

#define MSG_MAX ((size_t)1 << 30)

void cluster_send(const void *buf, size_t bytes, int to) {
    for (size_t off = 0; off < bytes || off == 0; off += MSG_MAX) {
        size_t k = bytes - off < MSG_MAX ? bytes - off : MSG_MAX;
        if (MPI_Send((const char *)buf + off, (int)k, MPI_BYTE, to, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
            die("MPI_Send to rank %d failed", to);
        if (bytes == 0) break;
    }
}

void cluster_recv(void *buf, size_t bytes, int from) {
    for (size_t off = 0; off < bytes || off == 0; off += MSG_MAX) {
        size_t k = bytes - off < MSG_MAX ? bytes - off : MSG_MAX;
        if (MPI_Recv((char *)buf + off, (int)k, MPI_BYTE, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            die("MPI_Recv from rank %d failed", from);
        if (bytes == 0) break;
    }
}

void cluster_barrier(void) {
    if (size > 1) MPI_Barrier(MPI_COMM_WORLD);
}

void cluster_finish(void) {
    int done = 0;
    if (initialised && MPI_Finalized(&done) == MPI_SUCCESS && !done) MPI_Finalize();
}

#else /* one process */

void cluster_init(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    const char *n = getenv("OMPI_COMM_WORLD_SIZE");
    if (n && atoi(n) > 1)
        die("started by mpirun with %s ranks, but this build has no MPI support (install libopenmpi-dev and rebuild)", n);
}
int cluster_has_mpi(void) { return 0; }
int cluster_rank(void) { return 0; }
int cluster_size(void) { return 1; }
void cluster_sum_f32(float *buf, size_t n) { (void)buf, (void)n; }
void cluster_sum_f64(double *buf, size_t n) { (void)buf, (void)n; }
void cluster_sum_i64(int64_t *buf, size_t n) { (void)buf, (void)n; }
int64_t cluster_gather_rows(const float *mine, int64_t rows, int64_t width, float *all, int64_t cap_rows,
                            int64_t *first) {
    return gather_one(mine, rows, width, all, cap_rows, first);
}
void cluster_send(const void *buf, size_t bytes, int to) {
    (void)buf, (void)bytes;
    die("internal: cluster_send to rank %d in a single-process run", to);
}
void cluster_recv(void *buf, size_t bytes, int from) {
    (void)buf, (void)bytes;
    die("internal: cluster_recv from rank %d in a single-process run", from);
}
void cluster_barrier(void) {}
void cluster_finish(void) {}

#endif
