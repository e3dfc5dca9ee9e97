/* bench_encoder: throughput of the encoder core (`make bench-encoder`). For the small
 * config (4 layers, H 256, 4 heads, FFN 1024, F=0) and BERT-base shapes (12 layers, H 768,
 * 12 heads, FFN 3072, F=11 with the frozen prefix cached as bfloat16 and the [MASK]-only
 * top layer), V_e = 10,000, random weights, sequence lengths uniform in 20..60 (one [MASK]
 * each), it measures samples/s of (a) a masked-entity training step (forward, loss,
 * backward, AdamW), (b) a contrastive step (two views, projection head, HCL loss, backward,
 * AdamW; counted in pairs), (c) inference (probabilities at [MASK], the whole encoder
 * computed; for BERT-base also "infer-cached": from the frozen-prefix cache, as the
 * pipeline can do after train-mlm built it). Beside each: achieved GFLOP/s (matrix products and attention; backward counted
 * as 2× forward) and the fraction of the machine's sgemm peak measured in the same run.
 * Batches are packed (no padding). Prints the OpenBLAS core in use (base/blas_core.h), a table
 * and one JSON line per figure; samples/s is the median step's rate, per_cpu_s the samples per
 * second of the process's CPU time (on a loaded machine closer to what an idle one gives).
 * Beside each, PyTorch's figure: with --torch PYTHON measured in this run by
 * dev/bench/bench_encoder_torch.py with the same OpenBLAS core (and once more with the
 * library's own detection when this program's core was chosen by a re-exec), else the stored
 * figures of --peer (../shared/peer/torch-cpu.jsonl). */
#include <cblas.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nn/adamw.h"
#include "nn/bert.h"
#include "base/blas_core.h"
#include "base/cli.h"
#include "nn/entity_head.h"
#include "base/error.h"
#include "nn/hcl_loss.h"
#include "base/log.h"
#include "base/sort.h"
#include "nn/mep_loss.h"
#include "nn/projection_head.h"
#include "base/half.h"
#include "base/rng.h"

#define V_E 10000

static double lin_flops(double n, double in, double out) { return 2.0 * n * in * out; }

/* FLOPs of one forward of a batch (matrix products and attention): prefix layers counted
 * only if with_prefix; the top layer at [MASK] only. */
static double bert_forward_flops(const bert_model *m, const bert_batch *b, int with_prefix) {
    const bert_config *c = &m->cfg;
    double H = c->hidden, F = c->ffn, T = b->T, B = b->B, nh = c->heads, att_full = 0;
    for (int s = 0; s < b->B; s++) {
        double n = b->off[s + 1] - b->off[s];
        att_full += 4.0 * n * n * H;
    }
    double full = lin_flops(T, H, H) * 4 + lin_flops(T, H, F) * 2 + att_full;
    /* top: q, Wkᵀq, Wv·xbar, attention output on B rows; scores and xbar over T rows */
    double top = lin_flops(B, H, H) * 4 + lin_flops(B, H, F) * 2 + 4.0 * nh * T * H;
    int P = bert_prefix_layers(m);
    double f = top + full * (c->layers - 1 - P);
    if (with_prefix) f += full * P;
    return f;
}

/* GFLOP/s of the best of `reps` timed sgemm calls of [m,k]·[k,n] (the machine's peak). */
static double sgemm_gflops(int m, int n, int k, int reps) {
    float *a = xmalloc((size_t)m * k * sizeof(float)), *b = xmalloc((size_t)k * n * sizeof(float));
    float *c = xmalloc((size_t)m * n * sizeof(float));
    for (size_t i = 0; i < (size_t)m * k; i++) a[i] = (float)(i % 7) * 0.1f;
    for (size_t i = 0; i < (size_t)k * n; i++) b[i] = (float)(i % 5) * 0.1f;
    double best = 1e30;
    for (int r = 0; r < reps + 1; r++) {
        double t0 = now_seconds();
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b, n, 0.0f,
                    c, n);
        double t = now_seconds() - t0;
        if (r > 0 && t < best) best = t; /* the first call is a warm-up */
    }
    free(a);
    free(b);
    free(c);
    return 2.0 * m * n * k / best / 1e9;
}

typedef struct {
    const char *name;
    int layers, hidden, heads, ffn, frozen;
} shape;

