/* expansions: pack and read the query records of `expansions` / `ranked`. */
#include "artifacts/expansions.h"

#include <jansson.h>
#include <math.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/sort.h"
#include "format/tsv.h"

artifact_writer *expansions_create(const char *path) { return artifact_create(path, EXPANSIONS_KIND, EXPANSIONS_SCHEMA); }
artifact_writer *ranked_create(const char *path) { return artifact_create(path, RANKED_KIND, EXPANSIONS_SCHEMA); }

void expansions_pack_begin(msgpack_packer *pk, int nqueries, int64_t entities) {
    msgpack_pack_map(pk, 2);
    mp_kv_int(pk, "queries", nqueries);
    mp_kv_int(pk, "entities", entities);
}

void expansion_record_pack(msgpack_packer *pk, const expansion_record *r) {
    int ranked = r->order != NULL;
    msgpack_pack_map(pk, ranked ? 11 : 8);
    mp_kv_str(pk, "class", r->class_name);
    mp_kv_int(pk, "query", r->query);
    mp_kv_i64_array(pk, "seeds", r->seeds, r->nseeds);
    mp_kv_str_array(pk, "seed_names", r->seed_names, r->nseeds);
    mp_kv_i64_array(pk, "negatives", r->negatives, r->nneg);
    mp_kv_i64_array(pk, "entities", r->eids, r->n);
    mp_kv_str_array(pk, "names", r->names, r->n);
    mp_kv_double_array(pk, "scores", r->scores, r->n);
    if (ranked) {
        mp_kv_int_array(pk, "order", r->order, r->n);
        mp_kv_int_array(pk, "kl_rank", r->kl_rank, r->n);
        mp_kv_double_array(pk, "kl_score", r->kl_score, r->n);
    }
}

/* The length n of array field `key` as an int (the records count in ints). */
static int count_of(artifact_reader *ar, int64_t n, const char *key) {
    if (n > INT32_MAX) artifact_bad(ar, "field '%s': %lld items", key, (long long)n);
    return (int)n;
}
/* A list names each entity once, by an eid >= 0, with a score that is a number (NaN is refused;
 * ±inf is a score some methods give). Positions in messages are 1-based ranks. Sorting a copy
 * keeps this O(n log n) for lists of 10^5 entries. */
static void check_list(artifact_reader *ar, const expansion_record *r, int64_t q) {
    for (int i = 0; i < r->n; i++) {
        if (r->eids[i] < 0)
            artifact_bad(ar, "query %lld (class %s, query %d): position %d has eid %lld: expected an eid >= 0",
                         (long long)q + 1, r->class_name, r->query, i + 1, (long long)r->eids[i]);
        if (isnan(r->scores[i]) || (r->kl_score && isnan(r->kl_score[i])))
            artifact_bad(ar, "query %lld (class %s, query %d): position %d (eid %lld) has a NaN score",
                         (long long)q + 1, r->class_name, r->query, i + 1, (long long)r->eids[i]);
    }
    int64_t *sorted = xmalloc(sizeof(int64_t) * (size_t)(r->n + 1));
    memcpy(sorted, r->eids, sizeof(int64_t) * (size_t)r->n);
    qsort(sorted, (size_t)r->n, sizeof(int64_t), cmp_i64);
    for (int i = 1; i < r->n; i++) {
        if (sorted[i] != sorted[i - 1]) continue;
        int first = 0, again;
        while (r->eids[first] != sorted[i]) first++;
        for (again = first + 1; r->eids[again] != sorted[i]; again++) continue;
        artifact_bad(ar, "query %lld (class %s, query %d): eid %lld at position %d appears again at position %d",
                     (long long)q + 1, r->class_name, r->query, (long long)sorted[i], first + 1, again + 1);
    }
    free(sorted);
}

