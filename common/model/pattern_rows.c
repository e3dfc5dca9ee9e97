/* pattern_rows: pattern-model rows computed on demand and cached. */
#include "model/pattern_rows.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"

static const sparse_row *rows_get(void *ctx, int64_t e) {
    pattern_rows *r = ctx;
    if (r->cache[e]) return r->cache[e];
    sparse_row *out = xcalloc(1, sizeof *out);
    if (r->k == 1) {
        pattern_model_sparse_row(r->m[0], r->ref[0], e, r->scratch, out);
    } else {
        sparse_row parts[PATTERN_ROWS_MAX];
        const sparse_row *pp[PATTERN_ROWS_MAX];
        for (int i = 0; i < r->k; i++) {
            pattern_model_sparse_row(r->m[i], r->ref[i], e, r->scratch, &parts[i]);
            pp[i] = &parts[i];
        }
        sparse_row_mean(pp, r->k, out, r->mark);
        for (int i = 0; i < r->k; i++) sparse_row_free(&parts[i]);
    }
    r->kept[r->nkept++] = e;
    return r->cache[e] = out;
}


void pattern_rows_init(pattern_rows *r, int k, const pattern_model *const *m, const pattern_refinement *const *ref) {
    if (k < 1 || k > PATTERN_ROWS_MAX) die("pattern_rows_init: %d models (expected 1..%d)", k, PATTERN_ROWS_MAX);
    memset(r, 0, sizeof *r);
    r->k = k;
    r->E = pattern_model_entities(m[0]);
    for (int i = 0; i < k; i++) {
        if (pattern_model_entities(m[i]) != r->E) die("pattern_rows_init: models of different entity counts");
        r->m[i] = m[i];
        r->ref[i] = ref ? ref[i] : NULL;
    }
    r->cache = xcalloc((size_t)r->E + 1, sizeof(sparse_row *));
    r->kept = xmalloc(sizeof(int64_t) * (size_t)(r->E + 1));
    r->scratch = pattern_scratch_new(m[0]);
    r->mark = xmalloc(sizeof(int32_t) * (size_t)(r->E + 1));
    for (int64_t e = 0; e < r->E; e++) r->mark[e] = -1;
    r->getter = (sparse_row_getter){rows_get, r};
    r->src = sparse_row_source(r->E, &r->getter);
}

void pattern_rows_forget(pattern_rows *r) {
    for (int64_t i = 0; i < r->nkept; i++) {
        sparse_row_free(r->cache[r->kept[i]]);
        free(r->cache[r->kept[i]]);
        r->cache[r->kept[i]] = NULL;
    }
    r->nkept = 0;
}

void pattern_rows_free(pattern_rows *r) {
    if (!r->cache) return;
    pattern_rows_forget(r);
    free(r->cache);
    free(r->kept);
    pattern_scratch_free(r->scratch);
    free(r->mark);
    memset(r, 0, sizeof *r);
}