/* A random batch of B sequences, lengths uniform in 20..60, one [MASK]. */
static void random_batch(bert_batch *b, int B, rng_t *r, const bert_config *c) {
    int ids[64];
    bert_batch_clear(b);
    for (int s = 0; s < B; s++) {
        int len = 20 + (int)rng_below(r, 41);
        ids[0] = 101;
        for (int i = 1; i < len - 1; i++) ids[i] = 1000 + (int)rng_below(r, (uint64_t)(c->vocab_size - 1000));
        ids[len - 1] = 102;
        ids[1 + rng_below(r, (uint64_t)(len - 2))] = c->mask_token_id;
        bert_batch_add(b, ids, len, c->mask_token_id, c->max_pos);
    }
}

typedef struct {
    double samples_per_s, gflops, mean_len;
    double samples_per_cpu_s; /* per second of the process's CPU time: less sensitive to other load */
} result;

static double cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Prefix caches: for F>0 the output of the frozen part per batch, as bf16. */
typedef struct {
    bert_batch b[2];      /* two views (the second used by the contrastive step) */
    uint16_t *cache[2];
    int *labels;
} bench_batch;

#define NBATCH 6

typedef struct {
    bert_model m;
    entity_head h;
    projection_head p;
    adamw opt;
    bert_acts *acts[2];
    proj_acts pa[2];
    float *buf;           /* scratch for activations of the heads */
    float *prefix[2];
    int B;
} bench_model;

static double head_flops(int B, int H, int V) { return 2.0 * B * H * H + 2.0 * B * H * V; }

/* One MEP step on batch k; returns its FLOPs. */
static double mep_step(bench_model *bm, bench_batch *bb) {
    bert_model *m = &bm->m;
    bert_batch *b = &bb->b[0];
    int B = b->B, H = m->cfg.hidden, V = bm->h.V;
    float *hid = bm->buf, *dense = hid + B * H, *gelu = dense + B * H, *dhid = gelu + B * H,
          *logp = dhid + B * H, *dlogp = logp + (size_t)B * V;
    param_list_zero_grad(&m->params);
    param_list_zero_grad(&bm->h.params);
    const float *prefix = NULL;
    if (bb->cache[0]) {
        bf16_to_f32_n(bm->prefix[0], bb->cache[0], (size_t)b->T * H);
        prefix = bm->prefix[0];
    }
    bert_forward_train(m, bm->acts[0], b, prefix, hid);
    entity_head_forward(&bm->h, hid, B, dense, gelu, logp);
    mep_loss(logp, bb->labels, B, V, 0.075, dlogp);
    entity_head_backward(&bm->h, hid, B, dense, gelu, logp, dlogp, dhid, NULL);
    bert_backward(m, bm->acts[0], b, dhid);
    adamw_step(&bm->opt);
    return 3 * (bert_forward_flops(m, b, 0) + head_flops(B, H, V));
}

static double cl_step(bench_model *bm, bench_batch *bb) {
    bert_model *m = &bm->m;
    int H = m->cfg.hidden, B = bb->b[0].B;
    float *hid[2] = {bm->buf, bm->buf + B * H}, *dz[2] = {hid[1] + B * H, hid[1] + B * H + B * 128};
    float *dh = dz[1] + B * 128;
    param_list_zero_grad(&m->params);
    param_list_zero_grad(&bm->p.params);
    double fl = 0;
    for (int v = 0; v < 2; v++) {
        const float *prefix = NULL;
        if (bb->cache[v]) {
            bf16_to_f32_n(bm->prefix[v], bb->cache[v], (size_t)bb->b[v].T * H);
            prefix = bm->prefix[v];
        }
        bert_forward_train(m, bm->acts[v], &bb->b[v], prefix, hid[v]);
        projection_head_forward(&bm->p, &bm->pa[v], hid[v], B);
        fl += 3 * (bert_forward_flops(m, &bb->b[v], 0) + 2.0 * B * H * 256 + 2.0 * B * 256 * 128);
    }
    hcl_params hp = {0.05, 1.0, 0.5};
    hcl_loss(bm->pa[0].z, bm->pa[1].z, B, 128, &hp, 7.0, dz[0], dz[1], NULL);
    for (int v = 0; v < 2; v++) {
        projection_head_backward(&bm->p, &bm->pa[v], dz[v], dh);
        bert_backward(m, bm->acts[v], &bb->b[v], dh);
    }
    adamw_step(&bm->opt);
    return fl;
}

static double infer_step(bench_model *bm, bench_batch *bb) {
    bert_model *m = &bm->m;
    bert_batch *b = &bb->b[0];
    int B = b->B, H = m->cfg.hidden, V = bm->h.V;
    float *hid = bm->buf, *dense = hid + B * H, *gelu = dense + B * H, *logp = gelu + B * H;
    bert_forward_infer(m, b, hid);
    entity_head_forward(&bm->h, hid, B, dense, gelu, logp);
    for (size_t i = 0; i < (size_t)B * V; i++) logp[i] = expf(logp[i]);
    return bert_forward_flops(m, b, 1) + head_flops(B, H, V);
}

