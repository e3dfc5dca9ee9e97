/* scale_corpus: an N-times dataset built from one dataset, for `make bench-scale`.
 *
 * Copy 0 is the input, unchanged (its queries are the output's only queries). Copy
 * i > 0 gets new entity ids (eid + i * (max eid + 1)) and names ("NAME_i"; in its
 * sentences the last word of every mention becomes "WORD_i"), and its own fixed
 * permutation of half of the vocabulary of the words outside mentions: the words are
 * ranked by corpus frequency, half of them drawn with the copy's seed, and the drawn
 * words are shuffled within bands of --band consecutive ranks, so a word is replaced
 * by one of similar frequency. Each copy is a distinct corpus with the statistics of
 * the input; gt/ lists every copy's members, so they all count as ground truth.
 *
 * Cost: O(copies x input) time; the input's sentences.json is held in memory, the
 * output is streamed; the output folder is written under a temporary name and
 * renamed, so an interrupted run leaves nothing under the final name. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/cli.h"
#include "base/error.h"
#include "base/hashmap.h"
#include "base/log.h"
#include "base/rng.h"
#include "dataset/dataset.h"

typedef struct {
    char **line;
    size_t n, cap;
} line_list;

static void list_add(line_list *l, const char *line, size_t len) {
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1024;
        l->line = xrealloc(l->line, sizeof(char *) * l->cap);
    }
    char *s = xmalloc(len + 1);
    memcpy(s, line, len);
    s[len] = 0;
    l->line[l->n++] = s;
}

/* The non-blank lines of the selected members, each member's lines in a list of its own. */
typedef struct {
    char **member;
    line_list *lines;
    size_t n;
} member_lines;

static void keep_line(void *ctx, const char *member, const char *where, int64_t lineno, char *line, size_t len) {
    (void)where, (void)lineno;
    member_lines *m = ctx;
    if (m->n == 0 || strcmp(m->member[m->n - 1], member) != 0) {
        m->member = xrealloc(m->member, sizeof(char *) * (m->n + 1));
        m->lines = xrealloc(m->lines, sizeof(line_list) * (m->n + 1));
        m->member[m->n] = xstrdup(member);
        m->lines[m->n] = (line_list){0};
        m->n++;
    }
    if (strspn(line, " \t") < len) list_add(&m->lines[m->n - 1], line, len);
}

/* The output folder while it is written; removed when the program exits before the rename. */
static char *pending;

static void remove_pending(int code) {
    (void)code;
    if (pending) remove_tree(pending);
}

static void member_lines_free(member_lines *m) {
    for (size_t i = 0; i < m->n; i++) {
        for (size_t l = 0; l < m->lines[i].n; l++) free(m->lines[i].line[l]);
        free(m->lines[i].line);
        free(m->member[i]);
    }
    free(m->lines);
    free(m->member);
}

static member_lines read_members(const char *data, const char *name) {
    member_lines m = {0};
    if (dataset_read_lines(data, name, keep_line, &m) == 0) die_input(data, name, "missing");
    return m;
}

