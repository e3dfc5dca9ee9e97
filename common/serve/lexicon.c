/* lexicon: entity names, aliases, mention counts, prefix search and example sentences for
 * `probexpan serve` (contract in lexicon.h). */
#include "serve/lexicon.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/hashmap.h"
#include "base/log.h"
#include "dataset/dataset.h"
#include "dataset/entitynames.h"

enum { MATCH_NAME, MATCH_ALIAS, MATCH_WORD }; /* search key kinds, best first */

typedef struct {
    const char *key; /* normalised text from this position on (points into a norm string) */
    int64_t row;
    int kind;
} search_key;

typedef struct {
    int32_t sentence; /* index into the kept sentences */
    int32_t start, end;
} context_ref;

typedef struct {
    int64_t line;
    int32_t ntokens;
    size_t offset; /* into text: ntokens NUL-terminated tokens */
} kept_sentence;

struct lexicon {
    entity_table ent;
    intmap row_of_eid;
    int64_t *mentions;
    char **norm;                       /* normalised name of each row */
    char *(*alias)[LEXICON_ALIASES];   /* surface forms as written */
    char *(*alias_norm)[LEXICON_ALIASES];
    int *nalias;
    search_key *keys;                  /* sorted by key */
    int64_t nkeys;
    int64_t *by_mentions;              /* rows, most-mentioned first */
    context_ref (*ctx)[LEXICON_CONTEXTS];
    int *nctx;
    kept_sentence *sent;
    int64_t nsent, sent_cap;
    char *text;
    size_t text_len, text_cap;
};

/* ---- loading ---- */

typedef struct {
    lexicon *x;
    char *scratch;
    size_t scratch_cap;
} load_state;

static void add_alias(lexicon *x, int64_t row, const char *surface) {
    if (x->nalias[row] == LEXICON_ALIASES) return;
    char *norm = name_normalise(surface);
    int dup = !norm[0] || !strcmp(norm, x->norm[row]);
    for (int i = 0; !dup && i < x->nalias[row]; i++) dup = !strcmp(norm, x->alias_norm[row][i]);
    if (dup) { free(norm); return; }
    x->alias[row][x->nalias[row]] = xstrdup(surface);
    x->alias_norm[row][x->nalias[row]++] = norm;
}

/* Keeps the tokens of the current sentence once; returns its index. */
static int32_t keep_sentence(lexicon *x, int64_t line, json_t *tokens) {
    size_t n = json_array_size(tokens), need = 0;
    for (size_t i = 0; i < n; i++) need += json_string_length(json_array_get(tokens, i)) + 1;
    if (x->text_len + need > x->text_cap) {
        x->text_cap = (x->text_len + need) * 2;
        x->text = xrealloc(x->text, x->text_cap);
    }
    if (x->nsent == x->sent_cap) {
        x->sent_cap = x->sent_cap ? 2 * x->sent_cap : 1024;
        x->sent = xrealloc(x->sent, sizeof *x->sent * (size_t)x->sent_cap);
    }
    kept_sentence *s = &x->sent[x->nsent];
    s->line = line;
    s->ntokens = (int32_t)n;
    s->offset = x->text_len;
    for (size_t i = 0; i < n; i++) {
        json_t *t = json_array_get(tokens, i);
        memcpy(x->text + x->text_len, json_string_value(t), json_string_length(t));
        x->text_len += json_string_length(t);
        x->text[x->text_len++] = 0;
    }
    return (int32_t)x->nsent++;
}

/* The mention's words joined by spaces (into the state's scratch buffer). */
static const char *surface_form(load_state *st, json_t *tokens, int64_t start, int64_t end) {
    size_t need = 1;
    for (int64_t i = start; i <= end; i++) need += json_string_length(json_array_get(tokens, (size_t)i)) + 1;
    if (need > st->scratch_cap) {
        st->scratch_cap = need * 2;
        st->scratch = xrealloc(st->scratch, st->scratch_cap);
    }
    char *o = st->scratch;
    for (int64_t i = start; i <= end; i++) {
        json_t *t = json_array_get(tokens, (size_t)i);
        if (i > start) *o++ = ' ';
        memcpy(o, json_string_value(t), json_string_length(t));
        o += json_string_length(t);
    }
    *o = 0;
    return st->scratch;
}

