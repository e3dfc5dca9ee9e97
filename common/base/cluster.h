/* cluster: the ranks of an MPI job (Open MPI), for the stages that split their work across
 * processes and machines: data-parallel training (train-mlm), the frozen-prefix cache and
 * inference (infer) over disjoint sample ranges.
 *
 * Without MPI — a build without libopenmpi-dev, or a program not started by mpirun — there
 * is one rank (rank 0 of 1) and every call below is a cheap no-op, so the same code runs
 * single-process. cluster_init() initialises MPI only when the program was launched by
 * mpirun (OMPI_COMM_WORLD_SIZE in the environment); it is called once, after cli_parse.
 * Ranks other than 0 are made --quiet: progress and messages come once, from rank 0.
 *
 * Failure: a rank that dies (any die*()) exits without MPI_Finalize, and mpirun then ends the
 * whole job with a non-zero status naming the rank; outputs are written by rank 0 only,
 * through the artifact writer (temporary name, renamed at commit), so a failed job leaves no
 * artifact under the final name. */
#ifndef PROBEXPAN_CLUSTER_H
#define PROBEXPAN_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

/* Initialises MPI when launched by mpirun; dies (exit 1) when launched by mpirun in a
 * build without MPI support and more than one rank was asked for. */
void cluster_init(int *argc, char ***argv);
int cluster_rank(void);
int cluster_size(void);
/* 1 when this build links MPI. */
int cluster_has_mpi(void);

/* In-place element-wise sums over all ranks. Every rank gets the same bits (a reduction to
 * rank 0 and a broadcast, not MPI_Allreduce, whose result may differ between ranks in the
 * last bit), so replicas that apply the same update stay identical. */
void cluster_sum_f32(float *buf, size_t n);
void cluster_sum_f64(double *buf, size_t n);
void cluster_sum_i64(int64_t *buf, size_t n);
/* Gathers every rank's `rows` rows of `width` floats into `all` (capacity cap_rows rows) in
 * rank order, on every rank; returns the total rows and sets *first to this rank's first
 * row. One rank: copies mine into all (unless they are the same buffer). */
int64_t cluster_gather_rows(const float *mine, int64_t rows, int64_t width, float *all, int64_t cap_rows,
                            int64_t *first);
/* Point-to-point bytes (any size; split into messages of at most 1 GiB). */
void cluster_send(const void *buf, size_t bytes, int to);
void cluster_recv(void *buf, size_t bytes, int from);
void cluster_barrier(void);
/* Ends MPI cleanly (registered with atexit by cluster_init; safe to call twice). */
void cluster_finish(void);

#endif
