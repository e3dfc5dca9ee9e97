/* cl_train: contrastive step and pass of train-cl (see cl_train.h). */
#include "model/cl_train.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/artifact.h"
#include "base/cluster.h"
#include "base/error.h"
#include "base/log.h"
#include "model/contrastive_pairs.h"

#define PROJ_INIT_STREAM 0x70726f6aULL   /* projection-head init rng = seed ^ this */

/* ------------------------------------------------------------------ step */

void cl_step_bufs_init(cl_step_bufs *c, const projection_head *ph, int H, int cap) {
    memset(c, 0, sizeof *c);
    c->cap = cap;
    c->H = H;
    c->P2 = ph->P2;
    c->a1 = bert_acts_new();
    c->a2 = bert_acts_new();
    proj_acts_create(&c->v1, ph, cap);
    proj_acts_create(&c->v2, ph, cap);
    size_t nh = (size_t)cap * H, nz = (size_t)cap * ph->P2;
    c->hid1 = xmalloc(sizeof(float) * (4 * nh + 2 * nz));
    c->hid2 = c->hid1 + nh;
    c->dhid1 = c->hid2 + nh;
    c->dhid2 = c->dhid1 + nh;
    c->dz1 = c->dhid2 + nh;
    c->dz2 = c->dz1 + nz;
}

void cl_step_bufs_free(cl_step_bufs *c) {
    bert_acts_free(c->a1);
    bert_acts_free(c->a2);
    proj_acts_free(&c->v1);
    proj_acts_free(&c->v2);
    free(c->hid1);
    memset(c, 0, sizeof *c);
}

/* The encoder's [MASK] rows of this rank's part of one view, gathered from all ranks into
 * hid [B, H] (rank order = pair order). The local rows go to `scratch` first when there are
 * other ranks. Returns B; *first = this rank's first pair. */
static int64_t encode_view(bert_model *m, bert_acts *a, const bert_batch *b, const float *prefix, float *hid,
                           float *scratch, int cap, int64_t *first) {
    float *mine = cluster_size() > 1 ? scratch : hid;
    if (b->B > 0) bert_forward_train(m, a, b, prefix, mine);
    return cluster_gather_rows(mine, b->B, m->cfg.hidden, hid, cap, first);
}

double cl_step(cl_step_bufs *c, bert_model *m, projection_head *ph, const bert_batch *b1,
               const float *prefix1, const bert_batch *b2, const float *prefix2,
               const hcl_params *hp, double weight) {
    if (b1->B != b2->B) die("internal: cl_step with views of %d and %d pairs", b1->B, b2->B);
    /* dhid1/dhid2 serve as the local rows' scratch until the backward overwrites them */
    int64_t first, B = encode_view(m, c->a1, b1, prefix1, c->hid1, c->dhid1, c->cap, &first);
    encode_view(m, c->a2, b2, prefix2, c->hid2, c->dhid2, c->cap, &first);
    if (B < 2 || B > c->cap) die("internal: cl_step with %lld pairs (capacity %d, need >= 2)", (long long)B, c->cap);
    projection_head_forward(ph, &c->v1, c->hid1, (int)B);
    projection_head_forward(ph, &c->v2, c->hid2, (int)B);
    double loss = hcl_loss(c->v1.z, c->v2.z, (int)B, ph->P2, hp, weight, c->dz1, c->dz2, NULL);
    projection_head_backward(ph, &c->v1, c->dz1, c->dhid1);
    projection_head_backward(ph, &c->v2, c->dz2, c->dhid2);
    size_t off = (size_t)first * c->H;
    if (b1->B > 0) {
        bert_backward(m, c->a1, b1, c->dhid1 + off);
        bert_backward(m, c->a2, b2, c->dhid2 + off);
    }
    return loss;
}

/* ------------------------------------------------------------------ trainer */

