/* pairs: build, write, read and check the `pairs` artifact (see pairs.h, schemas/pairs.md). */
#include "artifacts/pairs.h"

#include <stdlib.h>
#include <string.h>

#include "format/artifact.h"
#include "catalog/catalog.h"
#include "base/cli.h"
#include "dataset/dataset.h"
#include "base/error.h"
#include "artifacts/expansions.h"
#include "base/log.h"
#include "base/rng.h"
#include "format/lebin.h"

/* ---------------- build ---------------- */

static int64_t row_or_die(const samples *s, int64_t eid, const char *ranked_path, const char *cls,
                          int q, const char *what) {
    int64_t row = samples_row_of_eid(s, eid);
    if (row < 0) {
        char where[300];
        snprintf(where, sizeof where, "class %s query %d", cls, q + 1);
        die_input(ranked_path, where,
                  "%s eid %lld has no samples in %s: ranking and samples come from different entity tables",
                  what, (long long)eid, samples_path(s));
    }
    return row;
}

/* The ranked record of (class, query index) or NULL. */
static const expansion_record *find_record(const expansion_set *es, const char *cls, int q) {
    for (int i = 0; i < es->n; i++)
        if (es->r[i].query == q && !strcmp(es->r[i].class_name, cls)) return &es->r[i];
    return NULL;
}

static void fill_names(pairs_class *c, const samples *s) {
    const cl_sets *k = &c->sets;
    c->pos_eid = xmalloc(sizeof(int64_t) * (size_t)(k->n_pos + 1));
    c->neg_eid = xmalloc(sizeof(int64_t) * (size_t)(k->n_neg + 1));
    c->pos_name = xmalloc(sizeof(char *) * (size_t)(k->n_pos + 1));
    c->neg_name = xmalloc(sizeof(char *) * (size_t)(k->n_neg + 1));
    for (int64_t i = 0; i < k->n_pos; i++) {
        c->pos_eid[i] = samples_eid(s, k->pos[i]);
        c->pos_name[i] = xstrdup(samples_name(s, k->pos[i]));
    }
    for (int64_t i = 0; i < k->n_neg; i++) {
        c->neg_eid[i] = samples_eid(s, k->neg[i]);
        c->neg_name[i] = xstrdup(samples_name(s, k->neg[i]));
    }
}

/* Per class sets from the dataset's queries and the ranked lists. */
static void build_sets(pairs_set *p, const pairs_build_opts *o, const expansion_set *es,
                       const samples *s) {
    query_set qs;
    dataset_read_queries(o->queries, &qs);
    if (qs.n == 0) die_input(o->queries, "query/", "no queries: expected query/<class>.txt files");
    p->c = xcalloc((size_t)qs.n + 1, sizeof *p->c);
    int used = 0;
    for (int i = 0; i < qs.n;) {
        const char *cls = qs.q[i].class_name;
        pairs_class *c = &p->c[p->n_classes++];
        c->name = xstrdup(cls);
        cl_sets_init(&c->sets);
        int longest = 0;
        for (int q = 0; i < qs.n && !strcmp(qs.q[i].class_name, cls); i++, q++) {
            const dataset_query *dq = &qs.q[i];
            const expansion_record *r = find_record(es, cls, q);
            char where[300];
            snprintf(where, sizeof where, "class %s query %d", cls, q + 1);
            if (!r)
                die_input(o->ranked, where, "no ranked list for this query of %s: the ranking was made from other queries",
                          o->queries);
            int same = r->nseeds == dq->nseeds;
            for (int k = 0; same && k < dq->nseeds; k++) same = r->seeds[k] == dq->seeds[k];
            if (!same)
                die_input(o->ranked, where, "seeds differ from %s's query: the ranking was made from other queries",
                          o->queries);
            int64_t *seeds = xmalloc(sizeof(int64_t) * (size_t)(r->nseeds + 1));
            int64_t *ranked = xmalloc(sizeof(int64_t) * (size_t)(r->n + 1));
            for (int k = 0; k < r->nseeds; k++) seeds[k] = row_or_die(s, r->seeds[k], o->ranked, cls, q, "seed");
            for (int k = 0; k < r->n; k++) ranked[k] = row_or_die(s, r->eids[k], o->ranked, cls, q, "entity");
            cl_sets_add_query(&c->sets, seeds, r->nseeds, ranked, r->n, &o->bounds);
            if (r->n > longest) longest = r->n;
            c->queries++;
            used++;
            free(seeds);
            free(ranked);
        }
        if (c->sets.n_neg == 0) {
            char where[300];
            snprintf(where, sizeof where, "class %s", cls);
            die_input(o->ranked, where, "no hard negatives: E_neg takes ranks %d..%d and the longest list has %d "
                      "entities; expand further (--size %d or more) or lower --l-neg",
                      o->bounds.l_neg + 1, o->bounds.u_neg - 1, longest, o->bounds.l_neg + 1);
        }
        fill_names(c, s);
    }
    if (used < es->n)
        log_warn("%d of the %d ranked lists match no query of %s and are ignored", es->n - used, es->n, o->queries);
    query_set_free(&qs);
}

