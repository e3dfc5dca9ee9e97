/* trainer: model loading and checks, MEP step/epoch, epoch checkpoints, resume. */
#include "model/trainer.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "format/artifact.h"
#include "catalog/catalog.h"
#include "nn/checkpoint.h"
#include "model/epoch_sampler.h"
#include "base/cluster.h"
#include "base/error.h"
#include "base/log.h"
#include "nn/mep_loss.h"

#define TRAIN_STREAM 0x74726169ULL   /* training rng = seed ^ this; init rng = seed */

void trainer_opts_init(trainer_opts *o) {
    memset(o, 0, sizeof *o);
    o->frozen = -1;
    o->epochs = 5;
    o->batch = 128;
    o->smoothing = 0.075;
    o->per_entity = "256";
    o->seed = 1;
    o->cache_dtype = "f16";
}

/* ------------------------------------------------------------------ checks */

static void check_model_fits(trainer *t, const char *cfg_path) {
    bert_config *c = &t->m.cfg;
    samples_special_ids sp = samples_specials(t->s);
    int32_t V = samples_vocab_size(t->s);
    if (V > c->vocab_size)
        die_input(cfg_path, "vocab_size", "the model has %d token ids, the samples use a vocabulary of %d: "
                  "they do not fit", c->vocab_size, V);
    if (samples_max_length(t->s) > c->max_pos)
        die_input(cfg_path, "max_position_embeddings", "%d positions, but the samples have sequences of %d wordpieces",
                  c->max_pos, samples_max_length(t->s));
    if (t->o.config) {
        c->mask_token_id = sp.mask; /* from scratch: the samples' vocabulary decides */
    } else if (c->mask_token_id != sp.mask) {
        die_input(cfg_path, "probexpan.mask_token_id", "[MASK] is id %d in the model, %d in the samples",
                  c->mask_token_id, sp.mask);
    }
    c->num_entities = (int)samples_entities(t->s);
}

/* ------------------------------------------------------------------ open */

void trainer_open(trainer *t, const trainer_opts *o) {
    memset(t, 0, sizeof *t);
    t->o = *o;
    if (!o->samples) die_usage("--samples is required");
    if (!o->out) die_usage("--out is required");
    if (!o->model == !o->config) die_usage("give exactly one of --model DIR and --config FILE");
    t->s = samples_open(o->samples);
    input_sha256_hex(o->samples, t->samples_sha);
    t->encoder_src = o->model ? o->model : o->config;

    char *cfg_path = o->model ? xasprintf("%s/config.json", o->model) : xstrdup(o->config);
    bert_config cfg;
    bert_config_load(&cfg, cfg_path);
    int F = o->frozen >= 0 ? o->frozen : (o->model ? cfg.layers - 1 : 0);
    if (F >= cfg.layers)
        die_input(cfg_path, "num_hidden_layers", "--frozen-layers %d must be below the %d layers (the top layer "
                  "always trains)", F, cfg.layers);
    t->o.frozen = F;
    if (t->o.lr <= 0) t->o.lr = o->model ? TRAINER_MODEL_LR : TRAINER_SCRATCH_LR;

    rng_t init;
    rng_seed(&init, (uint64_t)o->seed);
    if (o->model) {
        bert_load_dir(&t->m, o->model, F);
    } else {
        bert_create(&t->m, &cfg, F);
        bert_init_random(&t->m, &init);
    }
    check_model_fits(t, cfg_path);
    if (o->model) {
        char *vp = xasprintf("%s/vocab.txt", o->model);
        samples_check_vocab_file(t->s, vp);
        free(vp);
    }
    int64_t E = samples_entities(t->s);
    entity_head_create(&t->head, t->m.cfg.hidden, (int)E);
    char *st = o->model ? xasprintf("%s/model.safetensors", o->model) : NULL;
    if (!st || !entity_head_load_safetensors(&t->head, st)) entity_head_init_random(&t->head, &init);
    free(st);
    free(cfg_path);
    t->lists[t->nlists++] = &t->m.params;
    t->lists[t->nlists++] = &t->head.params;

    t->first = xmalloc(sizeof(int64_t) * (size_t)E);
    t->count = xmalloc(sizeof(int64_t) * (size_t)E);
    for (int64_t e = 0; e < E; e++) samples_range(t->s, e, &t->first[e], &t->count[e]);
    t->per_entity = epoch_per_entity(o->per_entity, samples_count(t->s), E);
    t->ids = xmalloc(sizeof(int32_t) * (size_t)samples_max_length(t->s));
    t->acts = bert_acts_new();
    t->loss = xcalloc((size_t)o->epochs + 2, sizeof(double));
    t->accuracy = xcalloc((size_t)o->epochs + 2, sizeof(double));
    rng_seed(&t->rng, (uint64_t)o->seed ^ TRAIN_STREAM);

    if (F > 0) {
        t->cache_path = o->cache ? xstrdup(o->cache) : xasprintf("%s/prefix-cache.mp", o->out);
        if (mkdir(o->out, 0777) && errno != EEXIST) die_errno("cannot create %s", o->out);
        t->cache = prefix_cache_obtain(t->cache_path, t->s, t->samples_sha, &t->m, t->encoder_src,
                                       o->cache_dtype);
        log_info("frozen-prefix cache %s: %d frozen layers, %s, %.1f KB per sample", t->cache_path, F,
                 prefix_cache_dtype(t->cache), prefix_cache_bytes_per_sample(t->cache) / 1024);
    }
    char buf[3][32];
    log_info("%s samples of %s entities, %s per entity per epoch; encoder %s (%d layers, %d frozen), lr %g",
             fmt_count(buf[0], samples_count(t->s)), fmt_count(buf[1], E),
             t->per_entity == EPOCH_ALL ? "all samples" : fmt_count(buf[2], t->per_entity),
             t->encoder_src, t->m.cfg.layers, F, t->o.lr);
}

