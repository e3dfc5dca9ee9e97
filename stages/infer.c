/* infer: run a trained model (encoder + entity head) in eval mode and report the
 * predicted entity distribution at [MASK].
 *
 * Mode --ids FILE|-: one sequence of space-separated token ids per line (e.g.
 * "101 2023 103 102"), exactly one [MASK] among them; writes per input line one JSON array
 * of the V_e probabilities at the [MASK] position. The way to check a model from a shell.
 *
 * Mode --samples FILE --out dists.mp: for every entity row of a samples artifact, the mean
 * over its samples of softmax(head), streamed into a dists artifact
 * (common/model/entity_dists.h; memory bounded whatever V_e). --max-samples-per-entity caps the
 * samples of an entity (seeded draw, --random-seed). Under mpirun the ranks split the forward
 * batches and rank 0 writes the artifact, identical to a single-process run. --model given
 * several times writes the models' ensemble (the mean of their rows) without a file per
 * model; --rows-of QUERIES writes a dists-rows artifact of the query seeds' rows only (what
 * score-models needs), running only their samples.
 * (Each mode is one run_* function below; main only parses options and dispatches.) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn/bert.h"
#include "base/blas_core.h"
#include "catalog/catalog.h"
#include "base/cli.h"
#include "base/cluster.h"
#include "model/entity_dists.h"
#include "nn/entity_head.h"
#include "base/error.h"
#include "base/log.h"
#include "base/sort.h"
#include "artifacts/samples.h"
#include "dataset/queries.h"

/* A loaded model: encoder (everything frozen: inference only) + entity head. */
typedef struct {
    bert_model enc;
    entity_head head;
} infer_model;

static void model_load(infer_model *m, const char *dir) {
    bert_load_dir(&m->enc, dir, 0);
    if (m->enc.cfg.num_entities < 1)
        die_input(dir, "config.json", "no probexpan.num_entities: not a ProbExpan model");
    entity_head_create(&m->head, m->enc.cfg.hidden, m->enc.cfg.num_entities);
    char *st = xasprintf("%s/model.safetensors", dir);
    if (!entity_head_load_safetensors(&m->head, st))
        die_input(st, "head.0.weight", "missing tensor: the model has no entity head");
    free(st);
}

static void model_free(infer_model *m) {
    bert_free(&m->enc);
    entity_head_free(&m->head);
}

/* Probabilities at [MASK] for every sequence of b: probs [B, V_e]. */
static void predict(const infer_model *m, const bert_batch *b, float *probs) {
    int B = b->B, H = m->enc.cfg.hidden;
    float *hid = xmalloc((size_t)B * H * 2 * sizeof(float)), *gelu = hid + (size_t)B * H;
    float *dense = xmalloc((size_t)B * H * sizeof(float));
    bert_forward_infer(&m->enc, b, hid);
    entity_head_forward(&m->head, hid, B, dense, gelu, probs);
    for (size_t i = 0; i < (size_t)B * m->head.V; i++) probs[i] = expf(probs[i]);
    free(hid);
    free(dense);
}

static void write_rows(FILE *out, const float *probs, int B, int V) {
    for (int s = 0; s < B; s++) {
        fputc('[', out);
        for (int v = 0; v < V; v++) fprintf(out, v ? ",%.7g" : "%.7g", probs[(size_t)s * V + v]);
        fputs("]\n", out);
    }
    if (ferror(out)) die_errno("cannot write the output");
}