static void sentence_line(void *ctx, const char *member, const char *where, int64_t lineno, char *line, size_t len) {
    (void)member;
    load_state *st = ctx;
    lexicon *x = st->x;
    if (strspn(line, " \t") == len) return;
    json_error_t je;
    json_t *root = json_loadb(line, len, 0, &je);
    char pos[64];
    snprintf(pos, sizeof pos, "line %lld", (long long)lineno);
    if (!root) die_input(where, pos, "column %d: malformed JSON: %s", je.column, je.text);
    json_t *tokens = json_object_get(root, "tokens"), *mentions = json_object_get(root, "entityMentions");
    if (!json_is_array(tokens) || !json_is_array(mentions))
        die_input(where, pos, "expected an object with arrays \"tokens\" and \"entityMentions\"");
    size_t ntok = json_array_size(tokens), i;
    json_t *t, *m;
    json_array_foreach(tokens, i, t) if (!json_is_string(t)) die_input(where, pos, "tokens[%zu]: expected a string", i);
    int32_t kept = -1;
    json_array_foreach(mentions, i, m) {
        json_t *jstart = json_object_get(m, "start"), *jend = json_object_get(m, "end"), *jid = json_object_get(m, "entityId");
        if (!json_is_integer(jstart) || !json_is_integer(jend) || !json_is_integer(jid))
            die_input(where, pos, "entityMentions[%zu]: expected integers start, end, entityId", i);
        int64_t start = json_integer_value(jstart), end = json_integer_value(jend);
        if (start < 0 || start > end || end >= (int64_t)ntok)
            die_input(where, pos, "entityMentions[%zu]: span %lld..%lld outside the %zu tokens", i, (long long)start,
                      (long long)end, ntok);
        int64_t row = intmap_get(&x->row_of_eid, json_integer_value(jid));
        if (row < 0) continue; /* not an entity the method ranks */
        x->mentions[row]++;
        add_alias(x, row, surface_form(st, tokens, start, end));
        if (x->nctx[row] == LEXICON_CONTEXTS) continue;
        if (kept < 0) kept = keep_sentence(x, lineno, tokens);
        x->ctx[row][x->nctx[row]++] = (context_ref){kept, (int32_t)start, (int32_t)end};
    }
    json_decref(root);
}

static void alias_of_row(void *ctx, int64_t row, const char *alias) { add_alias(ctx, row, alias); }

static int key_cmp(const void *a, const void *b) {
    const search_key *p = a, *q = b;
    int c = strcmp(p->key, q->key);
    return c ? c : (p->kind != q->kind ? p->kind - q->kind : (p->row > q->row) - (p->row < q->row));
}

static void push_keys(lexicon *x, int64_t *cap, const char *norm, int64_t row, int kind) {
    for (const char *p = norm; *p; p++) {
        if (p != norm && p[-1] != ' ') continue;
        if (x->nkeys == *cap) {
            *cap = *cap ? 2 * *cap : 1024;
            x->keys = xrealloc(x->keys, sizeof *x->keys * (size_t)*cap);
        }
        x->keys[x->nkeys++] = (search_key){p, row, p == norm ? kind : MATCH_WORD};
    }
}

static int mentions_cmp(const void *a, const void *b, void *lex) {
    const lexicon *x = lex;
    int64_t r = *(const int64_t *)a, s = *(const int64_t *)b;
    int64_t mr = x->mentions[r], ms = x->mentions[s];
    if (mr != ms) return mr > ms ? -1 : 1;
    return (r > s) - (r < s);
}