void trainer_add_params(trainer *t, param_list *l) {
    if (t->nlists == (int)(sizeof t->lists / sizeof t->lists[0])) die("internal: too many parameter lists");
    t->lists[t->nlists++] = l;
}

/* ------------------------------------------------------------------ folders */

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb; (void)flag; (void)ftw;
    if (remove(path)) die_errno("cannot remove %s", path);
    return 0;
}

static void rm_rf(const char *path) {
    struct stat st;
    if (lstat(path, &st)) return;
    nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Epoch number of a complete "epoch-N" folder name, else 0. */
static int epoch_of(const char *name) {
    int n, len;
    if (sscanf(name, "epoch-%d%n", &n, &len) == 1 && name[len] == '\0' && n > 0) return n;
    return 0;
}

/* Largest complete epoch in dir (0 if none). */
static int last_epoch(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return 0;
    int best = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        int n = epoch_of(e->d_name);
        if (n <= best) continue;
        char *st = xasprintf("%s/%s/trainer_state.json", dir, e->d_name);
        if (access(st, R_OK) == 0) best = n;
        free(st);
    }
    closedir(d);
    return best;
}

static void remove_old_epochs(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    int removed = 0;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (epoch_of(e->d_name) || (!strncmp(e->d_name, "epoch-", 6) && n > 4 && !strcmp(e->d_name + n - 4, ".tmp"))) {
            char *p = xasprintf("%s/%s", dir, e->d_name);
            rm_rf(p);
            free(p);
            removed++;
        }
    }
    closedir(d);
    char *fin = xasprintf("%s/final", dir);
    unlink(fin);
    free(fin);
    if (removed) log_info("fresh start: removed %d old epoch folder(s) in %s (use --resume to continue them)", removed, dir);
}

/* ------------------------------------------------------------------ state file */

static json_t *state_json(const trainer *t, int epoch) {
    json_t *o = json_object(), *rng = json_array(), *loss = json_array(), *acc = json_array();
    for (int i = 0; i < 4; i++) {
        char h[20];
        snprintf(h, sizeof h, "%016llx", (unsigned long long)t->rng.s[i]);
        json_array_append_new(rng, json_string(h));
    }
    for (int e = 1; e <= epoch; e++) {
        json_array_append_new(loss, json_real(t->loss[e]));
        json_array_append_new(acc, json_real(t->accuracy[e]));
    }
    json_object_set_new(o, "epoch", json_integer(epoch));
    json_object_set_new(o, "rng", rng);
    json_object_set_new(o, "loss", loss);
    json_object_set_new(o, "accuracy", acc);
    json_object_set_new(o, "samples_sha256", json_string(t->samples_sha));
    json_object_set_new(o, "encoder", json_string(t->encoder_src));
    json_object_set_new(o, "seed", json_integer(t->o.seed));
    json_object_set_new(o, "frozen_layers", json_integer(t->o.frozen));
    json_object_set_new(o, "batch", json_integer(t->o.batch));
    json_object_set_new(o, "samples_per_entity", json_integer(t->per_entity));
    json_object_set_new(o, "smoothing", json_real(t->o.smoothing));
    json_object_set_new(o, "lr", json_real(t->o.lr));
    json_object_set_new(o, "threads", json_integer(cli_num_threads()));
    return o;
}