void cl_trainer_init(cl_trainer *c, trainer *t, const pairs_set *pairs, const char *pairs_path,
                     const cl_train_opts *o) {
    memset(c, 0, sizeof *c);
    c->t = t;
    c->pairs = pairs;
    c->pairs_path = pairs_path;
    c->o = *o;
    if (pairs->n_pairs < o->batch_pairs)
        die_input(pairs_path, "summary", "the pair sets give only %lld pairs, fewer than one batch of %d (batches "
                  "drop the remainder): lower --batch-pairs or widen the thresholds",
                  (long long)pairs->n_pairs, o->batch_pairs);
    bert_config *cfg = &t->m.cfg;
    if (cfg->proj_hidden <= 0) cfg->proj_hidden = 256;
    if (cfg->proj_out <= 0) cfg->proj_out = 128;
    projection_head_create(&c->ph, cfg->hidden, cfg->proj_hidden, cfg->proj_out);
    int loaded = 0;
    if (t->o.model) {
        char *p = xasprintf("%s/model.safetensors", t->o.model);
        safetensors st;
        safetensors_open(&st, p);
        loaded = projection_head_load(&c->ph, &st);
        safetensors_close(&st);
        free(p);
    }
    if (!loaded) {
        rng_t r;
        rng_seed(&r, (uint64_t)t->o.seed ^ PROJ_INIT_STREAM);
        projection_head_init_random(&c->ph, &r);
    }
    log_info("projection head %d -> %d -> %d (%s); %lld pairs per pass in %d classes, %d pairs per step",
             c->ph.H, c->ph.P1, c->ph.P2, loaded ? "from the model" : "new", (long long)pairs->n_pairs,
             pairs->n_classes, o->batch_pairs);
    trainer_add_params(t, &c->ph.params);
    cl_step_bufs_init(&c->bufs, &c->ph, cfg->hidden, o->batch_pairs);
    c->ids1 = xmalloc(sizeof(int64_t) * (size_t)o->batch_pairs);
    c->ids2 = xmalloc(sizeof(int64_t) * (size_t)o->batch_pairs);
    bert_batch_clear(&c->b[0]);
    bert_batch_clear(&c->b[1]);
}

/* The settings a resumed run must share with the run it continues. */
static json_t *settings_json(const cl_trainer *c, const char *pairs_sha) {
    json_t *o = json_object();
    json_object_set_new(o, "pairs_sha256", json_string(pairs_sha));
    json_object_set_new(o, "tau_plus", json_real(c->o.hp.tau_plus));
    json_object_set_new(o, "beta", json_real(c->o.hp.beta));
    json_object_set_new(o, "temperature", json_real(c->o.hp.temperature));
    json_object_set_new(o, "loss_weight", json_real(c->o.weight));
    json_object_set_new(o, "batch_pairs", json_integer(c->o.batch_pairs));
    json_object_set_new(o, "fixed_pairs", json_integer(c->o.fixed_pairs));
    json_object_set_new(o, "cl_lr", json_real(c->o.cl_lr));
    return o;
}

void cl_trainer_restore(cl_trainer *c) {
    char sha[65];
    input_sha256_hex(c->pairs_path, sha);
    json_t *now = settings_json(c, sha);
    char *sp = xasprintf("%s/" CL_SETTINGS_FILE, c->t->o.out);
    const char *dir = trainer_resumed_dir(c->t);
    if (!dir && cluster_rank() == 0) { /* rank 0 writes, as it writes the checkpoints */
        char *tmp = xasprintf("%s.tmp", sp);
        if (json_dump_file(now, tmp, JSON_INDENT(2))) die_errno("cannot write %s", tmp);
        if (rename(tmp, sp)) die_errno("cannot rename %s", tmp);
        free(tmp);
    } else if (dir) {
        json_error_t err;
        json_t *was = json_load_file(sp, 0, &err);
        if (!was || !json_is_object(was)) die_input(sp, NULL, "unreadable contrastive settings (%s)", err.text);
        const char *key;
        json_t *v;
        json_object_foreach(now, key, v) {
            if (json_equal(v, json_object_get(was, key))) continue;
            if (!strcmp(key, "cl_lr"))   /* like the trainer's --lr: allowed, with a warning */
                log_warn("resuming with cl-lr %g (the run used %g)", c->o.cl_lr,
                         json_number_value(json_object_get(was, key)));
            else
                die_input(sp, key, "the run to resume used another value than this one: --resume would not "
                          "continue the same run (start fresh without --resume)");
        }
        json_decref(was);
        char *p = xasprintf("%s/model.safetensors", dir);
        safetensors st;
        safetensors_open(&st, p);
        if (!projection_head_load(&c->ph, &st))
            die_input(p, "projection_head.0.weight", "missing: the checkpoint to resume was not written by train-cl");
        safetensors_close(&st);
        free(p);
    }
    json_decref(now);
    free(sp);
}

