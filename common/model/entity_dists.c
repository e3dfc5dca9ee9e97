/* entity_dists: per-entity mean predicted distributions, streamed to a dists artifact. */
#include "model/entity_dists.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "artifacts/dists.h"
#include "base/cluster.h"
#include "base/error.h"
#include "base/log.h"
#include "base/rng.h"
#include "base/sort.h"

#define PIPELINE 3 /* batches a worker rank keeps in flight to rank 0 */

typedef struct {
    const entity_dists_model *models;
    int nm;                           /* models */
    const samples *s;
    dists_writer *w;
    int V, H;                         /* entities; the largest hidden size */
    bert_batch b;
    int32_t *ids;                     /* one sample's tokens */
    int B, T;                         /* the batch being packed: samples, tokens */
    double cost;                      /* its bert_sequence_cost */
    int64_t *sample, *tot;            /* each batch sample, its entity's sample count */
    float *hid, *dense, *gelu, *logp; /* [B,H] x3, [models,B,V] */
    float *sendbuf[PIPELINE];         /* a worker's log-softmax rows in flight to rank 0 */
    cluster_request *sent[PIPELINE];
    int slot;
    double *load;                     /* work given to each rank (cluster_assign) */
    double *acc_p;                    /* [models,V]: the entity in progress */
    double *ex;                       /* exp of one log-softmax row */
    float *out_p;
    int64_t cur_n;                    /* samples of the entity in progress added so far */
    int64_t rows_done, samples_done;
} run_state;

/* Folds the batch's log-softmax rows into the accumulators of their entity (one per model),
 * writing each entity's row as soon as its last sample is in (rank 0 only): the mean over the
 * models of each model's row rounded to float (one model: that row). */
static void fold(run_state *r) {
    int B = r->B, V = r->V;
    for (int i = 0; i < B; i++) {
        for (int k = 0; k < r->nm; k++) {
            const float *lp = r->logp + ((size_t)k * B + i) * V;
            double *acc = r->acc_p + (size_t)k * V, z = 0;
            for (int v = 0; v < V; v++) z += r->ex[v] = expf(lp[v]);
            for (int v = 0; v < V; v++) acc[v] += r->ex[v] / z;
        }
        if (++r->cur_n == r->tot[i]) {
            for (int v = 0; v < V; v++) {
                double sum = 0;
                for (int k = 0; k < r->nm; k++) sum += (float)(r->acc_p[(size_t)k * V + v] / (double)r->tot[i]);
                r->out_p[v] = (float)(sum / r->nm);
            }
            dists_write_row(r->w, r->out_p);
            memset(r->acc_p, 0, sizeof(double) * (size_t)V * r->nm);
            r->rows_done++;
            r->cur_n = 0;
        }
    }
}

/* The log-softmax rows of the packed batch under every model into logp [models, B, V]. */
static void run_batch(run_state *r, float *logp) {
    const bert_config *c = &r->models[0].enc->cfg; /* every model has the samples' [MASK] and lengths */
    bert_batch_clear(&r->b);
    for (int i = 0; i < r->B; i++) {
        int len = samples_tokens(r->s, r->sample[i], r->ids);
        if (bert_batch_add(&r->b, (const int *)r->ids, len, c->mask_token_id, c->max_pos))
            die_input(samples_path(r->s), "sample", "sample %lld has no [MASK] (id %d)", (long long)r->sample[i],
                      c->mask_token_id);
    }
    for (int k = 0; k < r->nm; k++) {
        bert_forward_infer(r->models[k].enc, &r->b, r->hid);
        entity_head_forward(r->models[k].head, r->hid, r->B, r->dense, r->gelu, logp + (size_t)k * r->B * r->V);
    }
}

/* Ends the batch being packed: its owner (cluster_assign, by work) runs it; rank 0 receives
 * the others' log-softmax rows and folds every batch in order, so the artifact is the same
 * whatever the number of ranks (for the same threads per rank). A worker sends without
 * waiting for rank 0 to take the rows (up to PIPELINE batches in flight). */
static void flush(run_state *r) {
    int B = r->B, rank = cluster_rank();
    if (!B) return;
    int owner = cluster_assign(r->load, r->cost);
    size_t bytes = sizeof(float) * (size_t)r->nm * B * r->V;
    if (owner == rank && rank > 0) {
        cluster_wait(r->sent[r->slot]); /* the slot's previous rows have reached rank 0 */
        run_batch(r, r->sendbuf[r->slot]);
        r->sent[r->slot] = cluster_isend(r->sendbuf[r->slot], bytes, 0);
        r->slot = (r->slot + 1) % PIPELINE;
    } else if (rank == 0) {
        if (owner == 0) run_batch(r, r->logp);
        else cluster_recv(r->logp, bytes, owner);
        fold(r);
    }
    r->samples_done += B;
    r->B = r->T = 0;
    r->cost = 0;
}

/* Dies with exit 3 unless the model can run the samples. */
static void check_model(const entity_dists_model *md, const samples *s) {
    const bert_config *c = &md->enc->cfg;
    int64_t E = samples_entities(s);
    if (md->head->V != E)
        die_input(md->dir, "probexpan.num_entities", "the model predicts %d entities, %s has %lld: it was trained "
                  "on other samples", md->head->V, samples_path(s), (long long)E);
    if (samples_max_length(s) > c->max_pos)
        die_input(md->dir, "max_position_embeddings", "%d positions, the samples have sequences of %d", c->max_pos,
                  samples_max_length(s));
    if (c->mask_token_id != samples_specials(s).mask)
        die_input(md->dir, "probexpan.mask_token_id", "[MASK] is id %d in the model, %d in %s", c->mask_token_id,
                  samples_specials(s).mask, samples_path(s));
    if (samples_vocab_size(s) > c->vocab_size)
        die_input(md->dir, "vocab_size", "the model has %d token ids, the samples' vocabulary %d", c->vocab_size,
                  samples_vocab_size(s));
    char *vocab = xasprintf("%s/vocab.txt", md->dir);
    samples_check_vocab_file(s, vocab);
    free(vocab);
}