static void state_expect(const char *path, json_t *st, const char *key, double want) {
    json_t *v = json_object_get(st, key);
    if (!json_is_number(v)) die_input(path, key, "missing or not a number");
    if (json_number_value(v) != want)
        die_input(path, key, "the checkpoint was trained with %s = %g, this run has %g: --resume would not "
                  "continue the same run (start fresh without --resume)", key, json_number_value(v), want);
}

/* Restores everything from OUT/epoch-N. */
static void restore(trainer *t, int epoch) {
    char *dir = xasprintf("%s/epoch-%d", t->o.out, epoch);
    char *sp = xasprintf("%s/trainer_state.json", dir), *mp = xasprintf("%s/model.safetensors", dir),
         *op = xasprintf("%s/optimizer.safetensors", dir);
    json_error_t err;
    json_t *st = json_load_file(sp, 0, &err);
    if (!st || !json_is_object(st)) die_input(sp, NULL, "unreadable trainer state (%s)", err.text);
    json_t *v = json_object_get(st, "samples_sha256");
    if (!json_is_string(v) || strcmp(json_string_value(v), t->samples_sha))
        die_input(sp, "samples_sha256", "the checkpoint was trained on other samples than %s", t->o.samples);
    state_expect(sp, st, "seed", (double)t->o.seed);
    state_expect(sp, st, "frozen_layers", t->o.frozen);
    state_expect(sp, st, "batch", t->o.batch);
    state_expect(sp, st, "samples_per_entity", (double)t->per_entity);
    state_expect(sp, st, "smoothing", t->o.smoothing);
    state_expect(sp, st, "epoch", epoch);
    v = json_object_get(st, "lr");
    if (json_is_number(v) && json_number_value(v) != t->o.lr)
        log_warn("resuming with lr %g (the checkpoint used %g)", t->o.lr, json_number_value(v));
    v = json_object_get(st, "threads");
    if (json_is_integer(v) && json_integer_value(v) != cli_num_threads())
        log_warn("resuming with %d threads (the checkpoint used %lld): weights may differ in the last bits from an "
                 "uninterrupted run", cli_num_threads(), (long long)json_integer_value(v));
    json_t *rng = json_object_get(st, "rng");
    if (!json_is_array(rng) || json_array_size(rng) != 4) die_input(sp, "rng", "expected 4 hex strings");
    for (int i = 0; i < 4; i++) {
        const char *h = json_string_value(json_array_get(rng, (size_t)i));
        char *end;
        if (!h || !*h) die_input(sp, "rng", "expected 4 hex strings");
        t->rng.s[i] = strtoull(h, &end, 16);
        if (*end) die_input(sp, "rng", "expected 4 hex strings");
    }
    json_t *loss = json_object_get(st, "loss"), *acc = json_object_get(st, "accuracy");
    for (int e = 1; e <= epoch && e <= t->o.epochs; e++) {
        t->loss[e] = json_number_value(json_array_get(loss, (size_t)e - 1));
        t->accuracy[e] = json_number_value(json_array_get(acc, (size_t)e - 1));
    }
    json_decref(st);
    bert_load_safetensors(&t->m, mp);
    safetensors sf;
    safetensors_open(&sf, mp);
    for (int i = 1; i < t->nlists; i++) checkpoint_load_list(t->lists[i], &sf, 1);
    safetensors_close(&sf);
    adamw_load(&t->opt, op);
    log_info("resuming after epoch %d from %s", epoch, dir);
    free(sp);
    free(mp);
    free(op);
    free(dir);
}