static void draw_pairs(pairs_set *p, const samples *s, rng_t *rng) {
    int64_t E = samples_entities(s);
    int64_t *first = xmalloc(sizeof(int64_t) * (size_t)(E + 1));
    int64_t *count = xmalloc(sizeof(int64_t) * (size_t)(E + 1));
    for (int64_t e = 0; e < E; e++) samples_range(s, e, &first[e], &count[e]);
    cl_sets *sets = xmalloc(sizeof(cl_sets) * (size_t)(p->n_classes + 1));
    for (int c = 0; c < p->n_classes; c++) sets[c] = p->c[c].sets;
    cl_pairs pr = {0};
    cl_make_pairs(sets, p->n_classes, count, E, &p->opts, rng, &pr);
    p->n_pairs = pr.n;
    p->sample1 = xmalloc(sizeof(int64_t) * (size_t)(pr.n + 1));
    p->sample2 = xmalloc(sizeof(int64_t) * (size_t)(pr.n + 1));
    p->kind = xmalloc((size_t)pr.n + 1);
    p->cls = xmalloc(sizeof(int32_t) * (size_t)(pr.n + 1));
    for (int64_t i = 0; i < pr.n; i++) {
        const cl_pair *q = &pr.p[i];
        p->sample1[i] = first[q->e1] + q->s1;
        p->sample2[i] = first[q->e2] + q->s2;
        p->kind[i] = (uint8_t)q->kind;
        p->cls[i] = q->cls;
    }
    cl_pairs_free(&pr);
    free(sets);
    free(first);
    free(count);
}

static void pack_eids_names(msgpack_packer *pk, const char *k_rows, const char *k_eids, const char *k_names,
                            const int64_t *rows, const int64_t *eids, char *const *names, int64_t n) {
    mp_str(pk, k_rows);
    msgpack_pack_array(pk, (size_t)n);
    for (int64_t i = 0; i < n; i++) msgpack_pack_int64(pk, rows[i]);
    mp_str(pk, k_eids);
    msgpack_pack_array(pk, (size_t)n);
    for (int64_t i = 0; i < n; i++) msgpack_pack_int64(pk, eids[i]);
    mp_str(pk, k_names);
    msgpack_pack_array(pk, (size_t)n);
    for (int64_t i = 0; i < n; i++) mp_str(pk, names[i]);
}