lexicon *lexicon_load(const entity_table *t, const char *dataset_path) {
    lexicon *x = xcalloc(1, sizeof *x);
    int64_t E = t->n;
    entity_table_copy(&x->ent, t);
    entity_table_row_map(&x->ent, &x->row_of_eid);
    x->mentions = xcalloc((size_t)E + 1, sizeof *x->mentions);
    x->norm = xcalloc((size_t)E + 1, sizeof *x->norm);
    x->alias = xcalloc((size_t)E + 1, sizeof *x->alias);
    x->alias_norm = xcalloc((size_t)E + 1, sizeof *x->alias_norm);
    x->nalias = xcalloc((size_t)E + 1, sizeof *x->nalias);
    x->ctx = xcalloc((size_t)E + 1, sizeof *x->ctx);
    x->nctx = xcalloc((size_t)E + 1, sizeof *x->nctx);
    for (int64_t i = 0; i < E; i++) x->norm[i] = name_normalise(x->ent.name[i]);
    name_index names; /* the declared aliases first (the dataset's aliases.txt, optional) */
    name_index_init(&names, &x->ent, &x->row_of_eid);
    name_index_each_alias(&names, dataset_path, alias_of_row, x);
    name_index_free(&names);
    load_state st = {x, NULL, 0};
    if (dataset_read_lines(dataset_path, "sentences.json", sentence_line, &st) == 0)
        die_input(dataset_path, NULL, "no member sentences.json in the dataset");
    free(st.scratch);

    int64_t cap = 0;
    for (int64_t i = 0; i < E; i++) {
        push_keys(x, &cap, x->norm[i], i, MATCH_NAME);
        for (int a = 0; a < x->nalias[i]; a++) push_keys(x, &cap, x->alias_norm[i][a], i, MATCH_ALIAS);
    }
    qsort(x->keys, (size_t)x->nkeys, sizeof *x->keys, key_cmp);
    x->by_mentions = xmalloc(sizeof(int64_t) * ((size_t)E + 1));
    for (int64_t i = 0; i < E; i++) x->by_mentions[i] = i;
    qsort_r(x->by_mentions, (size_t)E, sizeof(int64_t), mentions_cmp, x);
    log_info("lexicon: %lld entities, %lld search keys, %lld sentences kept (%.1f MB of text)", (long long)E,
             (long long)x->nkeys, (long long)x->nsent, (double)x->text_len / 1e6);
    return x;
}

void lexicon_free(lexicon *x) {
    if (!x) return;
    for (int64_t i = 0; i < x->ent.n; i++) {
        free(x->norm[i]);
        for (int a = 0; a < x->nalias[i]; a++) {
            free(x->alias[i][a]);
            free(x->alias_norm[i][a]);
        }
    }
    free(x->norm);
    free(x->alias);
    free(x->alias_norm);
    free(x->nalias);
    free(x->mentions);
    free(x->keys);
    free(x->by_mentions);
    free(x->ctx);
    free(x->nctx);
    free(x->sent);
    free(x->text);
    intmap_free(&x->row_of_eid);
    entity_table_free(&x->ent);
    free(x);
}

/* ---- queries ---- */

int64_t lexicon_entities(const lexicon *x) { return x->ent.n; }
int64_t lexicon_eid(const lexicon *x, int64_t row) { return x->ent.eid[row]; }
const char *lexicon_name(const lexicon *x, int64_t row) { return x->ent.name[row]; }
int64_t lexicon_mentions(const lexicon *x, int64_t row) { return x->mentions[row]; }
int lexicon_alias_count(const lexicon *x, int64_t row) { return x->nalias[row]; }
const char *lexicon_alias(const lexicon *x, int64_t row, int i) { return x->alias[row][i]; }
int64_t lexicon_row_of_eid(const lexicon *x, int64_t eid) { return intmap_get(&x->row_of_eid, eid); }