/* Inference from the frozen-prefix cache (the pipeline's infer can reuse train-mlm's). */
static double infer_cached_step(bench_model *bm, bench_batch *bb) {
    bert_model *m = &bm->m;
    bert_batch *b = &bb->b[0];
    int B = b->B, H = m->cfg.hidden, V = bm->h.V, P = bert_prefix_layers(m);
    float *hid = bm->buf, *dense = hid + B * H, *gelu = dense + B * H, *logp = gelu + B * H;
    bf16_to_f32_n(bm->prefix[0], bb->cache[0], (size_t)b->T * H);
    bert_forward_infer_from(m, b, bm->prefix[0], P, hid);
    entity_head_forward(&bm->h, hid, B, dense, gelu, logp);
    for (size_t i = 0; i < (size_t)B * V; i++) logp[i] = expf(logp[i]);
    return bert_forward_flops(m, b, 0) + head_flops(B, H, V);
}

typedef double (*step_fn)(bench_model *, bench_batch *);

static result timeit(bench_model *bm, bench_batch *bbs, step_fn fn, int per_step, double seconds) {
    fn(bm, &bbs[0]); /* warm-up */
    double *rates = xmalloc(100000 * sizeof(double));
    int n = 0;
    double t_all = 0, fl_all = 0, len = 0, cpu0 = cpu_seconds();
    long samples = 0, tokens = 0;
    while ((t_all < seconds || n < 3) && n < 100000) {
        bench_batch *bb = &bbs[n % NBATCH];
        double t0 = now_seconds();
        double fl = fn(bm, bb);
        double t = now_seconds() - t0;
        rates[n++] = per_step / t;
        t_all += t;
        fl_all += fl;
        samples += per_step;
        tokens += bb->b[0].T;
    }
    qsort(rates, (size_t)n, sizeof(double), cmp_double);
    len = (double)tokens / (double)samples; /* real tokens per sample (view 1 for cl) */
    result r = {rates[n / 2], fl_all / t_all / 1e9, len, (double)samples / (cpu_seconds() - cpu0)};
    free(rates);
    return r;
}

static void prepare(bench_model *bm, bench_batch *bbs, const shape *s, int B, rng_t *r, int with_cache) {
    bert_config c = {30522, s->hidden, s->layers, s->heads, s->ffn, 512, 2, 1e-12f, V_E, 103, 256, 128};
    bert_create(&bm->m, &c, s->frozen);
    bert_init_random(&bm->m, r);
    entity_head_create(&bm->h, c.hidden, V_E);
    entity_head_init_random(&bm->h, r);
    projection_head_create(&bm->p, c.hidden, 256, 128);
    projection_head_init_random(&bm->p, r);
    adamw_hparams hp = adamw_defaults();
    adamw_create(&bm->opt, &hp);
    adamw_add(&bm->opt, &bm->m.params);
    adamw_add(&bm->opt, &bm->h.params);
    adamw_add(&bm->opt, &bm->p.params);
    for (int v = 0; v < 2; v++) {
        bm->acts[v] = bert_acts_new();
        proj_acts_create(&bm->pa[v], &bm->p, B);
        bm->prefix[v] = xmalloc((size_t)B * 60 * c.hidden * sizeof(float));
    }
    bm->buf = xmalloc(((size_t)B * (6 * c.hidden + 512) + 2 * (size_t)B * V_E) * sizeof(float));
    bm->B = B;
    for (int k = 0; k < NBATCH; k++) {
        bench_batch *bb = &bbs[k];
        memset(bb, 0, sizeof *bb);
        bb->labels = xmalloc((size_t)B * sizeof(int));
        for (int i = 0; i < B; i++) bb->labels[i] = (int)rng_below(r, V_E);
        for (int v = 0; v < 2; v++) {
            random_batch(&bb->b[v], B, r, &c);
            if (with_cache && s->frozen > 0) {
                /* The cache holds the frozen prefix's output, LayerNorm-scaled values; it is
                 * built once per sample outside the training steps (its cost is that of
                 * inference through F layers), so here it is filled with N(0,1) values:
                 * the step's cost does not depend on them. */
                size_t n = (size_t)bb->b[v].T * c.hidden;
                bb->cache[v] = xmalloc(n * 2);
                for (size_t i = 0; i < n; i++) bb->cache[v][i] = f32_to_bf16((float)rng_normal(r));
            }
        }
    }
}