static FILE *open_out(const char *dir, const char *name) {
    char *path = xasprintf("%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) die_errno("%s", path);
    free(path);
    return f;
}

static void close_out(FILE *f, const char *name) {
    if (ferror(f) || fclose(f) != 0) die("%s: write failed", name);
}

/* A sentence parsed for rewriting: the JSON object and, per word, its mention index or -1. */
typedef struct {
    json_t *obj, *tokens, *mentions;
    int64_t *mention_of;
    size_t cap;
} parsed;

static void parse_sentence(parsed *p, const char *file, const char *line, size_t lineno) {
    char where[32];
    snprintf(where, sizeof where, "line %zu", lineno);
    json_error_t err;
    p->obj = json_loads(line, 0, &err);
    p->tokens = p->obj ? json_object_get(p->obj, "tokens") : NULL;
    p->mentions = p->obj ? json_object_get(p->obj, "entityMentions") : NULL;
    if (!json_is_array(p->tokens) || !json_is_array(p->mentions))
        die_input(file, where, "expected an object with tokens and entityMentions");
    size_t nt = json_array_size(p->tokens);
    if (nt > p->cap) {
        p->cap = nt;
        p->mention_of = xrealloc(p->mention_of, sizeof(int64_t) * nt);
    }
    for (size_t i = 0; i < nt; i++) {
        if (!json_is_string(json_array_get(p->tokens, i)))
            die_input(file, where, "tokens[%zu] is not a string", i);
        p->mention_of[i] = -1;
    }
    size_t k;
    json_t *m;
    json_array_foreach(p->mentions, k, m) {
        json_t *a = json_object_get(m, "start"), *b = json_object_get(m, "end");
        if (!json_is_integer(a) || !json_is_integer(b) || !json_is_integer(json_object_get(m, "entityId")) ||
            json_integer_value(a) < 0 || json_integer_value(b) < json_integer_value(a) ||
            (size_t)json_integer_value(b) >= nt)
            die_input(file, where, "entityMentions[%zu]: expected start <= end inside the sentence and an entityId", k);
        for (json_int_t i = json_integer_value(a); i <= json_integer_value(b); i++) p->mention_of[i] = (int64_t)k;
    }
}

/* The words outside mentions, by descending corpus frequency (ties by bytes). */
typedef struct {
    char *word;
    int64_t count;
} word_count;

static int by_count(const void *a, const void *b) {
    const word_count *x = a, *y = b;
    if (x->count != y->count) return x->count > y->count ? -1 : 1;
    return strcmp(x->word, y->word);
}

static word_count *rank_words(const char *file, const line_list *sent, int64_t *nwords) {
    strmap counts;
    strmap_init(&counts);
    parsed p = {0};
    for (size_t l = 0; l < sent->n; l++) {
        parse_sentence(&p, file, sent->line[l], l + 1);
        for (size_t i = 0; i < json_array_size(p.tokens); i++) {
            if (p.mention_of[i] >= 0) continue;
            const char *w = json_string_value(json_array_get(p.tokens, i));
            strmap_add(&counts, w, strlen(w), 1);
        }
        json_decref(p.obj);
    }
    free(p.mention_of);
    word_count *wc = xmalloc(sizeof(word_count) * (counts.n ? counts.n : 1));
    int64_t n = 0;
    for (size_t i = 0; i < counts.cap; i++)
        if (counts.hash[i]) {
            wc[n].word = xmalloc(counts.klen[i] + 1);
            memcpy(wc[n].word, counts.key[i], counts.klen[i]);
            wc[n].word[counts.klen[i]] = 0;
            wc[n++].count = counts.val[i];
        }
    strmap_free(&counts);
    qsort(wc, (size_t)n, sizeof(word_count), by_count);
    *nwords = n;
    return wc;
}

/* Copy `copy`'s word map: target[r] = rank of the word that replaces the word of rank r. */
static void copy_permutation(int64_t n, long band, uint64_t seed, int64_t *target) {
    rng_t rng;
    rng_seed(&rng, seed);
    for (int64_t r = 0; r < n; r++) target[r] = r;
    int64_t k = n / 2, *drawn = xmalloc(sizeof(int64_t) * (size_t)(k ? k : 1));
    rng_sample_without_replacement(&rng, n, k, drawn);
    unsigned char *is_drawn = xcalloc((size_t)(n ? n : 1), 1);
    for (int64_t i = 0; i < k; i++) is_drawn[drawn[i]] = 1;
    int64_t m = 0;
    for (int64_t r = 0; r < n; r++)
        if (is_drawn[r]) drawn[m++] = r; /* the drawn ranks, ascending */
    int64_t *shuffled = xmalloc(sizeof(int64_t) * (size_t)(band));
    for (int64_t b = 0; b < m; b += band) {
        int64_t len = m - b < band ? m - b : band;
        memcpy(shuffled, drawn + b, sizeof(int64_t) * (size_t)len);
        rng_shuffle_i64(&rng, shuffled, len);
        for (int64_t i = 0; i < len; i++) target[drawn[b + i]] = shuffled[i];
    }
    free(shuffled);
    free(is_drawn);
    free(drawn);
}

int main(int argc, char **argv) {
    long copies = 2, band = 8, seed = 1;
    const char *out = NULL;
    const cli_option opts[] = {
        {"copies", OPT_LONG, &copies, "N", "copies of the input in the output (1 = the input itself)", 1, 1000},
        {"band", OPT_LONG, &band, "B", "a drawn word is replaced by one of the B drawn words nearest in frequency rank",
         1, 1000000},
        {"random-seed", OPT_LONG, &seed, "S", "random seed of the copies' permutations (copy i uses S * 1000 + i)", 0, 1e9},
        {"out", OPT_STRING, &out, "DIR", "output dataset folder (required; must not exist)", 0, 0},
        {0}};
    const cli_spec spec = {
        "scale_corpus",
        "an N-times dataset from one dataset: copies with new entity ids and names and their own word permutation",
        "[options] --copies N --out DIR DATASET",
        "scale_corpus --copies 4 --out /tmp/wn4 ../shared/data/wordnet-ese/wordnet-ese-dev.tar.gz",
        "make bench-scale (mk/bench-scale.mk), tokenize", opts, 1};
    int first = cli_parse(&spec, argc, argv);
    if (first != argc - 1 || !out) die_usage("need --out DIR and one DATASET (try --help)");
    const char *data = argv[first];
    struct stat st;
    if (stat(out, &st) == 0) die_usage("%s exists", out);

    entity_table ent;
    dataset_read_entities(data, &ent);
    int64_t stride = 0;
    for (int64_t i = 0; i < ent.n; i++)
        if (ent.eid[i] + 1 > stride) stride = ent.eid[i] + 1;
    member_lines sent = read_members(data, "sentences.json"), gt = read_members(data, "gt/"),
                 query = read_members(data, "query/");
    int64_t nwords;
    char *sent_file = xasprintf("%s:sentences.json", data);
    word_count *wc = rank_words(sent_file, &sent.lines[0], &nwords);
    strmap rank_of;
    strmap_init(&rank_of);
    for (int64_t r = 0; r < nwords; r++) strmap_put(&rank_of, wc[r].word, strlen(wc[r].word), r);
    log_info("%s: %lld entities, %zu sentences, %lld distinct words outside mentions", data, (long long)ent.n,
             sent.lines[0].n, (long long)nwords);

    char *tmp = xasprintf("%s.tmp.XXXXXX", out);
    if (!mkdtemp(tmp)) die_errno("mkdtemp %s", tmp);
    pending = tmp;
    error_set_exit_hook(remove_pending);
    char *gt_dir = xasprintf("%s/gt", tmp), *q_dir = xasprintf("%s/query", tmp);
    if (mkdir(gt_dir, 0777) != 0 || mkdir(q_dir, 0777) != 0) die_errno("mkdir %s", gt_dir);

    /* entity2id.txt and gt/: every copy; query/: copy 0 only */
    strmap names;
    strmap_init(&names);
    FILE *f = open_out(tmp, "entity2id.txt");
    for (long c = 0; c < copies; c++)
        for (int64_t i = 0; i < ent.n; i++) {
            char *name = c ? xasprintf("%s_%ld", ent.name[i], c) : xstrdup(ent.name[i]);
            if (strmap_put(&names, name, strlen(name), 1) >= 0) die("copy %ld: the name %s is taken", c, name);
            fprintf(f, "%s\t%lld\n", name, (long long)(ent.eid[i] + c * stride));
            free(name);
        }
    close_out(f, "entity2id.txt");
    for (size_t m = 0; m < gt.n; m++) {
        f = open_out(tmp, gt.member[m]);
        for (long c = 0; c < copies; c++)
            for (size_t l = 0; l < gt.lines[m].n; l++) {
                long long eid;
                char name[4096];
                int label;
                if (sscanf(gt.lines[m].line[l], "%lld\t%4095[^\t]\t%d", &eid, name, &label) != 3)
                    die_input(data, gt.member[m], "line %zu: expected eid<TAB>name<TAB>label", l + 1);
                if (c) fprintf(f, "%lld\t%s_%ld\t%d\n", eid + c * stride, name, c, label);
                else fprintf(f, "%s\n", gt.lines[m].line[l]);
            }
        close_out(f, gt.member[m]);
    }
    for (size_t m = 0; m < query.n; m++) {
        f = open_out(tmp, query.member[m]);
        for (size_t l = 0; l < query.lines[m].n; l++) fprintf(f, "%s\n", query.lines[m].line[l]);
        close_out(f, query.member[m]);
    }

    /* sentences.json */
    f = open_out(tmp, "sentences.json");
    const line_list *s0 = &sent.lines[0];
    for (size_t l = 0; l < s0->n; l++) fprintf(f, "%s\n", s0->line[l]);
    int64_t *target = xmalloc(sizeof(int64_t) * (size_t)(nwords ? nwords : 1));
    parsed p = {0};
    for (long c = 1; c < copies; c++) {
        copy_permutation(nwords, band, (uint64_t)seed * 1000 + (uint64_t)c, target);
        for (size_t l = 0; l < s0->n; l++) {
            parse_sentence(&p, sent_file, s0->line[l], l + 1);
            size_t nt = json_array_size(p.tokens);
            for (size_t i = 0; i < nt; i++) {
                const char *w = json_string_value(json_array_get(p.tokens, i));
                if (p.mention_of[i] < 0)
                    json_array_set_new(p.tokens, i, json_string(wc[target[strmap_get(&rank_of, w, strlen(w))]].word));
                else if (i + 1 == nt || p.mention_of[i + 1] != p.mention_of[i]) {
                    char *renamed = xasprintf("%s_%ld", w, c);
                    json_array_set_new(p.tokens, i, json_string(renamed));
                    free(renamed);
                }
            }
            size_t k;
            json_t *m;
            json_array_foreach(p.mentions, k, m) {
                json_object_set_new(m, "entityId", json_integer(json_integer_value(json_object_get(m, "entityId")) + c * stride));
                const char *text = json_string_value(json_object_get(m, "text"));
                if (text) {
                    char *renamed = xasprintf("%s_%ld", text, c);
                    json_object_set_new(m, "text", json_string(renamed));
                    free(renamed);
                }
            }
            const char *article = json_string_value(json_object_get(p.obj, "articleId"));
            if (article) {
                char *renamed = xasprintf("copy%ld/%s", c, article);
                json_object_set_new(p.obj, "articleId", json_string(renamed));
                free(renamed);
            }
            json_object_set_new(p.obj, "sentId", json_integer((json_int_t)(c * (long)s0->n + (long)l)));
            char *js = json_dumps(p.obj, JSON_COMPACT | JSON_PRESERVE_ORDER);
            fprintf(f, "%s\n", js);
            free(js);
            json_decref(p.obj);
        }
        log_info("copy %ld written", c);
    }
    close_out(f, "sentences.json");
    f = open_out(tmp, "stats.txt");
    fprintf(f, "# %ld copies of %s by scale_corpus (band %ld, seed %ld)\nsentences\t%zu\nentities\t%lld\n", copies, data,
            band, seed, (size_t)copies * s0->n, (long long)(copies * ent.n));
    close_out(f, "stats.txt");
    if (chmod(tmp, 0755) != 0 || rename(tmp, out) != 0) die_errno("rename %s", tmp);
    pending = NULL;
    log_info("done: %s, %ld copies, %lld entities, %zu sentences", out, copies, (long long)(copies * ent.n),
             (size_t)copies * s0->n);
    free(p.mention_of);
    free(target);
    for (int64_t r = 0; r < nwords; r++) free(wc[r].word);
    free(wc);
    strmap_free(&rank_of);
    strmap_free(&names);
    member_lines_free(&sent);
    member_lines_free(&gt);
    member_lines_free(&query);
    entity_table_free(&ent);
    free(sent_file);
    free(gt_dir);
    free(q_dir);
    free(tmp);
    return 0;
}
