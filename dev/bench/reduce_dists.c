/* reduce_dists: what a reader of a sparse `dists` form (top-k entries per row plus
 * the remaining mass) would see, written back as a dense dists artifact, so that
 * expand/rerank/evaluate measure what the sparse form would cost.
 *   reduce_dists --k K IN.mp OUT.mp   each row keeps its K largest entries; the
 *                                     remaining mass is spread evenly over the other
 *                                     V_e - K columns
 * For the encoder-dists decision of `make bench-dists-forms`. Memory O(V_e). */
#include <stdlib.h>

#include "artifacts/dists.h"
#include "base/cli.h"
#include "base/error.h"
#include "base/log.h"

static const float *sort_base;
static int by_value_desc(const void *a, const void *b) {
    float x = sort_base[*(const int64_t *)a], y = sort_base[*(const int64_t *)b];
    return x > y ? -1 : x < y;
}

/* Keeps the k largest of x[0..n) (ties: lower index first), spreads the rest of the mass evenly. */
static void keep_top(const float *x, int64_t n, long k, int64_t *order, float *out) {
    for (int64_t j = 0; j < n; j++) order[j] = j;
    sort_base = x;
    qsort(order, (size_t)n, sizeof(int64_t), by_value_desc);
    double total = 0, kept = 0;
    for (int64_t j = 0; j < n; j++) total += x[j];
    for (int64_t j = 0; j < k && j < n; j++) kept += x[order[j]];
    float rest = n > k ? (float)((total - kept) / (double)(n - k)) : 0;
    for (int64_t j = 0; j < n; j++) out[j] = rest;
    for (int64_t j = 0; j < k && j < n; j++) out[order[j]] = x[order[j]];
}

int main(int argc, char **argv) {
    long k = 256;
    const cli_option opts[] = {{"k", OPT_LONG, &k, "K", "entries kept per row", 1, 1e9}, {0}};
    const cli_spec spec = {"reduce_dists", "a dists artifact as a reader of its top-k form would see it, written dense",
                           "[options] IN.mp OUT.mp", "reduce_dists --k 256 phase1/dists-1.mp top256.mp",
                           "make bench-dists-forms, expand, rerank", opts, 2};
    int first = cli_parse(&spec, argc, argv);
    if (first != argc - 2) die_usage("need IN.mp and OUT.mp (try --help)");
    dists d;
    dists_open(&d, argv[first]);
    int64_t n = dists_n(&d);
    dists_writer *w = dists_create(argv[first + 1], &d.ent);
    artifact_param_int(dists_artifact(w), "top_k", k);
    artifact_add_input(dists_artifact(w), argv[first]);
    float *p = xmalloc(sizeof(float) * (size_t)n);
    int64_t *order = xmalloc(sizeof(int64_t) * (size_t)n);
    progress pr;
    progress_start(&pr, "reduce", "rows", n);
    for (int64_t i = 0; i < n; i++) {
        keep_top(row_matrix_row(&d.prob, i), n, k, order, p);
        dists_write_row(w, p);
        progress_update(&pr, i + 1);
    }
    progress_end(&pr);
    dists_commit(w);
    dists_close(&d);
    free(p);
    free(order);
    return 0;
}