static void release(bench_model *bm, bench_batch *bbs) {
    for (int k = 0; k < NBATCH; k++)
        for (int v = 0; v < 2; v++) {
            bert_batch_free(&bbs[k].b[v]);
            free(bbs[k].cache[v]);
            if (v == 0) free(bbs[k].labels);
        }
    for (int v = 0; v < 2; v++) {
        bert_acts_free(bm->acts[v]);
        proj_acts_free(&bm->pa[v]);
        free(bm->prefix[v]);
    }
    free(bm->buf);
    adamw_free(&bm->opt);
    projection_head_free(&bm->p);
    entity_head_free(&bm->h);
    bert_free(&bm->m);
}

/* The PyTorch peer's `field` (samples_per_s, samples_per_cpu_s) for (config, task, batch), or 0. */
static double peer_value(json_t *peer, const char *config, const char *task, int batch, const char *field) {
    size_t i;
    json_t *row;
    json_array_foreach(peer, i, row) {
        if (!strcmp(json_string_value(json_object_get(row, "config")), config) &&
            !strcmp(json_string_value(json_object_get(row, "task")), task) &&
            json_integer_value(json_object_get(row, "batch")) == batch)
            return json_number_value(json_object_get(row, field));
    }
    return 0;
}

/* Runs the PyTorch side (dev/bench/bench_encoder_torch.py) for one config and task; its JSON
 * line, or NULL. core: the OPENBLAS_CORETYPE it runs with (NULL: the variable unset, the
 * library's own detection). */
static json_t *torch_measure(const char *python, const char *script, const char *core, const char *config,
                             const char *task, int threads, double seconds) {
    char *env = core ? xasprintf("OPENBLAS_CORETYPE=%s", core) : xstrdup("env -u OPENBLAS_CORETYPE -u PROBEXPAN_BLAS_CORE");
    char *cmd = xasprintf("%s OPENBLAS_NUM_THREADS=%d %s %s --config %s --task %s --threads %d --seconds %g", env, threads,
                          python, script, config, task, threads, seconds);
    free(env);
    FILE *p = popen(cmd, "r");
    json_t *row = NULL;
    char line[4096];
    while (p && fgets(line, sizeof line, p))
        if (!row) row = json_loads(line, 0, NULL);
    if (!p || pclose(p) != 0 || !row) {
        log_warn("PyTorch run failed: %s", cmd);
        json_decref(row);
        row = NULL;
    }
    free(cmd);
    return row;
}

static json_t *load_peer(const char *path) {
    json_t *arr = json_array();
    FILE *f = fopen(path, "r");
    if (!f) return arr;
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        json_t *o = json_loads(line, 0, NULL);
        if (o) json_array_append_new(arr, o);
    }
    fclose(f);
    return arr;
}