static void write_artifact(const pairs_set *p, const pairs_build_opts *o) {
    artifact_writer *w = artifact_create(o->out, PAIRS_KIND, PAIRS_SCHEMA);
    artifact_param_int(w, "thr_pos", p->bounds.thr_pos);
    artifact_param_int(w, "l_neg", p->bounds.l_neg);
    artifact_param_int(w, "u_neg", p->bounds.u_neg);
    artifact_param_int(w, "max_pairs_per_set", p->opts.max_pairs_per_set);
    artifact_param_int(w, "cross_per_pos", p->opts.cross_per_pos);
    artifact_param_int(w, "sets_per_neg", p->opts.sets_per_neg);
    artifact_param_int(w, "seed", (int64_t)p->seed);
    artifact_param_str(w, "samples_sha256", p->samples_sha256);
    artifact_param_str(w, "ranked", o->ranked);
    artifact_param_str(w, "queries", o->queries);
    artifact_param_str(w, "samples", o->samples);
    artifact_add_input(w, o->ranked);
    artifact_add_input(w, o->queries);
    artifact_add_input(w, o->samples);
    msgpack_packer *pk = artifact_payload(w);
    msgpack_pack_map(pk, 4);
    mp_kv_int(pk, "classes", p->n_classes);
    mp_kv_int(pk, "entities", p->entities);
    mp_kv_int(pk, "samples", p->samples);
    mp_kv_int(pk, "pairs", p->n_pairs);
    for (int c = 0; c < p->n_classes; c++) {
        const pairs_class *k = &p->c[c];
        msgpack_pack_map(pk, 8);
        mp_kv_str(pk, "class", k->name);
        mp_kv_int(pk, "queries", k->queries);
        pack_eids_names(pk, "pos", "pos_eids", "pos_names", k->sets.pos, k->pos_eid, k->pos_name, k->sets.n_pos);
        pack_eids_names(pk, "neg", "neg_eids", "neg_names", k->sets.neg, k->neg_eid, k->neg_name, k->sets.n_neg);
    }
    msgpack_pack_map(pk, 4);
    mp_pack_le_bin(pk, "sample1", p->sample1, p->n_pairs, 8);
    mp_pack_le_bin(pk, "sample2", p->sample2, p->n_pairs, 8);
    mp_pack_le_bin(pk, "kind", p->kind, p->n_pairs, 1);
    mp_pack_le_bin(pk, "class", p->cls, p->n_pairs, 4);
    artifact_commit(w);
}

int64_t pairs_build(const pairs_build_opts *o, FILE *report) {
    if (o->bounds.thr_pos < 1 || o->bounds.l_neg < 0 || o->bounds.l_neg >= o->bounds.u_neg)
        die_usage("thresholds: need thr_pos >= 1 and 0 <= L_neg < U_neg (have %d, %d, %d)",
                  o->bounds.thr_pos, o->bounds.l_neg, o->bounds.u_neg);
    samples *s = samples_open(o->samples);
    expansion_set es;
    expansion_set_read(&es, o->ranked);
    if (strcmp(es.kind, RANKED_KIND))
        die_input(o->ranked, "header", "kind \"%s\": expected a \"ranked\" artifact (rerank's output)", es.kind);
    if (es.entities != samples_entities(s))
        die_input(o->ranked, "summary", "ranked over %lld entities, but %s has %lld: use the samples the ranking was made from",
                  (long long)es.entities, o->samples, (long long)samples_entities(s));
    pairs_set p;
    memset(&p, 0, sizeof p);
    input_sha256_hex(o->samples, p.samples_sha256);
    p.entities = samples_entities(s);
    p.samples = samples_count(s);
    p.bounds = o->bounds;
    p.opts = o->opts;
    p.seed = o->seed;
    build_sets(&p, o, &es, s);
    rng_t rng;
    rng_seed(&rng, o->seed);
    draw_pairs(&p, s, &rng);
    write_artifact(&p, o);
    if (report) pairs_print_summary(report, &p, o->show);
    int64_t n = p.n_pairs;
    pairs_free(&p);
    expansion_set_free(&es);
    samples_close(s);
    return n;
}

/* ---------------- read / check ---------------- */