void trainer_start(trainer *t) {
    adamw_hparams h = adamw_defaults();
    h.lr = t->o.lr;
    adamw_create(&t->opt, &h);
    for (int i = 0; i < t->nlists; i++) adamw_add(&t->opt, t->lists[i]);
    if (mkdir(t->o.out, 0777) && errno != EEXIST) die_errno("cannot create %s", t->o.out);
    t->first_epoch = 1;
    int last = t->o.resume ? last_epoch(t->o.out) : 0;
    if (t->o.resume && !last) log_info("--resume: no complete epoch in %s, starting fresh", t->o.out);
    if (last) {
        restore(t, last);
        t->first_epoch = last + 1;
    } else if (cluster_rank() == 0) {
        remove_old_epochs(t->o.out);
    }
    cluster_barrier();
}

const char *trainer_resumed_dir(const trainer *t) {
    static char buf[4096];
    if (t->first_epoch <= 1) return NULL;
    snprintf(buf, sizeof buf, "%s/epoch-%d", t->o.out, t->first_epoch - 1);
    return buf;
}

/* ------------------------------------------------------------------ steps */

static void ensure_batch_buffers(trainer *t, int B) {
    if (B <= t->cap_B) return;
    int H = t->m.cfg.hidden, V = t->head.V;
    t->cap_B = B;
    free(t->hid);
    free(t->logp);
    free(t->scratch);
    free(t->labels);
    t->hid = xmalloc(sizeof(float) * (size_t)B * H * 4);
    t->dense = t->hid + (size_t)B * H;
    t->gelu = t->dense + (size_t)B * H;
    t->dhid = t->gelu + (size_t)B * H;
    t->logp = xmalloc(sizeof(float) * (size_t)B * V * 2);
    t->dlogp = t->logp + (size_t)B * V;
    t->scratch = xmalloc(sizeof(float) * (size_t)B * (V + H));
    t->labels = xmalloc(sizeof(int) * (size_t)B);
}

void trainer_load_batch_to(trainer *t, const int64_t *ids, int n, bert_batch *b, float **prefix,
                           size_t *cap) {
    const bert_config *c = &t->m.cfg;
    bert_batch_clear(b);
    for (int i = 0; i < n; i++) {
        int len = samples_tokens(t->s, ids[i], t->ids);
        if (bert_batch_add(b, (const int *)t->ids, len, c->mask_token_id, c->max_pos))
            die_input(t->o.samples, "sample", "sample %lld has no [MASK] (id %d)", (long long)ids[i], c->mask_token_id);
    }
    if (!t->cache) return;
    size_t need = (size_t)b->T * c->hidden;
    if (need > *cap) {
        free(*prefix);
        *cap = need + need / 2;
        *prefix = xmalloc(sizeof(float) * *cap);
    }
    for (int i = 0; i < n; i++)
        prefix_cache_rows(t->cache, ids[i], *prefix + (size_t)b->off[i] * c->hidden);
}

/* The prefix argument for bert_forward_train: the cached prefix rows, or NULL without a cache. */
static const float *trainer_prefix(const trainer *t) { return t->cache ? t->prefix : NULL; }

/* Packs samples ids[0..n) into t->b and, with a cache, their prefix rows into t->prefix.
 * The prefix argument for bert_forward_train is then trainer_prefix(t). */
static void trainer_load_batch(trainer *t, const int64_t *ids, int n) {
    trainer_load_batch_to(t, ids, n, &t->b, &t->prefix, &t->prefix_cap);
}

void trainer_add_input(trainer *t, const char *path) {
    if (t->nextra_inputs == (int)(sizeof t->extra_input / sizeof t->extra_input[0]))
        die("internal: too many trainer inputs");
    char *real = realpath(path, NULL);
    if (!real) die_errno("cannot resolve %s", path);
    file_sha256_hex(real, t->extra_sha[t->nextra_inputs]);
    t->extra_input[t->nextra_inputs++] = real;
}

/* Sums grad[0..n) over the ranks in place, skipping an empty run. */
static void sum_run(float *grad, size_t n) {
    if (n) cluster_sum_f32(grad, n);
}

