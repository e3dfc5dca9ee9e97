/* annotation: the entities annotate matches in raw text, their mentions, and the files
 * written from them (annotation.h). */
#include "dataset/annotation.h"

#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"
#include "base/log.h"
#include "dataset/dataset.h"
#include "dataset/names_file.h"
#include "text/sentence_split.h"
#include "text/text_source.h"

/* ---------------- entities ---------------- */

void annotation_init(annotation *a, int ignore_case) {
    memset(a, 0, sizeof *a);
    a->exact = matcher_new(0);
    if (ignore_case) a->folded = matcher_new(1);
}

static int64_t entity_new(annotation *a, const char *name, int64_t eid, int64_t line) {
    if (a->n == a->cap) {
        a->cap = a->cap * 2 + 1024;
        a->name = xrealloc(a->name, sizeof *a->name * (size_t)a->cap);
        a->eid = xrealloc(a->eid, sizeof *a->eid * (size_t)a->cap);
        a->line = xrealloc(a->line, sizeof *a->line * (size_t)a->cap);
        a->aliases = xrealloc(a->aliases, sizeof *a->aliases * (size_t)a->cap);
    }
    a->aliases[a->n] = NULL;
    a->name[a->n] = xstrdup(name);
    a->eid[a->n] = eid;
    a->line[a->n] = line;
    return a->n++;
}

/* Registers `name` (a name or alias) for entity idx; `where` names its origin. */
static void add_name(annotation *a, const char *name, int64_t idx, const char *file, const char *where) {
    char **tok;
    int n = word_tokenize(name, &tok);
    if (n == 0) { free(tok); die_input(file, where, "empty entity name"); }
    if (idx > INT32_MAX) die_input(file, where, "too many entities (max %d)", INT32_MAX);
    int32_t prev = matcher_add(a->exact, tok, n, (int32_t)idx);
    if (prev >= 0) {
        char first[48] = "";
        if (a->line[prev]) snprintf(first, sizeof first, " (line %lld)", (long long)a->line[prev]);
        die_input(file, where, "name \"%s\" already belongs to entity \"%s\"%s; a name may name one entity only",
                  name, a->name[prev], first);
    }
    if (a->folded) {
        prev = matcher_add(a->folded, tok, n, (int32_t)idx);
        if (prev >= 0) {
            if (!a->fold_conflicts++) a->fold_example = xasprintf("\"%s\" ~ \"%s\"", name, a->name[prev]);
        }
    }
    free(tok);
}

/* Names file (schemas/names.md): name<TAB>alias... per line, '#' comments. */
static void names_entry(void *ctx, const char *file, int64_t lineno, char **fields, int n) {
    annotation *a = ctx;
    char where[32];
    snprintf(where, sizeof where, "line %lld", (long long)lineno);
    int64_t idx = entity_new(a, fields[0], -1, lineno);
    add_name(a, fields[0], idx, file, where);
    size_t len = 0;
    for (int i = 1; i < n; i++) {
        add_name(a, fields[i], idx, file, where);
        len += strlen(fields[i]) + 1;
    }
    if (n < 2) return;
    char *s = a->aliases[idx] = xmalloc(len + 1);
    for (int i = 1; i < n; i++) *s++ = '\t', s = stpcpy(s, fields[i]);
}

static int is_dir(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* An entity2id.txt (by name), or a dataset folder or archive holding one. */
static int entity2id_input(const char *path) {
    char *copy = xstrdup(path);
    int r = strcmp(basename(copy), "entity2id.txt") == 0;
    free(copy);
    return r || is_dir(path) || text_source_is_archive(path);
}

static void entities_ready(annotation *a) {
    if (a->fold_conflicts)
        log_warn("%lld names differ from another entity's name only in case (e.g. %s); with --ignore-case the "
                 "one listed first wins", (long long)a->fold_conflicts, a->fold_example);
    a->count = xcalloc((size_t)a->n, sizeof *a->count);
    a->out_id = xmalloc(sizeof *a->out_id * (size_t)a->n);
}

void annotation_load_list(annotation *a, const char *path) {
    if (entity2id_input(path)) {
        char *copy = xstrdup(path), *root = xstrdup(path);
        if (strcmp(basename(copy), "entity2id.txt") == 0) { free(root); root = xstrdup(dirname(copy)); }
        entity_table t;
        dataset_read_entities(root, &t);
        for (int64_t i = 0; i < t.n; i++) {
            int64_t idx = entity_new(a, t.name[i], t.eid[i], 0);
            char where[48];
            snprintf(where, sizeof where, "entity2id.txt line %lld", (long long)i + 1);
            add_name(a, t.name[i], idx, root, where);
        }
        entity_table_free(&t);
        free(copy);
        free(root);
    } else {
        names_file_read(path, names_entry, a);
    }
    if (a->n == 0) die_input(path, NULL, "empty entity list (expected name[<TAB>alias...] per line, or entity2id.txt)");
    entities_ready(a);
}

/* Is `name` (tokenised) already a name or alias of an entity? */
static int known_name(const annotation *a, const char *name) {
    char **tok;
    int n = word_tokenize(name, &tok);
    int known = !n || matcher_get(a->exact, tok, n) >= 0;
    free(tok);
    return known;
}

void annotation_load_discovered(annotation *a, const discovered_name *names, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        if (known_name(a, names[i].name)) continue; /* two spellings that tokenise alike */
        int64_t idx = entity_new(a, names[i].name, -1, 0);
        add_name(a, names[i].name, idx, "discovered names", names[i].name);
        size_t len = 0;
        char **kept = xmalloc(sizeof *kept * (size_t)(names[i].naliases + 1));
        int nk = 0;
        a->merged = xrealloc(a->merged, sizeof *a->merged * (size_t)a->n);
        a->merged[idx] = NULL;
        for (int k = 0; k < names[i].naliases; k++) {
            if (known_name(a, names[i].aliases[k])) continue;
            add_name(a, names[i].aliases[k], idx, "discovered names", names[i].name);
            kept[nk++] = names[i].aliases[k];
            len += strlen(names[i].aliases[k]) + 1;
            a->merged[idx] = names_merged_add(a->merged[idx], names[i].aliases[k], merge_rule_name(names[i].alias_rules[k]));
        }
        if (nk) {
            char *s = a->aliases[idx] = xmalloc(len + 1);
            for (int k = 0; k < nk; k++) *s++ = '\t', s = stpcpy(s, kept[k]);
        }
        free(kept);
    }
    entities_ready(a);
    a->context = xcalloc((size_t)a->n, sizeof *a->context);
}

