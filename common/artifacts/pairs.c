/* pairs: write, read and check the `pairs` artifact (see pairs.h, schemas/pairs.md). */
#include "artifacts/pairs.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "format/artifact.h"
#include "format/lebin.h"

void cl_sets_init(cl_sets *s) { memset(s, 0, sizeof *s); }

void cl_sets_free(cl_sets *s) {
    free(s->pos);
    free(s->neg);
    memset(s, 0, sizeof *s);
}

/* ---------------- write ---------------- */

static void pack_set(msgpack_packer *pk, const char *k_rows, const char *k_eids, const char *k_names,
                     const int64_t *rows, const int64_t *eids, char *const *names, int64_t n) {
    mp_kv_i64_array(pk, k_rows, rows, n);
    mp_kv_i64_array(pk, k_eids, eids, n);
    mp_kv_str_array(pk, k_names, names, n);
}

artifact_writer *pairs_create(const char *out) { return artifact_create(out, PAIRS_KIND, PAIRS_SCHEMA); }

void pairs_commit(artifact_writer *w, const pairs_set *p, const char *ranked, const char *queries, const char *samples) {
    artifact_param_int(w, "cross_per_pos", p->opts.cross_per_pos);
    artifact_param_int(w, "sets_per_neg", p->opts.sets_per_neg);
    artifact_param_str(w, "samples_sha256", p->samples_sha256);
    artifact_add_input(w, ranked);
    artifact_add_input(w, queries);
    artifact_add_input(w, samples);
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
        pack_set(pk, "pos", "pos_eids", "pos_names", k->sets.pos, k->pos_eid, k->pos_name, k->sets.n_pos);
        pack_set(pk, "neg", "neg_eids", "neg_names", k->sets.neg, k->neg_eid, k->neg_name, k->sets.n_neg);
    }
    msgpack_pack_map(pk, 4);
    mp_pack_le_bin(pk, "sample1", p->sample1, p->n_pairs, 8);
    mp_pack_le_bin(pk, "sample2", p->sample2, p->n_pairs, 8);
    mp_pack_le_bin(pk, "kind", p->kind, p->n_pairs, 1);
    mp_pack_le_bin(pk, "class", p->cls, p->n_pairs, 4);
    artifact_commit(w);
}


/* ---------------- read / check ---------------- */

static void read_set(artifact_reader *ar, const msgpack_object *m, const char *k_rows, const char *k_eids,
                     const char *k_names, int64_t **rows, int64_t **eids, char ***names, int64_t *n,
                     int64_t entities) {
    int64_t ne, nn;
    *rows = mp_get_i64_array(ar, m, k_rows, -1, n);
    *eids = mp_get_i64_array(ar, m, k_eids, *n, &ne);
    for (int64_t i = 0; i < *n; i++)
        if ((*rows)[i] < 0 || (*rows)[i] >= entities)
            artifact_bad(ar, "'%s': entity row %lld outside 0..%lld", k_rows, (long long)(*rows)[i],
                         (long long)entities - 1);
    *names = mp_get_str_array(ar, m, k_names, *n, &nn);
}

static int header_param_int(artifact_reader *ar, const char *key) {
    return (int)mp_get_int(ar, &artifact_hdr(ar)->params, key);
}

void pairs_read(pairs_set *p, const char *path) {
    memset(p, 0, sizeof *p);
    artifact_reader *ar = artifact_open(path, PAIRS_KIND, PAIRS_SCHEMA);
    p->bounds = (cl_bounds){header_param_int(ar, "thr_pos"), header_param_int(ar, "l_neg"), header_param_int(ar, "u_neg")};
    /* pairs_per_set: build-samples' option; files written before it named the param max_pairs_per_set */
    const msgpack_object *m = mp_get(ar, &artifact_hdr(ar)->params, "pairs_per_set", 0);
    p->opts = (cl_pair_opts){header_param_int(ar, m ? "pairs_per_set" : "max_pairs_per_set"),
                             header_param_int(ar, "cross_per_pos"), header_param_int(ar, "sets_per_neg")};
    /* random_seed: build-samples' option; files written before it named the param seed */
    const msgpack_object *rs = mp_get(ar, &artifact_hdr(ar)->params, "random_seed", 0);
    p->seed = (uint64_t)mp_get_int(ar, &artifact_hdr(ar)->params, rs ? "random_seed" : "seed");
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
