/* cluster: MPI ranks when built with PROBEXPAN_MPI and launched by mpirun, else one rank. */
#include "base/cluster.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/cli.h"
#include "base/error.h"
#include "base/log.h"

/* Profiling (cluster_phase_begin/end); CPU means the process's CPU seconds. */
static double comm_wall, comm_cpu;  /* wall and CPU inside this module's MPI calls, in all */
/* The phase's steps, each ended by a collective call: {work (CPU outside MPI calls), CPU of
 * that collective call}; the current step began at CPU step_cpu0 (comm_cpu then step_comm0). */
static double step_cpu0, step_comm0;
static size_t nsteps;

static double cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

cluster_clock cluster_phase_begin(void) {
    nsteps = 0;
    step_cpu0 = cpu_seconds();
    step_comm0 = comm_cpu;
    return (cluster_clock){now_seconds(), step_cpu0, comm_wall, comm_cpu};
}

/* This rank's figures for cluster_phase_end: {wall, busy, waiting, work since its last step,
 * steps}. */
#define FIGURES 5
static void figures_of(cluster_clock start, double v[FIGURES]) {
    double cpu = cpu_seconds();
    v[0] = now_seconds() - start.wall;
    v[1] = (cpu - start.cpu) - (comm_cpu - start.comm_cpu);
    v[2] = comm_wall - start.comm_wall;
    v[3] = (cpu - step_cpu0) - (comm_cpu - step_comm0);
    v[4] = (double)nsteps;
}

/* The critical path from every rank's figures v[FIGURES·r..] and steps s[2·nsteps·r..] (NULL
 * when the ranks took different numbers of steps): the sum over the steps of the slowest
 * rank's work plus the cheapest rank's collective call, plus the slowest rank's last work;
 * without common steps, the most work of a rank. */
static double critical_path(const double *v, const double *s, int ranks) {
    double path = 0;
    if (s) {
        size_t n = (size_t)v[4];
        for (size_t i = 0; i < n; i++) {
            double work = 0, call = s[2 * i + 1];
            for (int r = 0; r < ranks; r++) {
                const double *st = s + 2 * n * (size_t)r + 2 * i;
                work = st[0] > work ? st[0] : work;
                call = st[1] < call ? st[1] : call;
            }
            path += work + call;
        }
        double tail = 0;
        for (int r = 0; r < ranks; r++) tail = v[FIGURES * r + 3] > tail ? v[FIGURES * r + 3] : tail;
        return path + tail;
    }
    for (int r = 0; r < ranks; r++) path = v[FIGURES * r + 1] > path ? v[FIGURES * r + 1] : path;
    return path;
}

/* The profile line of cluster_phase_end. */
static void profile_line(const char *phase, const double *v, const double *s, int ranks) {
    if (ranks == 1) {
        log_info("%s profile: wall %.2f s, CPU %.2f s", phase, v[0], v[1]);
        return;
    }
    size_t cap = 160 + (size_t)ranks * 64, len = 0;
    char *line = xmalloc(cap);
    double wall = 0;
    for (int r = 0; r < ranks; r++) wall = v[FIGURES * r] > wall ? v[FIGURES * r] : wall;
    len += (size_t)snprintf(line, cap, "wall %.2f s", wall);
    for (int r = 0; r < ranks; r++)
        len += (size_t)snprintf(line + len, cap - len, "; rank %d busy %.2f s CPU, waiting %.2f s", r,
                                v[FIGURES * r + 1], v[FIGURES * r + 2]);
    snprintf(line + len, cap - len, "; critical path %.2f s CPU", critical_path(v, s, ranks));
    log_info("%s profile: %s", phase, line);
    free(line);
}

void cluster_share(const double *cost, int n, int *lo, int *hi) {
    int R = cluster_size(), r = cluster_rank();
    double total = 0, before = 0;
    for (int i = 0; i < n; i++) total += cost[i];
    *lo = *hi = n;
    for (int i = 0; i < n; i++) {
        int owner = total > 0 ? (int)((before + cost[i] / 2) / total * R) : (int)((int64_t)i * R / n);
        if (owner > R - 1) owner = R - 1;
        if (owner >= r && *lo == n) *lo = i;
        if (owner > r) {
            *hi = i;
            break;
        }
        before += cost[i];
    }
}

int cluster_assign(double *load, double cost) {
    int best = cluster_size() - 1;
    for (int r = best - 1; r >= 0; r--)
        if (load[r] < load[best]) best = r;
    load[best] += cost;
    return best;
}

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
static double *steps; /* [2 * nsteps] */
static size_t cap_steps;

/* Brackets an MPI call: comm_begin() returns its start; comm_end() adds the time spent and,
 * for a collective call, ends a step. */
static cluster_clock comm_begin(void) { return (cluster_clock){now_seconds(), cpu_seconds(), 0, 0}; }
static void comm_end(cluster_clock t, int collective) {
    double cpu = cpu_seconds();
    if (collective) {
        if (nsteps == cap_steps) {
            cap_steps = cap_steps ? 2 * cap_steps : 1024;
            steps = xrealloc(steps, sizeof(double) * 2 * cap_steps);
        }
        steps[2 * nsteps] = (t.cpu - step_cpu0) - (comm_cpu - step_comm0);
        steps[2 * nsteps++ + 1] = cpu - t.cpu;
    }
    comm_wall += now_seconds() - t.wall;
    comm_cpu += cpu - t.cpu;
    if (collective) {
        step_cpu0 = cpu;
        step_comm0 = comm_cpu;
    }
}