void annotation_free(annotation *a) {
    for (int64_t i = 0; i < a->n; i++) {
        free(a->name[i]);
        free(a->aliases[i]);
        if (a->context) free(a->context[i][0]), free(a->context[i][1]);
        if (a->merged) free(a->merged[i]);
    }
    free(a->name);
    free(a->eid);
    free(a->count);
    free(a->out_id);
    free(a->line);
    free(a->aliases);
    free(a->context);
    free(a->merged);
    free(a->fold_example);
    matcher_free(a->exact);
    matcher_free(a->folded);
}

int32_t annotation_lookup(const annotation *a, char *const *tokens, int n) {
    return matcher_get(a->folded ? a->folded : a->exact, tokens, n);
}

/* ---------------- matching ---------------- */

/* Discovered names: the first two mentions of entity v, with up to 8 tokens around. */
static void keep_context(annotation *a, int32_t v, char *const *tok, int n, int at, int len) {
    int slot = a->context[v][0] ? 1 : 0;
    if (a->context[v][1]) return;
    int from = at > 8 ? at - 8 : 0, to = at + len + 8 < n ? at + len + 8 : n;
    size_t tl = 1;
    for (int k = from; k < to; k++) tl += strlen(tok[k]) + 1;
    char *c = a->context[v][slot] = xmalloc(tl), *q = c;
    for (int k = from; k < to; k++) {
        if (k > from) *q++ = ' ';
        q = stpcpy(q, tok[k]);
    }
}

json_t *annotation_match(annotation *a, char *const *tok, int n) {
    json_t *ms = NULL;
    for (int i = 0; i < n;) {
        int32_t v;
        int len = matcher_longest(a->folded ? a->folded : a->exact, tok, n, i, &v);
        if (!len) { i++; continue; }
        if (!ms) ms = json_array();
        size_t tl = 0;
        for (int k = i; k < i + len; k++) tl += strlen(tok[k]) + 1;
        char *text = xmalloc(tl), *q = text;
        for (int k = i; k < i + len; k++) q = stpcpy(q, tok[k]), *q++ = ' ';
        q[-1] = 0;
        json_t *m = json_object();
        json_object_set_new(m, "start", json_integer(i));
        json_object_set_new(m, "end", json_integer(i + len - 1));
        json_object_set_new(m, "entityId", json_integer(v));
        json_object_set_new(m, "text", json_string(text));
        json_array_append_new(ms, m);
        free(text);
        a->count[v]++;
        if (a->context) keep_context(a, v, tok, n, i, len);
        i += len;
    }
    return ms;
}

/* ---------------- ids and the files ---------------- */

int64_t annotation_assign_ids(annotation *a, int min_mentions, int64_t *dropped) {
    int64_t kept = 0;
    for (int64_t i = 0; i < a->n; i++) {
        a->out_id[i] = -1;
        if (a->count[i] < min_mentions) continue;
        a->out_id[i] = a->eid[i] >= 0 ? a->eid[i] : kept;
        kept++;
    }
    *dropped = a->n - kept;
    return kept;
}