void trainer_sum_grads(trainer *t, const param_list *replicated) {
    if (cluster_size() == 1) return;
    /* has_grad: a tensor took part in the step if any rank gave it a gradient (a rank with an
     * empty share gave none; its buffers were zeroed, so they add nothing) */
    int n = 0;
    for (int i = 0; i < t->nlists; i++)
        if (t->lists[i] != replicated) n += t->lists[i]->n;
    int64_t *flag = xmalloc(sizeof(int64_t) * (size_t)(n ? n : 1));
    int f = 0;
    for (int i = 0; i < t->nlists; i++)
        for (int k = 0; k < t->lists[i]->n && t->lists[i] != replicated; k++) flag[f++] = t->lists[i]->p[k].has_grad;
    cluster_sum_i64(flag, (size_t)n);
    /* the gradient buffers in place, one sum per run of tensors adjacent in memory (a module
     * keeps its gradients in one block) */
    f = 0;
    for (int i = 0; i < t->nlists; i++) {
        if (t->lists[i] == replicated) continue;
        float *run = NULL;
        size_t len = 0;
        for (int k = 0; k < t->lists[i]->n; k++) {
            param_t *p = &t->lists[i]->p[k];
            p->has_grad = flag[f++] > 0;
            if (!p->grad) continue;
            if (run && p->grad == run + len) {
                len += (size_t)p->numel;
                continue;
            }
            sum_run(run, len);
            run = p->grad;
            len = (size_t)p->numel;
        }
        sum_run(run, len);
    }
    free(flag);
}

void trainer_share(const trainer *t, const int64_t *ids, const int64_t *ids2, int n, int *lo, int *hi) {
    if (cluster_size() == 1) {
        *lo = 0;
        *hi = n;
        return;
    }
    double *cost = xmalloc(sizeof(double) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        cost[i] = bert_sequence_cost(samples_length(t->s, ids[i]), t->m.cfg.hidden);
        if (ids2) cost[i] += bert_sequence_cost(samples_length(t->s, ids2[i]), t->m.cfg.hidden);
    }
    cluster_share(cost, n, lo, hi);
    free(cost);
}

/* 64-bit FNV-1a over the bits of every parameter tensor. */
static uint64_t params_hash(const trainer *t) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (int i = 0; i < t->nlists; i++)
        for (int k = 0; k < t->lists[i]->n; k++) {
            const param_t *p = &t->lists[i]->p[k];
            const uint32_t *w = (const uint32_t *)(const void *)p->data;
            for (int64_t j = 0; j < p->numel; j++) h = (h ^ w[j]) * 0x100000001b3ULL;
        }
    return h;
}

/* Collective: dies (exit 1) unless every rank holds bit-identical parameters (a 64-bit hash
 * of them compared across the ranks), so that a checkpoint is never one replica's view of
 * diverged replicas. One rank: no-op. */
static void check_replicas(trainer *t) {
    int R = cluster_size();
    if (R == 1) return;
    uint64_t h = params_hash(t);
    /* every rank's halves equal the sums over the ranks divided by R only when all are equal */
    int64_t v[2] = {(int64_t)(h >> 32), (int64_t)(h & 0xffffffffu)}, sum[2] = {v[0], v[1]};
    cluster_sum_i64(sum, 2);
    int64_t same = sum[0] == v[0] * R && sum[1] == v[1] * R;
    cluster_sum_i64(&same, 1);
    if (same != R)
        die("the %d ranks' model replicas differ after the gradient sums (the MPI library's allreduce gave the "
            "ranks different bits); run as one process or with another allreduce algorithm", R);
}

/* One MEP step on samples ids[0..n): forward, loss, backward, AdamW. Returns the loss;
 * a non-finite loss exits 3 naming epoch and step. In an MPI job every rank passes the same
 * ids and computes its contiguous share; the returned loss is the whole batch's. */