/* The sample indices of this pass's pairs: a fresh draw (malloc'd into *own) or the stored one. */
static int64_t pass_pairs(cl_trainer *c, int64_t **s1, int64_t **s2, int64_t **own) {
    const pairs_set *p = c->pairs;
    if (c->o.fixed_pairs) {
        *s1 = p->sample1;
        *s2 = p->sample2;
        *own = NULL;
        return p->n_pairs;
    }
    trainer *t = c->t;
    cl_sets *sets = xmalloc(sizeof(cl_sets) * (size_t)p->n_classes);
    for (int k = 0; k < p->n_classes; k++) sets[k] = p->c[k].sets;
    cl_pairs pr = {0};
    cl_make_pairs(sets, p->n_classes, t->count, samples_entities(t->s), &p->opts, &t->rng, &pr);
    *own = xmalloc(sizeof(int64_t) * (size_t)(2 * pr.n + 1));
    *s1 = *own;
    *s2 = *own + pr.n;
    for (int64_t i = 0; i < pr.n; i++) {
        (*s1)[i] = t->first[pr.p[i].e1] + pr.p[i].s1;
        (*s2)[i] = t->first[pr.p[i].e2] + pr.p[i].s2;
    }
    int64_t n = pr.n;
    cl_pairs_free(&pr);
    free(sets);
    return n;
}

double cl_trainer_pass(cl_trainer *c, int epoch, int pass) {
    trainer *t = c->t;
    int64_t *s1, *s2, *own;
    int64_t n = pass_pairs(c, &s1, &s2, &own);
    int B = c->o.batch_pairs, lo, hi;
    int64_t steps = n / B;
    int64_t *perm = xmalloc(sizeof(int64_t) * (size_t)(n + 1));
    for (int64_t i = 0; i < n; i++) perm[i] = i;
    rng_shuffle_i64(&t->rng, perm, n);
    double lr = t->opt.h.lr;
    t->opt.h.lr = c->o.cl_lr;
    char label[64];
    snprintf(label, sizeof label, "epoch %d/%d CL %d/2", epoch, t->o.epochs, pass);
    progress pr;
    progress_start(&pr, label, "pairs", steps * B);
    double sum = 0, t0 = now_seconds();
    cluster_clock c0 = cluster_phase_begin();
    for (int64_t s = 0; s < steps; s++) {
        for (int i = 0; i < B; i++) {
            c->ids1[i] = s1[perm[s * B + i]];
            c->ids2[i] = s2[perm[s * B + i]];
        }
        trainer_share(t, c->ids1, c->ids2, B, &lo, &hi); /* this rank's pairs of the step */
        trainer_load_batch_to(t, c->ids1 + lo, hi - lo, &c->b[0], &c->prefix[0], &c->prefix_cap[0]);
        trainer_load_batch_to(t, c->ids2 + lo, hi - lo, &c->b[1], &c->prefix[1], &c->prefix_cap[1]);
        for (int i = 0; i < t->nlists; i++) param_list_zero_grad(t->lists[i]);
        double loss = cl_step(&c->bufs, &t->m, &c->ph, &c->b[0], t->cache ? c->prefix[0] : NULL, &c->b[1],
                              t->cache ? c->prefix[1] : NULL, &c->o.hp, c->o.weight);
        trainer_sum_grads(t, &c->ph.params); /* the head's gradient is whole on every rank */
        if (!isfinite(loss)) {
            char where[80];
            snprintf(where, sizeof where, "epoch %d, CL pass %d, step %lld", epoch, pass, (long long)s + 1);
            die("%s: the contrastive loss is %g: training diverged with --cl-lr %g and --cl-temperature %g (lower the "
                "learning rate, raise the temperature); the complete epochs in %s stay as they are", where, loss,
                c->o.cl_lr, c->o.hp.temperature, t->o.out);
        }
        adamw_step(&t->opt);
        sum += loss;
        snprintf(pr.extra, sizeof pr.extra, "step %lld/%lld, CL loss %.4f", (long long)s + 1, (long long)steps,
                 sum / (double)(s + 1));
        progress_update(&pr, (s + 1) * B);
    }
    progress_end(&pr);
    t->opt.h.lr = lr;
    double secs = now_seconds() - t0, mean = steps ? sum / (double)steps : 0;
    log_info("epoch %d/%d CL pass %d: loss %.5f over %lld steps (%lld pairs, %lld dropped), %.1f s, %.0f pairs/s",
             epoch, t->o.epochs, pass, mean, (long long)steps, (long long)n, (long long)(n - steps * B), secs,
             (double)steps * B / (secs > 0 ? secs : 1e-9));
    cluster_phase_end(label, c0);
    free(perm);
    free(own);
    return mean;
}

const safetensors_entry *cl_trainer_extra(cl_trainer *c, int *n) {
    c->extra = projection_head_extra(&c->ph);
    *n = 1;
    return &c->extra;
}

void cl_trainer_free(cl_trainer *c) {
    cl_step_bufs_free(&c->bufs);
    projection_head_free(&c->ph);
    for (int v = 0; v < 2; v++) {
        bert_batch_free(&c->b[v]);
        free(c->prefix[v]);
    }
    free(c->ids1);
    free(c->ids2);
    memset(c, 0, sizeof *c);
}
