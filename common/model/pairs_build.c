/* pairs_build: the contrastive sets and the stored draw of a `pairs` artifact, from a
 * ranking, the dataset's queries and a samples artifact (see pairs_build.h). */
#include "model/pairs_build.h"

#include <stdlib.h>
#include <string.h>

#include "artifacts/expansions.h"
#include "base/error.h"
#include "base/log.h"
#include "base/rng.h"
#include "dataset/dataset.h"
#include "dataset/entitynames.h"

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
    name_read_queries(o->queries, &qs);
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
    pairs_commit(o->out, &p, o->ranked, o->queries, o->samples);
    if (report) pairs_print_summary(report, &p, o->show);
    int64_t n = p.n_pairs;
    pairs_free(&p);
    expansion_set_free(&es);
    samples_close(s);
    return n;
}