/* --ids mode: returns the number of sequences. */
static long run_ids(const infer_model *m, const char *path, int batch) {
    FILE *in = strcmp(path, "-") ? fopen(path, "r") : stdin;
    const char *name = strcmp(path, "-") ? path : "(stdin)";
    if (!in) die_errno("cannot open %s", path);
    const bert_config *c = &m->enc.cfg;
    bert_batch b = {0};
    bert_batch_clear(&b);
    float *probs = xmalloc((size_t)batch * c->num_entities * sizeof(float));
    int *ids = xmalloc((size_t)(c->max_pos + 1) * sizeof(int));
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0, n = 0;
    while (getline(&line, &cap, in) > 0) {
        lineno++;
        char where[48];
        snprintf(where, sizeof where, "line %ld", lineno);
        int len = 0;
        char *p = line, *end;
        for (;;) {
            while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
            if (!*p) break;
            long v = strtol(p, &end, 10);
            if (end == p || (*end && *end != ' ' && *end != '\t' && *end != '\n' && *end != '\r'))
                die_input(name, where, "expected space-separated integer token ids");
            if (v < 0 || v >= c->vocab_size)
                die_input(name, where, "token id %ld outside the vocabulary 0..%d", v, c->vocab_size - 1);
            if (len == c->max_pos)
                die_input(name, where, "more than max_position_embeddings = %d ids", c->max_pos);
            ids[len++] = (int)v;
            p = end;
        }
        int r = bert_batch_add(&b, ids, len, c->mask_token_id, c->max_pos);
        if (r == -1) die_input(name, where, "no [MASK] (id %d) in the sequence", c->mask_token_id);
        if (r == -2) die_input(name, where, "empty sequence");
        if (b.B == batch) {
            predict(m, &b, probs);
            write_rows(stdout, probs, b.B, c->num_entities);
            n += b.B;
            bert_batch_clear(&b);
        }
    }
    if (ferror(in)) die_errno("cannot read %s", name);
    if (b.B) {
        predict(m, &b, probs);
        write_rows(stdout, probs, b.B, c->num_entities);
        n += b.B;
    }
    stdout_flush();
    if (in != stdin) fclose(in);
    free(line);
    free(ids);
    free(probs);
    bert_batch_free(&b);
    return n;
}

/* The distinct seed rows of the queries at `path`, ascending, as rows of s (returns the count). */
static int64_t seed_rows(const samples *s, const char *path, int64_t **out) {
    entity_table t;
    samples_entity_table(s, &t);
    name_index ni;
    name_index_init(&ni, &t, NULL);
    query_list ql = {0, NULL};
    queries_load(&ql, path, samples_path(s), &ni);
    int64_t n = 0, *rows = NULL;
    for (int i = 0; i < ql.n; i++) {
        rows = xrealloc(rows, sizeof(int64_t) * (size_t)(n + ql.q[i].nseeds));
        for (int k = 0; k < ql.q[i].nseeds; k++) rows[n++] = ql.q[i].rows[k];
    }
    qsort(rows, (size_t)n, sizeof(int64_t), cmp_i64);
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++)
        if (!m || rows[i] != rows[m - 1]) rows[m++] = rows[i];
    query_list_free(&ql);
    name_index_free(&ni);
    entity_table_free(&t);
    *out = rows;
    return m;
}

/* --samples mode: returns the number of entity rows written. */
static int64_t run_samples(const infer_model *m, const cli_list *dirs, const char *samples_path, const char *rows_of,
                           const char *out, long max_per_entity, long seed) {
    samples *s = samples_open(samples_path);
    entity_dists_model *models = xmalloc(sizeof *models * (size_t)dirs->n);
    for (int k = 0; k < dirs->n; k++) models[k] = (entity_dists_model){&m[k].enc, &m[k].head, dirs->v[k]};
    int64_t *rows = NULL, nrows = rows_of ? seed_rows(s, rows_of, &rows) : 0;
    double t0 = now_seconds();
    entity_dists_stats st = entity_dists_write(models, dirs->n, s, rows, nrows, out, max_per_entity, (uint64_t)seed);
    free(rows);
    free(models);
    double secs = now_seconds() - t0;
    catalog_metric("samples", (double)st.samples);
    catalog_metric("entities_per_second", st.entities / (secs > 0 ? secs : 1e-9));
    catalog_metric("samples_per_second", st.samples / (secs > 0 ? secs : 1e-9));
    char a[32], b[32];
    log_info("%s entities, %s samples, %.1f entities/s, %.1f samples/s", fmt_count(a, st.entities),
             fmt_count(b, st.samples), st.entities / (secs > 0 ? secs : 1e-9), st.samples / (secs > 0 ? secs : 1e-9));
    samples_close(s);
    return st.entities;
}