static double trainer_mep_step(trainer *t, const int64_t *ids, int n, int epoch, int64_t step) {
    int V = t->head.V, lo, hi;
    /* Data parallelism: rank r takes samples [lo, hi) of the global batch (trainer_share); its
     * gradient is scaled by its share (hi-lo)/n so that the sum over ranks is the global batch
     * mean. */
    trainer_share(t, ids, NULL, n, &lo, &hi);
    int m = hi - lo;
    for (int i = 0; i < t->nlists; i++) param_list_zero_grad(t->lists[i]);
    double part[2] = {0, 0}; /* loss sum, argmax hits */
    if (m > 0) {
        ensure_batch_buffers(t, m);
        trainer_load_batch(t, ids + lo, m);
        bert_forward_train(&t->m, t->acts, &t->b, trainer_prefix(t), t->hid);
        entity_head_forward(&t->head, t->hid, m, t->dense, t->gelu, t->logp);
        for (int i = 0; i < m; i++) {
            t->labels[i] = (int)samples_entity(t->s, ids[lo + i]);
            const float *row = t->logp + (size_t)i * V;
            int best = 0;
            for (int v = 1; v < V; v++)
                if (row[v] > row[best]) best = v;
            part[1] += best == t->labels[i];
        }
        double loss = mep_loss(t->logp, t->labels, m, V, t->o.smoothing, t->dlogp);
        part[0] = loss * m;
        if (m < n) {
            float share = (float)m / (float)n;
            for (size_t k = 0; k < (size_t)m * V; k++) t->dlogp[k] *= share;
        }
        if (isfinite(loss)) {
            entity_head_backward(&t->head, t->hid, m, t->dense, t->gelu, t->logp, t->dlogp, t->dhid, t->scratch);
            bert_backward(&t->m, t->acts, &t->b, t->dhid);
        }
    }
    cluster_sum_f64(part, 2);
    double loss = part[0] / n;
    t->correct += (int64_t)part[1];
    if (!isfinite(loss)) {
        char where[64];
        snprintf(where, sizeof where, "epoch %d, step %lld", epoch, (long long)step);
        int last = last_epoch(t->o.out);
        die_input(t->o.samples, where, "the loss is %s: training diverged (lower --lr?); %s", isnan(loss) ? "NaN" : "inf",
                  last ? "the last complete checkpoint is kept" : "no checkpoint was written");
    }
    trainer_sum_grads(t, NULL);
    adamw_step(&t->opt);
    return loss;
}

double trainer_mep_epoch(trainer *t, int epoch) {
    int64_t E = samples_entities(t->s), N = epoch_size(E, t->count, t->per_entity);
    int64_t *order = xmalloc(sizeof(int64_t) * (size_t)N);
    epoch_draw(E, t->first, t->count, t->per_entity, &t->rng, order);
    char label[64];
    snprintf(label, sizeof label, "epoch %d/%d", epoch, t->o.epochs);
    progress pr;
    progress_start(&pr, label, "samples", N);
    double sum = 0, t0 = now_seconds();
    cluster_clock c0 = cluster_phase_begin();
    int64_t steps = 0;
    t->correct = 0;
    for (int64_t i = 0; i < N; i += t->o.batch, steps++) {
        int n = (int)(N - i < t->o.batch ? N - i : t->o.batch);
        sum += trainer_mep_step(t, order + i, n, epoch, steps + 1) * n;
        double el = now_seconds() - t0, rate = (i + n) / (el > 0 ? el : 1e-9);
        double eta = ((double)(N - i - n) + (double)(t->o.epochs - epoch) * N) / rate;
        snprintf(pr.extra, sizeof pr.extra, "step %lld, loss %.4f, acc %.3f, run ETA %.0f s", (long long)steps + 1,
                 sum / (double)(i + n), (double)t->correct / (double)(i + n), eta);
        progress_update(&pr, i + n);
    }
    progress_end(&pr);
    t->loss[epoch] = sum / (double)N;
    t->accuracy[epoch] = (double)t->correct / (double)N;
    double secs = now_seconds() - t0;
    log_info("epoch %d/%d: loss %.5f, accuracy %.4f, %.1f s, %.0f samples/s", epoch, t->o.epochs, t->loss[epoch],
             t->accuracy[epoch], secs, N / (secs > 0 ? secs : 1e-9));
    cluster_phase_end(label, c0);
    char key[48];
    snprintf(key, sizeof key, "seconds_epoch_%d", epoch);
    catalog_metric(key, secs);
    snprintf(key, sizeof key, "samples_per_second_epoch_%d", epoch);
    catalog_metric(key, N / (secs > 0 ? secs : 1e-9));
    free(order);
    return t->loss[epoch];
}

/* ------------------------------------------------------------------ checkpoints */

