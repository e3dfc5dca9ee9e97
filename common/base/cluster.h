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

/* In-place element-wise sums over all ranks (MPI_Allreduce with MPI_IN_PLACE). Every rank
 * gets the same bits: IEEE addition of two values does not depend on their order, so with two
 * ranks any algorithm gives both the same sums, and Open MPI's algorithms for more ranks
 * (recursive doubling, ring, reduce-scatter + allgather, reduce + broadcast) either add
 * pairwise-symmetric partial sums or compute each element once and copy it. Data-parallel
 * training still checks that its replicas stay identical (the ranks' parameters checked identical before each checkpoint). */
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
/* A send in flight: cluster_isend() starts it and returns at once (bytes < 2 GiB); buf must
 * stay unchanged until cluster_wait() has returned, which also frees the request. With it a
 * rank computes its next piece of work while rank 0 still takes the previous one. */
typedef struct cluster_request cluster_request;
cluster_request *cluster_isend(const void *buf, size_t bytes, int to);
void cluster_wait(cluster_request *req); /* NULL: returns at once */
void cluster_barrier(void);
/* This rank's contiguous share [*lo, *hi) of n items of the given costs (e.g. the samples of
 * a global batch): item i goes to the rank whose slice of the total cost holds the middle of
 * the item, so shares differ by at most about one item's cost; a share may be empty. */
void cluster_share(const double *cost, int n, int *lo, int *hi);
/* Static work sharing without messages: returns the rank that takes a piece of work of
 * `cost` — the one with the least load so far (the highest such rank: rank 0, which writes
 * the outputs, gets the smaller share of an odd count) — and adds cost to its
 * load (load: cluster_size() doubles, zero at first). Every rank that calls it with the same
 * costs in the same order gets the same owners. */
int cluster_assign(double *load, double cost);

/* Where a rank's time goes in a phase of an MPI job: wall seconds, CPU seconds of the
 * process, and the wall and CPU seconds spent inside the calls of this module (transfers and
 * waiting for other ranks; Open MPI polls while it waits, so that CPU is not work). */
typedef struct {
    double wall, cpu, comm_wall, comm_cpu;
} cluster_clock;
/* Starts a phase (phases do not nest). */
cluster_clock cluster_phase_begin(void);
/* Collective (every rank calls it): logs, from rank 0, what each rank did in the phase begun
 * at `start`, in one line "PHASE profile: wall W s; rank 0 busy B s CPU, waiting M s; ...;
 * critical path C s CPU". busy is the CPU time outside communication (the rank's work),
 * waiting the wall time inside it. The critical path is what the phase would take on idle
 * cores, from CPU times that other jobs on the machine hardly change: when every rank made
 * the same collective calls (the steps of data-parallel training), the sum over the steps of
 * the slowest rank's work and the cheapest rank's collective call (the transfer without the
 * waiting), plus the slowest rank's work after its last step; otherwise (point-to-point
 * pipelines) the largest busy time. One rank: "PHASE profile: wall W s, CPU C s". */
void cluster_phase_end(const char *phase, cluster_clock start);
/* Ends MPI cleanly (registered with atexit by cluster_init; safe to call twice). */
void cluster_finish(void);

#endif