void annotation_write_sentences(const annotation *a, dataset_writer *w, const char *spool_path, int64_t *sentences,
                                int64_t *mentions) {
    FILE *in = fopen(spool_path, "r");
    if (!in) dataset_writer_fail(w, "cannot reopen %s: %s", spool_path, strerror(errno));
    FILE *out = dataset_writer_open(w, "sentences.json");
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int64_t kept = 0, nm = 0;
    while ((len = getline(&line, &cap, in)) > 0) {
        json_error_t err;
        json_t *o = json_loadb(line, (size_t)len, 0, &err);
        if (!o) dataset_writer_fail(w, "%s: corrupt spool line: %s", spool_path, err.text);
        json_t *ms = json_object_get(o, "entityMentions"), *keep = json_array();
        size_t i;
        json_t *m;
        json_array_foreach(ms, i, m) {
            int64_t idx = json_integer_value(json_object_get(m, "entityId"));
            if (a->out_id[idx] < 0) continue;
            json_object_set_new(m, "entityId", json_integer(a->out_id[idx]));
            json_array_append(keep, m);
        }
        if (json_array_size(keep)) {
            json_object_set_new(o, "sentId", json_integer(kept++));
            json_object_set(o, "entityMentions", keep);
            nm += (int64_t)json_array_size(keep);
            if (json_dumpf(o, out, JSON_PRESERVE_ORDER) != 0 || fputc('\n', out) == EOF)
                dataset_writer_fail(w, "cannot write sentences.json: %s", strerror(errno));
        }
        json_decref(keep);
        json_decref(o);
    }
    if (ferror(in)) dataset_writer_fail(w, "cannot read %s: %s", spool_path, strerror(errno));
    free(line);
    fclose(in);
    dataset_writer_close(w, out, "sentences.json");
    *sentences = kept;
    *mentions = nm;
}

int annotation_cmp_by_id(const void *x, const void *y, void *ctx) {
    const annotation *a = ctx;
    int64_t i = a->out_id[*(const int64_t *)x], j = a->out_id[*(const int64_t *)y];
    return (i > j) - (i < j);
}

int annotation_cmp_by_count(const void *x, const void *y, void *ctx) {
    const annotation *a = ctx;
    int64_t i = *(const int64_t *)x, j = *(const int64_t *)y;
    if (a->count[i] != a->count[j]) return a->count[i] < a->count[j] ? 1 : -1;
    return (a->out_id[i] > a->out_id[j]) - (a->out_id[i] < a->out_id[j]);
}

/* Discovered names: names.tsv (schemas/names.md), most-mentioned first, the mention
 * count and two contexts in the comment fields. */
static void write_names(const annotation *a, dataset_writer *w, const int64_t *kept, int64_t k) {
    int64_t *count_order = xmalloc(sizeof *count_order * (size_t)(k + 1));
    memcpy(count_order, kept, sizeof *kept * (size_t)k);
    qsort_r(count_order, (size_t)k, sizeof *count_order, annotation_cmp_by_count, (void *)a);
    FILE *f = dataset_writer_open(w, "names.tsv");
    fprintf(f, "# names discovered by annotate --discover: name<TAB>aliases..., then after '#' the mentions found, the rule that merged\n"
               "# each alias (spelling, head, surname, organisation, acronym, initials, given: schemas/names.md) and two contexts;\n"
               "# delete or edit lines and give the file to annotate --entities\n");
    for (int64_t j = 0; j < k; j++) {
        int64_t e = count_order[j];
        fprintf(f, "%s%s\t", a->name[e], a->aliases[e] ? a->aliases[e] : "");
        names_comment_write(f, a->count[e], a->merged[e]);
        for (int c = 0; c < 2; c++)
            if (a->context[e][c]) fprintf(f, "\t%s", a->context[e][c]);
        fputc('\n', f);
    }
    dataset_writer_close(w, f, "names.tsv");
    free(count_order);
}

void annotation_write_entities(const annotation *a, dataset_writer *w, int64_t kept) {
    int64_t *order = xmalloc(sizeof *order * (size_t)(kept ? kept : 1)), k = 0;
    for (int64_t i = 0; i < a->n; i++)
        if (a->out_id[i] >= 0) order[k++] = i;
    qsort_r(order, (size_t)k, sizeof *order, annotation_cmp_by_id, (void *)a);
    FILE *f = dataset_writer_open(w, "entity2id.txt");
    for (int64_t j = 0; j < k; j++) fprintf(f, "%s\t%lld\n", a->name[order[j]], (long long)a->out_id[order[j]]);
    dataset_writer_close(w, f, "entity2id.txt");
    if (a->context) write_names(a, w, order, k);
    int64_t with_aliases = 0;
    for (int64_t j = 0; j < k; j++) with_aliases += a->aliases[order[j]] != NULL;
    if (with_aliases) {
        f = dataset_writer_open(w, "aliases.txt");
        for (int64_t j = 0; j < k; j++)
            if (a->aliases[order[j]]) fprintf(f, "%s%s\n", a->name[order[j]], a->aliases[order[j]]);
        dataset_writer_close(w, f, "aliases.txt");
    }
    free(order);
}