void expansion_set_read(expansion_set *s, const char *path) {
    memset(s, 0, sizeof *s);
    artifact_reader *ar = artifact_open(path, NULL, INT_MAX); /* the kind first, then its schema */
    const char *kind = artifact_hdr(ar)->kind;
    int ranked = !strcmp(kind, RANKED_KIND);
    if (!ranked && strcmp(kind, EXPANSIONS_KIND))
        die_input(path, "header", "kind \"%s\": expected an \"expansions\" or \"ranked\" artifact", kind);
    if (artifact_hdr(ar)->schema > EXPANSIONS_SCHEMA)
        artifact_bad(ar, "%s schema version %lld is not supported (this program reads 1..%d)", kind,
                     (long long)artifact_hdr(ar)->schema, EXPANSIONS_SCHEMA);
    s->kind = xstrdup(kind);
    const msgpack_object *q = mp_get(ar, &artifact_hdr(ar)->params, "queries", 0);
    if (q && q->type == MSGPACK_OBJECT_STR && q->via.str.size)
        s->queries = xasprintf("%.*s", (int)q->via.str.size, q->via.str.ptr);
    msgpack_object o;
    artifact_expect(ar, &o, "the summary {queries, entities}");
    if (o.type != MSGPACK_OBJECT_MAP) artifact_bad(ar, "expected the summary map");
    int64_t nq = mp_get_int(ar, &o, "queries");
    s->entities = mp_get_int(ar, &o, "entities");
    if (nq < 0 || nq > (1 << 24)) artifact_bad(ar, "implausible number of queries %lld", (long long)nq);
    s->r = xcalloc((size_t)(nq + 1), sizeof *s->r);
    for (int64_t q = 0; q < nq; q++) {
        artifact_expect(ar, &o, "a query record");
        if (o.type != MSGPACK_OBJECT_MAP) artifact_bad(ar, "expected a query record map");
        expansion_record *r = &s->r[s->n++];
        r->class_name = mp_get_str(ar, &o, "class");
        r->query = (int)mp_get_int(ar, &o, "query");
        int64_t n;
        r->seeds = mp_get_i64_array(ar, &o, "seeds", -1, &n);
        r->nseeds = count_of(ar, n, "seeds");
        r->seed_names = mp_get_str_array(ar, &o, "seed_names", r->nseeds, &n);
        r->negatives = mp_get_i64_array(ar, &o, "negatives", -1, &n);
        r->nneg = count_of(ar, n, "negatives");
        r->eids = mp_get_i64_array(ar, &o, "entities", -1, &n);
        r->n = count_of(ar, n, "entities");
        r->names = mp_get_str_array(ar, &o, "names", r->n, &n);
        r->scores = mp_get_double_array(ar, &o, "scores", r->n, &n);
        if (ranked) {
            r->order = mp_get_int_array(ar, &o, "order", r->n, &n);
            r->kl_rank = mp_get_int_array(ar, &o, "kl_rank", r->n, &n);
            r->kl_score = mp_get_double_array(ar, &o, "kl_score", r->n, &n);
        }
        check_list(ar, r, q);
    }
    artifact_expect_end(ar);
    artifact_close(ar);
}

void expansion_record_alloc_lists(expansion_record *r) {
    size_t n = (size_t)r->n + 1;
    r->eids = xmalloc(sizeof(int64_t) * n);
    r->names = xmalloc(sizeof(char *) * n);
    r->scores = xmalloc(sizeof(double) * n);
    r->order = xmalloc(sizeof(int) * n);
    r->kl_rank = xmalloc(sizeof(int) * n);
    r->kl_score = xmalloc(sizeof(double) * n);
}

void expansion_record_free_lists(expansion_record *r) {
    free(r->eids);
    free(r->names);
    free(r->scores);
    free(r->order);
    free(r->kl_rank);
    free(r->kl_score);
    r->eids = NULL;
    r->names = NULL;
    r->scores = NULL;
    r->order = NULL;
    r->kl_rank = NULL;
    r->kl_score = NULL;
}

static void expansion_record_free(expansion_record *r) {
    for (int i = 0; i < r->nseeds; i++) free(r->seed_names[i]);
    for (int i = 0; i < r->n; i++) free(r->names[i]);
    free(r->class_name);
    free(r->seeds);
    free(r->seed_names);
    free(r->negatives);
    expansion_record_free_lists(r);
    memset(r, 0, sizeof *r);
}

void expansion_set_free(expansion_set *s) {
    for (int i = 0; i < s->n; i++) expansion_record_free(&s->r[i]);
    free(s->r);
    free(s->kind);
    free(s->queries);
    memset(s, 0, sizeof *s);
}

/* "class #q: seeds -> names..." lines for a person (--names). */
static void expansion_record_print(FILE *f, const expansion_record *r) {
    fprintf(f, "%s #%d:", r->class_name, r->query + 1);
    for (int i = 0; i < r->nseeds; i++) fprintf(f, "%s %s", i ? "," : "", r->seed_names[i]);
    fprintf(f, "\n ->");
    for (int i = 0; i < r->n; i++) fprintf(f, "%s %s", i ? "," : "", r->names[i]);
    fputc('\n', f);
}

list_format list_format_chosen(const list_format_options *o) {
    static const char *const names[] = {"text", "tsv", "json"};
    if (!o->format) return o->names ? LIST_TEXT : LIST_NONE;
    for (int i = 0; i < 3; i++)
        if (!strcmp(o->format, names[i])) return (list_format)(LIST_TEXT + i);
    die_usage("--format: expected text, tsv or json, found '%s'", o->format);
}

void expansion_list_begin(FILE *f, list_format fmt) {
    if (fmt == LIST_TSV) fputs("class\tquery\trank\teid\tname\tscore\n", f);
}

void expansion_record_write(FILE *f, const expansion_record *r, list_format fmt) {
    if (fmt == LIST_TEXT) expansion_record_print(f, r);
    for (int i = 0; i < r->n && (fmt == LIST_TSV || fmt == LIST_JSON); i++) {
        if (fmt == LIST_TSV) {
            tsv_field(f, r->class_name);
            fprintf(f, "\t%d\t%d\t%lld\t", r->query + 1, i + 1, (long long)r->eids[i]);
            tsv_field(f, r->names[i]);
            fprintf(f, "\t%.9g\n", r->scores[i]);
            continue;
        }
        json_t *o = json_object();
        json_object_set_new(o, "class", json_string(r->class_name));
        json_object_set_new(o, "query", json_integer(r->query + 1));
        json_object_set_new(o, "rank", json_integer(i + 1));
        json_object_set_new(o, "eid", json_integer(r->eids[i]));
        json_object_set_new(o, "name", json_string(r->names[i]));
        json_object_set_new(o, "score", json_real(r->scores[i]));
        json_dumpf(o, f, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
        fputc('\n', f);
        json_decref(o);
    }
}