int main(int argc, char **argv) {
    const char *ids = NULL, *samples_path = NULL, *out = NULL, *rows_of = NULL;
    cli_list model = {0, NULL};
    int batch = 64;
    long max_per_entity = 0, seed = 1;
    const cli_option opts[] = {
        {"model", OPT_LIST, &model, "DIR", "model directory (config.json, model.safetensors); given several times "
         "(--samples mode), the output is the models' ensemble: the mean of their distributions", 0, 0},
        {"ids", OPT_STRING, &ids, "FILE", "token-id lines ('-' = stdin); one JSON array of probabilities per line on stdout", 0, 0},
        {"batch", OPT_INT, &batch, "N", "sequences per forward pass (--ids mode)", 1, 65536},
        {"samples", OPT_INPUT, &samples_path, "FILE", "samples artifact: write per-entity mean distributions to --out", 0, 0},
        {"out", OPT_OUTPUT, &out, "FILE", "the dists (with --rows-of dists-rows) artifact (--samples mode)", 0, 0},
        {"rows-of", OPT_INPUT, &rows_of, "PATH", "write only the rows of these queries' seeds (a dataset or a query "
         "file), a dists-rows artifact for score-models (--samples mode; default: every row)", 0, 0},
        {"max-samples-per-entity", OPT_LONG, &max_per_entity, "N", "use at most N samples per entity, a seeded draw (0 = all)", 0, 1e12},
        {"random-seed", OPT_LONG, &seed, "N", "random seed of the --max-samples-per-entity draw", 0, 9.2e18},
        {0}};
    const cli_spec spec = {"infer", "predicted entity distributions at [MASK] from a trained model",
                           "[options] --model DIR [--model DIR...] (--samples FILE [--rows-of QUERIES] --out FILE | --ids FILE|-)",
                           "infer --model run/model-1/final --samples run/samples.mp --out run/dists-1.mp",
                           "train-mlm, train-cl, score-models", opts, 0};
    cli_parse(&spec, argc, argv);
    if (!model.n) die_usage("--model is required");
    if (!ids == !samples_path) die_usage("a mode is required: --samples FILE --out FILE, or --ids FILE|-");
    if (samples_path && !out) die_usage("--samples needs --out FILE");
    if (ids && model.n > 1) die_usage("--ids runs one model: give --model once");
    if (ids && rows_of) die_usage("--rows-of belongs to the --samples mode");
    if (rows_of && model.n > 1) die_usage("--rows-of scores one model: give --model once");
    cluster_init(&argc, &argv);
    if (ids && cluster_size() > 1) die_usage("--ids runs as one process; only --samples splits across mpirun ranks");
    if (cluster_rank() == 0) catalog_begin_beside(out); /* --ids writes no artifact: the catalog goes where --catalog says, else cwd */
    if (cluster_rank() == 0) log_info("BLAS: OpenBLAS core %s", blas_core_summary());
    infer_model *m = xmalloc(sizeof *m * (size_t)model.n);
    for (int k = 0; k < model.n; k++) model_load(&m[k], model.v[k]);
    char buf[32];
    if (samples_path) {
        int64_t n = run_samples(m, &model, samples_path, rows_of, out, max_per_entity, seed);
        log_done("%s entit%s of %d model%s -> %s", fmt_count(buf, n), n == 1 ? "y" : "ies", model.n, model.n == 1 ? "" : "s", out);
    } else {
        long n = run_ids(&m[0], ids, batch);
        catalog_metric("sequences", (double)n);
        log_done("%s sequences", fmt_count(buf, n));
    }
    for (int k = 0; k < model.n; k++) model_free(&m[k]);
    free(m);
    free(model.v);
    return 0;
}