static int64_t *read_i64_array(artifact_reader *ar, const msgpack_object *m, const char *key, int64_t *n) {
    const msgpack_object *a = mp_get_array(ar, m, key);
    *n = a->via.array.size;
    int64_t *v = xmalloc(sizeof(int64_t) * (size_t)(*n + 1));
    for (int64_t i = 0; i < *n; i++) v[i] = mp_as_int(ar, &a->via.array.ptr[i], key);
    return v;
}

static char **read_str_array(artifact_reader *ar, const msgpack_object *m, const char *key, int64_t want) {
    const msgpack_object *a = mp_get_array(ar, m, key);
    if ((int64_t)a->via.array.size != want)
        artifact_bad(ar, "'%s' has %u items, expected %lld", key, a->via.array.size, (long long)want);
    char **v = xmalloc(sizeof(char *) * (size_t)(want + 1));
    for (int64_t i = 0; i < want; i++) {
        const msgpack_object *s = &a->via.array.ptr[i];
        if (s->type != MSGPACK_OBJECT_STR) artifact_bad(ar, "'%s': expected strings", key);
        v[i] = xasprintf("%.*s", (int)s->via.str.size, s->via.str.ptr);
    }
    return v;
}

static void read_set(artifact_reader *ar, const msgpack_object *m, const char *k_rows, const char *k_eids,
                     const char *k_names, int64_t **rows, int64_t **eids, char ***names, int64_t *n,
                     int64_t entities) {
    int64_t ne;
    *rows = read_i64_array(ar, m, k_rows, n);
    *eids = read_i64_array(ar, m, k_eids, &ne);
    if (ne != *n) artifact_bad(ar, "'%s' has %lld items, expected %lld", k_eids, (long long)ne, (long long)*n);
    for (int64_t i = 0; i < *n; i++)
        if ((*rows)[i] < 0 || (*rows)[i] >= entities)
            artifact_bad(ar, "'%s': entity row %lld outside 0..%lld", k_rows, (long long)(*rows)[i],
                         (long long)entities - 1);
    *names = read_str_array(ar, m, k_names, *n);
}

static int header_param_int(artifact_reader *ar, const char *key) {
    return (int)mp_get_int(ar, &artifact_hdr(ar)->params, key);
}