/* Records a checkpoint folder in the catalog as an artifact of kind "model" (sha256 over
 * its files, as artifact inputs hash folders) with the samples, the encoder source and the
 * trainer_add_input() files as its inputs, so lineage runs from a dists artifact back to
 * the dataset. */
static void record_model(trainer *t, const char *dir) {
    if (!t->encoder_sha[0]) file_sha256_hex(t->encoder_src, t->encoder_sha);
    char sha[65], created[32];
    file_sha256_hex(dir, sha);
    unsigned long long bytes = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        struct stat st;
        char *p = xasprintf("%s/%s", dir, e->d_name);
        if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) bytes += (unsigned long long)st.st_size;
        free(p);
    }
    if (d) closedir(d);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &tm);
    char *real = realpath(dir, NULL), *in[6] = {realpath(t->o.samples, NULL), realpath(t->encoder_src, NULL)};
    char *in_sha[6] = {t->samples_sha, t->encoder_sha};
    for (int i = 0; i < t->nextra_inputs; i++) {
        in[2 + i] = t->extra_input[i];
        in_sha[2 + i] = t->extra_sha[i];
    }
    if (real && in[0] && in[1]) catalog_add_output(real, "model", 1, bytes, sha, created, 2 + t->nextra_inputs, in, in_sha);
    free(real);
    free(in[0]);
    free(in[1]);
}

void trainer_save_epoch(trainer *t, int epoch, const safetensors_entry *extra, int nextra) {
    check_replicas(t);
    if (cluster_rank() != 0) return; /* the replicas are identical: rank 0 writes */
    char *tmp = xasprintf("%s/epoch-%d.tmp", t->o.out, epoch), *dir = xasprintf("%s/epoch-%d", t->o.out, epoch);
    rm_rf(tmp);
    checkpoint_save(tmp, &t->m.cfg, NULL, t->lists, t->nlists, extra, nextra);
    char *p = xasprintf("%s/vocab.txt", tmp);
    samples_write_vocab(t->s, p);
    free(p);
    p = xasprintf("%s/optimizer.safetensors", tmp);
    adamw_save(&t->opt, p);
    free(p);
    p = xasprintf("%s/trainer_state.json", tmp);
    char *ptmp = xasprintf("%s.tmp", p);
    json_t *st = state_json(t, epoch);
    if (json_dump_file(st, ptmp, JSON_INDENT(2))) die_errno("cannot write %s", ptmp);
    json_decref(st);
    if (rename(ptmp, p)) die_errno("cannot rename %s", ptmp);
    free(ptmp);
    free(p);
    rm_rf(dir);
    if (rename(tmp, dir)) die_errno("cannot rename %s to %s", tmp, dir);
    /* final -> epoch-N, swapped atomically */
    char *fin = xasprintf("%s/final", t->o.out), *ftmp = xasprintf("%s/final.tmp.%d", t->o.out, (int)getpid());
    char *target = xasprintf("epoch-%d", epoch);
    unlink(ftmp);
    if (symlink(target, ftmp)) die_errno("cannot create the symlink %s", ftmp);
    if (rename(ftmp, fin)) die_errno("cannot rename %s to %s", ftmp, fin);
    record_model(t, dir);
    char key[48];
    snprintf(key, sizeof key, "loss_epoch_%d", epoch);
    catalog_metric(key, t->loss[epoch]);
    snprintf(key, sizeof key, "accuracy_epoch_%d", epoch);
    catalog_metric(key, t->accuracy[epoch]);
    free(target);
    free(fin);
    free(ftmp);
    free(tmp);
    free(dir);
}

void trainer_close(trainer *t) {
    prefix_cache_close(t->cache);
    samples_close(t->s);
    bert_free(&t->m);
    entity_head_free(&t->head);
    adamw_free(&t->opt);
    bert_batch_free(&t->b);
    bert_acts_free(t->acts);
    free(t->cache_path);
    for (int i = 0; i < t->nextra_inputs; i++) free(t->extra_input[i]);
    free(t->prefix);
    free(t->hid);
    free(t->logp);
    free(t->scratch);
    free(t->labels);
    free(t->ids);
    free(t->first);
    free(t->count);
    free(t->loss);
    free(t->accuracy);
}