int main(int argc, char **argv) {
    double seconds = 10;
    const char *only = "all", *only_task = "all", *peer_path = "../shared/peer/torch-cpu.jsonl";
    const char *torch_python = NULL, *torch_script = "dev/bench/bench_encoder_torch.py";
    const cli_option opts[] = {
        {"seconds", OPT_DOUBLE, &seconds, "S", "timed seconds per figure (after a warm-up step)", 0.1, 3600},
        {"config", OPT_STRING, &only, "NAME", "small, bert-base or all", 0, 0},
        {"task", OPT_STRING, &only_task, "NAME", "mep, cl, infer or all", 0, 0},
        {"peer", OPT_STRING, &peer_path, "FILE", "stored PyTorch figures (JSON lines), used without --torch", 0, 0},
        {"torch", OPT_STRING, &torch_python, "PYTHON", "measure PyTorch in this run: a python3 with torch", 0, 0},
        {"torch-script", OPT_STRING, &torch_script, "FILE", "the PyTorch side of the benchmark", 0, 0},
        {0}};
    const cli_spec spec = {"bench-encoder", "throughput of the encoder core against PyTorch",
                           "[options]", "make bench-encoder", "train-mlm, train-cl, infer", opts, 0};
    cli_parse(&spec, argc, argv);
    int threads = cli_num_threads();
    double peak = sgemm_gflops(1536, 768, 768, 10);
    double peak2 = sgemm_gflops(2048, 2048, 2048, 3);
    if (peak2 > peak) peak = peak2;
    json_t *peer = torch_python ? json_array() : load_peer(peer_path), *peer_default = json_array();
    /* PyTorch with the library's own core as well, when that is not the one used here */
    int torch_default_differs = torch_python && !strcmp(blas_core_origin(), "cpuid");
    printf("# threads %d, %s, core %s, sgemm peak %.1f GFLOP/s\n", threads, openblas_get_config(),
           blas_core_summary(), peak);
    printf("%-10s %-12s %5s %10s %10s %10s %8s %7s %10s %8s %8s\n", "config", "task", "batch", "samples/s",
           "per_cpu_s", "GFLOP/s", "of_peak", "F", "torch/s", "speedup", "per_cpu");
    shape shapes[2] = {{"small", 4, 256, 4, 1024, 0}, {"bert-base", 12, 768, 12, 3072, 11}};
    for (int si = 0; si < 2; si++) {
        const shape *s = &shapes[si];
        if (strcmp(only, "all") && strcmp(only, s->name)) continue;
        struct { const char *task; int batch; step_fn fn; int cache; } tasks[5] = {
            {"mep", 32, mep_step, 1}, {"cl", 32, cl_step, 1}, {"infer", 128, infer_step, 0},
            {"infer", 32, infer_step, 0}, {"infer-cached", 128, infer_cached_step, 1}};
        for (int ti = 0; ti < 5; ti++) {
            if (ti == 4 && s->frozen == 0) continue;
            const char *peer_task = ti == 4 ? "infer" : tasks[ti].task;
            if (strcmp(only_task, "all") && strncmp(only_task, tasks[ti].task, strlen(only_task))) continue;
            if (torch_python && ti != 3 && !peer_value(peer, s->name, peer_task, tasks[ti].batch, "samples_per_s")) {
                json_t *row = torch_measure(torch_python, torch_script, blas_core_name(), s->name, peer_task, threads, seconds);
                if (row) json_array_append_new(peer, row);
                if (torch_default_differs &&
                    (row = torch_measure(torch_python, torch_script, NULL, s->name, peer_task, threads, seconds)))
                    json_array_append_new(peer_default, row);
            }
            double peer_r = peer_value(peer, s->name, peer_task, tasks[ti].batch, "samples_per_s");
            double peer_cpu_r = peer_value(peer, s->name, peer_task, tasks[ti].batch, "samples_per_cpu_s");
            if (ti == 3 && peer_r == 0) continue;
            rng_t r;
            rng_seed(&r, 1234 + si);
            bench_model bm;
            bench_batch bbs[NBATCH];
            prepare(&bm, bbs, s, tasks[ti].batch, &r, tasks[ti].cache);
            result res = timeit(&bm, bbs, tasks[ti].fn, tasks[ti].batch, seconds);
            printf("%-10s %-12s %5d %10.2f %10.2f %10.1f %7.0f%% %7d %10.2f %7.2fx %7.2fx\n", s->name,
                   tasks[ti].task, tasks[ti].batch, res.samples_per_s, res.samples_per_cpu_s, res.gflops,
                   100 * res.gflops / peak, s->frozen, peer_r,
                   peer_r > 0 ? res.samples_per_s / peer_r : 0,
                   peer_cpu_r > 0 ? res.samples_per_cpu_s / peer_cpu_r : 0);
            fprintf(stderr,
                    "{\"config\": \"%s\", \"task\": \"%s\", \"batch\": %d, \"samples_per_s\": %.3f, "
                    "\"samples_per_cpu_s\": %.3f, \"blas_core\": \"%s\", "
                    "\"gflops\": %.2f, \"sgemm_peak_gflops\": %.2f, \"threads\": %d, \"frozen_layers\": %d, "
                    "\"num_entities\": %d, \"mean_real_len\": %.2f, \"padding\": 0, \"prefix_cache\": \"%s\", "
                    "\"torch_samples_per_s\": %.3f, \"torch\": \"%s\"}\n",
                    s->name, tasks[ti].task, tasks[ti].batch, res.samples_per_s, res.samples_per_cpu_s,
                    blas_core_name(), res.gflops, peak,
                    threads, s->frozen, V_E, res.mean_len,
                    tasks[ti].cache && s->frozen ? "bf16" : "none", peer_r,
                    torch_python ? "measured in this run, same core" : "stored");
            double default_r = peer_value(peer_default, s->name, peer_task, tasks[ti].batch, "samples_per_s");
            if (default_r > 0)
                printf("%-10s %-12s %5d   PyTorch with OpenBLAS's own core (variable unset): %.2f samples/s, speedup %.2fx\n",
                       s->name, tasks[ti].task, tasks[ti].batch, default_r, res.samples_per_s / default_r);
            fflush(stdout);
            release(&bm, bbs);
        }
    }
    json_decref(peer);
    json_decref(peer_default);
    return 0;
}