/* Records a path as an input, resolved as the catalog records outputs: lineage then finds
 * the model (OUT/final -> OUT/epoch-N) and the samples artifact. */
static void add_resolved_input(artifact_writer *a, const char *path) {
    char *real = realpath(path, NULL);
    artifact_add_input(a, real ? real : path);
    free(real);
}

entity_dists_stats entity_dists_write(const entity_dists_model *models, int nmodels, const samples *s,
                                      const int64_t *rows, int64_t nrows, const char *out_path,
                                      int64_t max_per_entity, uint64_t seed) {
    int64_t E = samples_entities(s);
    run_state r = {0};
    r.models = models;
    r.nm = nmodels;
    r.s = s;
    r.V = (int)E;
    for (int k = 0; k < nmodels; k++) {
        check_model(&models[k], s);
        if (models[k].enc->cfg.hidden > r.H) r.H = models[k].enc->cfg.hidden;
    }
    cluster_clock c0 = cluster_phase_begin();
    if (cluster_rank() == 0) { /* the one writer */
        entity_table t;
        samples_entity_table(s, &t);
        r.w = rows ? dists_create_rows(out_path, &t, rows, nrows) : dists_create(out_path, &t);
        entity_table_free(&t);
        artifact_writer *a = dists_artifact(r.w);
        artifact_param_options(a); /* the program's (infer's) options */
        for (int k = 0; k < nmodels; k++) add_resolved_input(a, models[k].dir);
        add_resolved_input(a, samples_path(s));
    }

    int Bmax = (int)(ENTITY_DISTS_BATCH_FLOATS / r.V);
    if (Bmax < 1) Bmax = 1;
    if (Bmax > 256) Bmax = 256;
    r.sample = xmalloc(sizeof(int64_t) * (size_t)Bmax * 2);
    r.tot = r.sample + Bmax;
    r.hid = xmalloc(sizeof(float) * (size_t)Bmax * r.H * 3);
    r.dense = r.hid + (size_t)Bmax * r.H;
    r.gelu = r.dense + (size_t)Bmax * r.H;
    if (cluster_rank() == 0) {
        r.logp = xmalloc(sizeof(float) * (size_t)nmodels * Bmax * r.V);
        r.acc_p = xcalloc((size_t)r.V * (nmodels + 1), sizeof(double));
        r.ex = r.acc_p + (size_t)r.V * nmodels;
        r.out_p = xmalloc(sizeof(float) * (size_t)r.V);
    } else {
        for (int i = 0; i < PIPELINE; i++) r.sendbuf[i] = xmalloc(sizeof(float) * (size_t)nmodels * Bmax * r.V);
    }
    r.load = xcalloc((size_t)cluster_size(), sizeof(double));
    bert_batch_clear(&r.b);
    r.ids = xmalloc(sizeof(int32_t) * (size_t)samples_max_length(s));
    int64_t *pick = NULL, pick_cap = 0, next_row = 0;
    rng_t rng;
    rng_seed(&rng, seed);
    progress pr;
    progress_start(&pr, "mean distributions", "entities", E);
    for (int64_t e = 0; e < E; e++) {
        int64_t first, n;
        samples_range(s, e, &first, &n);
        int64_t k = max_per_entity > 0 && n > max_per_entity ? max_per_entity : n;
        if (k > pick_cap) {
            pick_cap = k;
            pick = xrealloc(pick, sizeof(int64_t) * (size_t)k);
        }
        if (k < n) {
            rng_sample_without_replacement(&rng, n, k, pick);
            qsort(pick, (size_t)k, sizeof(int64_t), cmp_i64);
        } else {
            for (int64_t i = 0; i < n; i++) pick[i] = i;
        }
        if (rows) { /* the draw above is made for every entity: the rows kept see the full run's */
            if (next_row == nrows || rows[next_row] != e) k = 0;
            else next_row++;
        }
        for (int64_t i = 0; i < k; i++) { /* packed from the lengths: a batch is read by its owner only */
            int len = samples_length(s, first + pick[i]);
            if (r.B == Bmax || (r.B > 0 && r.T + len > ENTITY_DISTS_BATCH_TOKENS)) flush(&r);
            r.sample[r.B] = first + pick[i];
            r.tot[r.B++] = k;
            r.T += len;
            r.cost += bert_sequence_cost(len, r.H);
        }
        progress_update(&pr, e + 1);
    }
    flush(&r);
    progress_end(&pr);
    for (int i = 0; i < PIPELINE; i++) {
        cluster_wait(r.sent[i]);
        free(r.sendbuf[i]);
    }
    if (r.w) dists_commit(r.w);
    cluster_phase_end("inference", c0);
    entity_dists_stats st = {r.rows_done, r.samples_done};
    bert_batch_free(&r.b);
    free(r.sample);
    free(r.hid);
    free(r.logp);
    free(r.acc_p);
    free(r.out_p);
    free(r.load);
    free(r.ids);
    free(pick);
    return st;
}