void pairs_read(pairs_set *p, const char *path) {
    memset(p, 0, sizeof *p);
    artifact_reader *ar = artifact_open(path, PAIRS_KIND, PAIRS_SCHEMA);
    p->bounds = (cl_bounds){header_param_int(ar, "thr_pos"), header_param_int(ar, "l_neg"), header_param_int(ar, "u_neg")};
    p->opts = (cl_pair_opts){header_param_int(ar, "max_pairs_per_set"), header_param_int(ar, "cross_per_pos"),
                             header_param_int(ar, "sets_per_neg")};
    p->seed = (uint64_t)mp_get_int(ar, &artifact_hdr(ar)->params, "seed");
    char *sha = mp_get_str(ar, &artifact_hdr(ar)->params, "samples_sha256");
    if (strlen(sha) != 64) artifact_bad(ar, "'samples_sha256': expected 64 hex digits");
    memcpy(p->samples_sha256, sha, 65);
    free(sha);
    msgpack_object o;
    artifact_expect(ar, &o, "the summary {classes, entities, samples, pairs}");
    int64_t nc = mp_get_int(ar, &o, "classes");
    p->entities = mp_get_int(ar, &o, "entities");
    p->samples = mp_get_int(ar, &o, "samples");
    p->n_pairs = mp_get_int(ar, &o, "pairs");
    if (nc < 1 || nc > (1 << 20)) artifact_bad(ar, "implausible number of classes %lld", (long long)nc);
    if (p->entities < 1 || p->samples < 1 || p->n_pairs < 0 || p->n_pairs > (INT64_C(1) << 40))
        artifact_bad(ar, "implausible summary (entities %lld, samples %lld, pairs %lld)",
                     (long long)p->entities, (long long)p->samples, (long long)p->n_pairs);
    p->c = xcalloc((size_t)nc + 1, sizeof *p->c);
    for (int64_t c = 0; c < nc; c++) {
        artifact_expect(ar, &o, "a class record");
        pairs_class *k = &p->c[p->n_classes++];
        cl_sets_init(&k->sets);
        k->name = mp_get_str(ar, &o, "class");
        k->queries = (int)mp_get_int(ar, &o, "queries");
        read_set(ar, &o, "pos", "pos_eids", "pos_names", &k->sets.pos, &k->pos_eid, &k->pos_name,
                 &k->sets.n_pos, p->entities);
        read_set(ar, &o, "neg", "neg_eids", "neg_names", &k->sets.neg, &k->neg_eid, &k->neg_name,
                 &k->sets.n_neg, p->entities);
        k->sets.cap_pos = k->sets.n_pos;
        k->sets.cap_neg = k->sets.n_neg;
    }
    artifact_expect(ar, &o, "the pair columns {sample1, sample2, kind, class}");
    int64_t n = p->n_pairs;
    p->sample1 = xmalloc(sizeof(int64_t) * (size_t)(n + 1));
    p->sample2 = xmalloc(sizeof(int64_t) * (size_t)(n + 1));
    p->kind = xmalloc((size_t)n + 1);
    p->cls = xmalloc(sizeof(int32_t) * (size_t)(n + 1));
    mp_read_le_bin(ar, &o, "sample1", n, 8, p->sample1);
    mp_read_le_bin(ar, &o, "sample2", n, 8, p->sample2);
    mp_read_le_bin(ar, &o, "kind", n, 1, p->kind);
    mp_read_le_bin(ar, &o, "class", n, 4, p->cls);
    for (int64_t i = 0; i < n; i++) {
        if (p->sample1[i] < 0 || p->sample1[i] >= p->samples || p->sample2[i] < 0 || p->sample2[i] >= p->samples)
            artifact_bad(ar, "pair %lld: sample index outside 0..%lld", (long long)i, (long long)p->samples - 1);
        if (p->kind[i] > CL_SAME_NEG || p->cls[i] < 0 || p->cls[i] >= p->n_classes)
            artifact_bad(ar, "pair %lld: kind %d / class %d out of range", (long long)i, p->kind[i], p->cls[i]);
    }
    artifact_expect_end(ar);
    artifact_close(ar);
}

void pairs_check_samples(const pairs_set *p, const char *pairs_path, const samples *s,
                         const char *samples_sha) {
    const char *sp = samples_path(s);
    if (strcmp(p->samples_sha256, samples_sha))
        die_input(pairs_path, "params.samples_sha256",
                  "built from another samples artifact (sha256 %.12s…), not %s (%.12s…): rebuild the pairs from these samples",
                  p->samples_sha256, sp, samples_sha);
    if (p->entities != samples_entities(s) || p->samples != samples_count(s))
        die_input(pairs_path, "summary", "%lld entities / %lld samples, but %s has %lld / %lld",
                  (long long)p->entities, (long long)p->samples, sp, (long long)samples_entities(s),
                  (long long)samples_count(s));
    for (int c = 0; c < p->n_classes; c++) {
        const pairs_class *k = &p->c[c];
        for (int64_t i = 0; i < k->sets.n_pos + k->sets.n_neg; i++) {
            int pos = i < k->sets.n_pos;
            int64_t j = pos ? i : i - k->sets.n_pos;
            int64_t row = pos ? k->sets.pos[j] : k->sets.neg[j], eid = pos ? k->pos_eid[j] : k->neg_eid[j];
            if (samples_eid(s, row) != eid)
                die_input(pairs_path, k->name, "entity row %lld is eid %lld in %s, not %lld", (long long)row,
                          (long long)samples_eid(s, row), sp, (long long)eid);
        }
    }
}