/* First key >= s (or >= s as a prefix). */
static int64_t lower_bound(const lexicon *x, const char *s) {
    int64_t lo = 0, hi = x->nkeys;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (strcmp(x->keys[mid].key, s) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

int64_t lexicon_resolve(const lexicon *x, const char *text, int64_t *close, int nclose, int *nclosep) {
    char *norm = name_normalise(text);
    *nclosep = 0;
    /* exact names first; aliases only when no name matches */
    for (int kind = MATCH_NAME; kind <= MATCH_ALIAS; kind++) {
        int found = 0;
        int64_t first = -1;
        for (int64_t k = lower_bound(x, norm); k < x->nkeys && !strcmp(x->keys[k].key, norm); k++) {
            if (x->keys[k].kind != kind || x->keys[k].row == first) continue;
            if (found == 0) first = x->keys[k].row;
            if (found < nclose) close[found] = x->keys[k].row;
            found++;
        }
        if (found == 1) { free(norm); return first; }
        if (found > 1) {
            *nclosep = found < nclose ? found : nclose;
            free(norm);
            return -2;
        }
    }
    /* unknown: the closest names and aliases by edit distance */
    int dist[16];
    if (nclose > 16) nclose = 16;
    for (int64_t i = 0; i < x->ent.n; i++) {
        int d = name_edit_distance(norm, x->norm[i]);
        for (int a = 0; a < x->nalias[i]; a++) {
            int da = name_edit_distance(norm, x->alias_norm[i][a]);
            if (da < d) d = da;
        }
        name_closest_add(close, dist, nclosep, nclose, i, d);
    }
    free(norm);
    return -1;
}

typedef struct {
    int64_t row;
    int kind;
} search_hit;

static int hit_row_cmp(const void *a, const void *b) {
    const search_hit *p = a, *q = b;
    if (p->row != q->row) return p->row < q->row ? -1 : 1;
    return p->kind - q->kind;
}

/* Best first: match kind, more mentions, name, row. */
static int hit_rank_cmp(const lexicon *x, const search_hit *p, const search_hit *q) {
    if (p->kind != q->kind) return p->kind - q->kind;
    if (x->mentions[p->row] != x->mentions[q->row]) return x->mentions[p->row] > x->mentions[q->row] ? -1 : 1;
    int c = strcmp(x->ent.name[p->row], x->ent.name[q->row]);
    return c ? c : (p->row > q->row) - (p->row < q->row);
}

int lexicon_search(const lexicon *x, const char *prefix, int limit, int64_t *rows, int64_t *total) {
    char *norm = name_normalise(prefix);
    size_t len = strlen(norm);
    int n = 0;
    if (len == 0) {
        for (; n < limit && n < x->ent.n; n++) rows[n] = x->by_mentions[n];
        if (total) *total = x->ent.n;
        free(norm);
        return n;
    }
    int64_t first = lower_bound(x, norm), last = first;
    while (last < x->nkeys && !strncmp(x->keys[last].key, norm, len)) last++;
    free(norm);
    int64_t m = last - first;
    search_hit *hit = xmalloc(sizeof *hit * (size_t)(m + 1));
    for (int64_t k = 0; k < m; k++) hit[k] = (search_hit){x->keys[first + k].row, x->keys[first + k].kind};
    qsort(hit, (size_t)m, sizeof *hit, hit_row_cmp);
    int64_t d = 0; /* one hit per row: its best kind */
    for (int64_t k = 0; k < m; k++)
        if (d == 0 || hit[d - 1].row != hit[k].row) hit[d++] = hit[k];
    /* partial selection of the best `limit` (insertion into a sorted top list) */
    search_hit *top = xmalloc(sizeof *top * (size_t)(limit + 1));
    for (int64_t k = 0; k < d; k++) {
        if (n == limit && (limit == 0 || hit_rank_cmp(x, &hit[k], &top[n - 1]) >= 0)) continue;
        int pos = n < limit ? n++ : limit - 1;
        while (pos > 0 && hit_rank_cmp(x, &hit[k], &top[pos - 1]) < 0) {
            top[pos] = top[pos - 1];
            pos--;
        }
        top[pos] = hit[k];
    }
    for (int i = 0; i < n; i++) rows[i] = top[i].row;
    if (total) *total = d;
    free(top);
    free(hit);
    return n;
}

int lexicon_contexts(const lexicon *x, int64_t row, lexicon_context *out, int limit) {
    int n = x->nctx[row] < limit ? x->nctx[row] : limit;
    for (int i = 0; i < n; i++) {
        const context_ref *c = &x->ctx[row][i];
        const kept_sentence *s = &x->sent[c->sentence];
        out[i] = (lexicon_context){s->line, s->ntokens, x->text + s->offset, c->start, c->end};
    }
    return n;
}