void cluster_init(int *argc, char ***argv) {
    if (initialised || !getenv("OMPI_COMM_WORLD_SIZE")) return;
    if (MPI_Init(argc, argv) != MPI_SUCCESS) die("MPI_Init failed");
    initialised = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank > 0) cli_quiet = 1; /* progress and messages once, from rank 0 (errors still print) */
    atexit(cluster_finish);
}

int cluster_rank(void) { return rank; }
int cluster_size(void) { return size; }

static void sum(void *buf, size_t n, MPI_Datatype type, size_t elem) {
    if (size == 1) return;
    const size_t max = (size_t)1 << 28; /* elements per call: counts are int */
    cluster_clock t = comm_begin();
    for (size_t off = 0; off < n; off += max) {
        size_t k = n - off < max ? n - off : max;
        if (MPI_Allreduce(MPI_IN_PLACE, (char *)buf + off * elem, (int)k, type, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS)
            die("MPI sum over %d ranks failed", size);
    }
    comm_end(t, 1);
}

void cluster_sum_f32(float *buf, size_t n) { sum(buf, n, MPI_FLOAT, sizeof(float)); }
void cluster_sum_f64(double *buf, size_t n) { sum(buf, n, MPI_DOUBLE, sizeof(double)); }
void cluster_sum_i64(int64_t *buf, size_t n) { sum(buf, n, MPI_INT64_T, sizeof(int64_t)); }

int64_t cluster_gather_rows(const float *mine, int64_t rows, int64_t width, float *all, int64_t cap_rows,
                            int64_t *first) {
    if (size == 1) return gather_one(mine, rows, width, all, cap_rows, first);
    cluster_clock t = comm_begin();
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
    comm_end(t, 1);
    free(counts);
    free(n);
    return total;
}

#define MSG_MAX ((size_t)1 << 30)

void cluster_send(const void *buf, size_t bytes, int to) {
    cluster_clock t = comm_begin();
    for (size_t off = 0; off < bytes || off == 0; off += MSG_MAX) {
        size_t k = bytes - off < MSG_MAX ? bytes - off : MSG_MAX;
        if (MPI_Send((const char *)buf + off, (int)k, MPI_BYTE, to, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
            die("MPI_Send to rank %d failed", to);
        if (bytes == 0) break;
    }
    comm_end(t, 0);
}

void cluster_recv(void *buf, size_t bytes, int from) {
    cluster_clock t = comm_begin();
    for (size_t off = 0; off < bytes || off == 0; off += MSG_MAX) {
        size_t k = bytes - off < MSG_MAX ? bytes - off : MSG_MAX;
        if (MPI_Recv((char *)buf + off, (int)k, MPI_BYTE, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            die("MPI_Recv from rank %d failed", from);
        if (bytes == 0) break;
    }
    comm_end(t, 0);
}

struct cluster_request {
    MPI_Request req;
    int to;
};

cluster_request *cluster_isend(const void *buf, size_t bytes, int to) {
    if (bytes > INT_MAX) die("internal: cluster_isend of %zu bytes", bytes);
    cluster_request *r = xmalloc(sizeof *r);
    r->to = to;
    cluster_clock t = comm_begin();
    if (MPI_Isend(buf, (int)bytes, MPI_BYTE, to, 0, MPI_COMM_WORLD, &r->req) != MPI_SUCCESS)
        die("MPI_Isend to rank %d failed", to);
    comm_end(t, 0);
    return r;
}

void cluster_wait(cluster_request *r) {
    if (!r) return;
    cluster_clock t = comm_begin();
    if (MPI_Wait(&r->req, MPI_STATUS_IGNORE) != MPI_SUCCESS) die("MPI send to rank %d failed", r->to);
    comm_end(t, 0);
    free(r);
}

void cluster_barrier(void) {
    if (size == 1) return;
    cluster_clock t = comm_begin();
    MPI_Barrier(MPI_COMM_WORLD);
    comm_end(t, 1);
}

void cluster_phase_end(const char *phase, cluster_clock start) {
    double mine[FIGURES], *all = xmalloc(sizeof(double) * FIGURES * (size_t)size), *s = NULL;
    figures_of(start, mine);
    if (size == 1) {
        profile_line(phase, mine, NULL, 1);
        free(all);
        return;
    }
    if (MPI_Gather(mine, FIGURES, MPI_DOUBLE, all, FIGURES, MPI_DOUBLE, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
        die("MPI_Gather failed");
    int64_t same = 1; /* did every rank take rank 0's number of steps? */
    for (int r = 0; r < size && rank == 0; r++) same &= all[FIGURES * r + 4] == mine[4];
    if (MPI_Bcast(&same, 1, MPI_INT64_T, 0, MPI_COMM_WORLD) != MPI_SUCCESS) die("MPI_Bcast failed");
    if (same && nsteps) {
        s = xmalloc(sizeof(double) * 2 * nsteps * (size_t)size);
        if (MPI_Gather(steps, (int)(2 * nsteps), MPI_DOUBLE, s, (int)(2 * nsteps), MPI_DOUBLE, 0, MPI_COMM_WORLD) !=
            MPI_SUCCESS)
            die("MPI_Gather failed");
    }
    if (rank == 0) profile_line(phase, all, s, size);
    free(s);
    free(all);
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
cluster_request *cluster_isend(const void *buf, size_t bytes, int to) {
    (void)buf, (void)bytes;
    die("internal: cluster_isend to rank %d in a single-process run", to);
}
void cluster_wait(cluster_request *req) { (void)req; }
void cluster_barrier(void) {}
void cluster_phase_end(const char *phase, cluster_clock start) {
    double v[FIGURES];
    figures_of(start, v);
    profile_line(phase, v, NULL, 1);
}
void cluster_finish(void) {}

#endif