void pairs_free(pairs_set *p) {
    for (int c = 0; c < p->n_classes; c++) {
        pairs_class *k = &p->c[c];
        for (int64_t i = 0; i < k->sets.n_pos; i++) free(k->pos_name[i]);
        for (int64_t i = 0; i < k->sets.n_neg; i++) free(k->neg_name[i]);
        free(k->pos_name);
        free(k->neg_name);
        free(k->pos_eid);
        free(k->neg_eid);
        free(k->name);
        cl_sets_free(&k->sets);
    }
    free(p->c);
    free(p->sample1);
    free(p->sample2);
    free(p->kind);
    free(p->cls);
    memset(p, 0, sizeof *p);
}

static void print_names(FILE *f, char *const *names, int64_t n, int show) {
    for (int64_t i = 0; i < n && i < show; i++) fprintf(f, "%s%s", i ? ", " : " ", names[i]);
    if (n > show) fprintf(f, "%s… (+%lld)", show ? ", " : " ", (long long)(n - show));
}

void pairs_print_summary(FILE *f, const pairs_set *p, int show) {
    for (int c = 0; c < p->n_classes; c++) {
        const pairs_class *k = &p->c[c];
        fprintf(f, "%s: |E_pos| = %lld, |E_neg| = %lld\n", k->name, (long long)k->sets.n_pos,
                (long long)k->sets.n_neg);
        fprintf(f, "  pos:");
        print_names(f, k->pos_name, k->sets.n_pos, show);
        fprintf(f, "\n  neg:");
        print_names(f, k->neg_name, k->sets.n_neg, show);
        fputc('\n', f);
    }
    int64_t k[3] = {0, 0, 0};
    for (int64_t i = 0; i < p->n_pairs; i++) k[p->kind[i]]++;
    fprintf(f, "pairs: %lld (same positive entity %lld, two positives %lld, same negative entity %lld)\n",
            (long long)p->n_pairs, (long long)k[CL_SAME_POS], (long long)k[CL_CROSS_POS], (long long)k[CL_SAME_NEG]);
    if (ferror(f)) die_errno("cannot write the report");
}

/* ---------------- command line ---------------- */

void pairs_cli_init(pairs_cli *p) {
    memset(p, 0, sizeof *p);
    p->preset = "wiki";
    p->thr_pos = p->l_neg = p->u_neg = -1;
    p->show = 5;
    p->pairs_per_set = cl_pair_opts_default().max_pairs_per_set;
}

void pairs_cli_run(const pairs_cli *p, const char *out, long seed) {
    if (!p->ranked || !p->queries || !p->samples)
        die_usage("--contrastive needs --ranked FILE, --queries DATA and --samples FILE");
    const cl_preset *pr = cl_preset_find(p->preset);
    if (!pr) die_usage("--preset: expected wiki, apr or se2, found '%s'", p->preset);
    cl_pair_opts po = cl_pair_opts_default();
    po.max_pairs_per_set = p->pairs_per_set;
    pairs_build_opts o = {
        .ranked = p->ranked, .queries = p->queries, .samples = p->samples, .out = out,
        .bounds = {p->thr_pos >= 0 ? p->thr_pos : pr->thr_pos, p->l_neg >= 0 ? p->l_neg : pr->l_neg,
                   p->u_neg >= 0 ? p->u_neg : pr->u_neg},
        .opts = po,
        .seed = (uint64_t)seed,
        .show = p->show,
    };
    int64_t n = pairs_build(&o, stdout);
    stdout_flush();
    catalog_metric("pairs", (double)n);
    char b[32];
    log_done("%s pairs (thr_pos %d, L_neg %d, U_neg %d) in %s", fmt_count(b, n), o.bounds.thr_pos,
             o.bounds.l_neg, o.bounds.u_neg, out);
}
