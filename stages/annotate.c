/* annotate: plain text + an entity list -> a dataset folder (docs/design.md §2).
 *
 * Reads documents (files, folders, archives or stdin) in their format (--format:
 * plain, lines, dictd, markdown, html, detected per document by default;
 * text_reader.h), markup stripped and linked names counted, splits them into sentences and word tokens
 * (sentence_split.h), finds entity mentions by longest match over token
 * sequences (mention_matcher.h; aliases map to their entity), and writes
 * entity2id.txt and sentences.json (and aliases.txt when the list has aliases),
 * optionally gt/ and query/ from member lists.
 * Pass 1 streams the text and spools the sentences that have a mention to a
 * temporary file while counting mentions; pass 2 drops the entities with fewer
 * than --min-mentions mentions (and their mentions, and sentences left without
 * one) and writes the final files. Everything is built in a temporary folder
 * beside --out and renamed into place (or packed as .tar.gz) at the end, so a
 * failure leaves no partial output. A folder written by annotate holds the marker
 * file DATASET_MARKER; an existing --out folder is replaced only when it has the
 * marker or is empty (or with --force), and never when it holds an input. */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdarg.h>
#include <jansson.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "base/cli.h"
#include "dataset/dataset.h"
#include "base/error.h"
#include "base/hashmap.h"
#include "base/log.h"
#include "base/paths.h"
#include "base/tempname.h"
#include "text/mention_matcher.h"
#include "base/rng.h"
#include "dataset/names_file.h"
#include "text/sentence_split.h"
#include "text/linked_names.h"
#include "text/text_reader.h"
#include "text/text_source.h"
#include "discover/discover.h"
#include "discover/sentence_spool.h"

/* ---------------- options ---------------- */

static const char *opt_entities, *opt_out, *opt_classes, *opt_format = "auto";
static int opt_lines, opt_ids, opt_ignore_case, opt_min_mentions = 1, opt_max_words = 150;
static int opt_queries = 5, opt_seed_pool = 0, opt_discover, opt_force;
static long opt_max_line = 100000000;
static discover_params opt_dp;

#define DATASET_MARKER ".probexpan-dataset"
static long opt_seed = 1;

/* ---------------- entities ---------------- */

typedef struct {
    char **name;       /* canonical name of entity i */
    int64_t *eid;      /* given eid (entity2id input) or -1 */
    int64_t *count;    /* mentions found in pass 1 */
    int64_t *out_id;   /* id written, -1 when dropped */
    int64_t n, cap;
    mention_matcher *exact;  /* case-sensitive: duplicate detection (and matching by default) */
    mention_matcher *folded; /* --ignore-case matching */
    int64_t fold_conflicts;
    char *fold_example;
    int64_t *line;     /* line of entity i in the list (0 for entity2id input) */
    char **aliases;    /* "\talias\talias" of entity i, or NULL */
    char *(*context)[2]; /* --discover: two example contexts of entity i (NULL until seen) */
    char **merged;     /* --discover: "alias (rule), ..." of entity i's aliases and the rules that merged them, or NULL */
} entities;

static entities E;

static int64_t entity_new(const char *name, int64_t eid, int64_t line) {
    if (E.n == E.cap) {
        E.cap = E.cap * 2 + 1024;
        E.name = xrealloc(E.name, sizeof *E.name * (size_t)E.cap);
        E.eid = xrealloc(E.eid, sizeof *E.eid * (size_t)E.cap);
        E.line = xrealloc(E.line, sizeof *E.line * (size_t)E.cap);
        E.aliases = xrealloc(E.aliases, sizeof *E.aliases * (size_t)E.cap);
    }
    E.aliases[E.n] = NULL;
    E.name[E.n] = xstrdup(name);
    E.eid[E.n] = eid;
    E.line[E.n] = line;
    return E.n++;
}

/* Registers `name` (a name or alias) for entity idx; `where` names its origin. */
static void add_name(const char *name, int64_t idx, const char *file, const char *where) {
    char **tok;
    int n = word_tokenize(name, &tok);
    if (n == 0) { free(tok); die_input(file, where, "empty entity name"); }
    if (idx > INT32_MAX) die_input(file, where, "too many entities (max %d)", INT32_MAX);
    int32_t prev = matcher_add(E.exact, tok, n, (int32_t)idx);
    if (prev >= 0) {
        char first[48] = "";
        if (E.line[prev]) snprintf(first, sizeof first, " (line %lld)", (long long)E.line[prev]);
        die_input(file, where, "name \"%s\" already belongs to entity \"%s\"%s; a name may name one entity only",
                  name, E.name[prev], first);
    }
    if (E.folded) {
        prev = matcher_add(E.folded, tok, n, (int32_t)idx);
        if (prev >= 0) {
            if (!E.fold_conflicts++) E.fold_example = xasprintf("\"%s\" ~ \"%s\"", name, E.name[prev]);
        }
    }
    free(tok);
}

/* Names file (schemas/names.md): name<TAB>alias... per line, '#' comments. */
static void names_entry(void *ctx, const char *file, int64_t lineno, char **fields, int n) {
    (void)ctx;
    char where[32];
    snprintf(where, sizeof where, "line %lld", (long long)lineno);
    int64_t idx = entity_new(fields[0], -1, lineno);
    add_name(fields[0], idx, file, where);
    size_t len = 0;
    for (int i = 1; i < n; i++) {
        add_name(fields[i], idx, file, where);
        len += strlen(fields[i]) + 1;
    }
    if (n < 2) return;
    char *a = E.aliases[idx] = xmalloc(len + 1);
    for (int i = 1; i < n; i++) *a++ = '\t', a = stpcpy(a, fields[i]);
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

static void entities_ready(void);

static void load_entities(const char *path) {
    E.exact = matcher_new(0);
    if (opt_ignore_case) E.folded = matcher_new(1);
    if (entity2id_input(path)) {
        char *copy = xstrdup(path), *root = xstrdup(path);
        if (strcmp(basename(copy), "entity2id.txt") == 0) { free(root); root = xstrdup(dirname(copy)); }
        entity_table t;
        dataset_read_entities(root, &t);
        for (int64_t i = 0; i < t.n; i++) {
            int64_t idx = entity_new(t.name[i], t.eid[i], 0);
            char where[48];
            snprintf(where, sizeof where, "entity2id.txt line %lld", (long long)i + 1);
            add_name(t.name[i], idx, root, where);
        }
        entity_table_free(&t);
        free(copy);
        free(root);
    } else {
        names_file_read(path, names_entry, NULL);
    }
    if (E.n == 0) die_input(path, NULL, "empty entity list (expected name[<TAB>alias...] per line, or entity2id.txt)");
    entities_ready();
}

/* Is `name` (tokenised) already a name or alias of an entity? */
static int known_name(const char *name) {
    char **tok;
    int n = word_tokenize(name, &tok);
    int known = !n || matcher_get(E.exact, tok, n) >= 0;
    free(tok);
    return known;
}

/* Entities discovered in the text (discover.h): names and aliases, and the
 * rule that made each alias (names.tsv says it); an alias that is already a
 * name is skipped. */
static void load_discovered(const discovered_name *names, int64_t n) {
    E.exact = matcher_new(0);
    if (opt_ignore_case) E.folded = matcher_new(1);
    for (int64_t i = 0; i < n; i++) {
        if (known_name(names[i].name)) continue; /* two spellings that tokenise alike */
        int64_t idx = entity_new(names[i].name, -1, 0);
        add_name(names[i].name, idx, "discovered names", names[i].name);
        size_t len = 0;
        char **kept = xmalloc(sizeof *kept * (size_t)(names[i].naliases + 1));
        int nk = 0;
        E.merged = xrealloc(E.merged, sizeof *E.merged * (size_t)E.n);
        E.merged[idx] = NULL;
        for (int k = 0; k < names[i].naliases; k++) {
            if (known_name(names[i].aliases[k])) continue;
            add_name(names[i].aliases[k], idx, "discovered names", names[i].name);
            kept[nk++] = names[i].aliases[k];
            len += strlen(names[i].aliases[k]) + 1;
            char *m = xasprintf("%s%s%s (%s)", E.merged[idx] ? E.merged[idx] : "", E.merged[idx] ? ", " : "",
                                names[i].aliases[k], merge_rule_name(names[i].alias_rules[k]));
            free(E.merged[idx]);
            E.merged[idx] = m;
        }
        if (nk) {
            char *a = E.aliases[idx] = xmalloc(len + 1);
            for (int k = 0; k < nk; k++) *a++ = '\t', a = stpcpy(a, kept[k]);
        }
        free(kept);
    }
    entities_ready();
    E.context = xcalloc((size_t)E.n, sizeof *E.context);
}

static void entities_ready(void) {
    if (E.fold_conflicts)
        log_warn("%lld names differ from another entity's name only in case (e.g. %s); with --ignore-case the "
                 "one listed first wins", (long long)E.fold_conflicts, E.fold_example);
    E.count = xcalloc((size_t)E.n, sizeof *E.count);
    E.out_id = xmalloc(sizeof *E.out_id * (size_t)E.n);
}

/* ---------------- output folder, temp files, cleanup ---------------- */

/* Bad input can only show up while the inputs are read (entities, class lists,
 * pass 1); until then the only file written is the spool, a base/tempname file
 * (die*() removes it; a later run removes it if this one was killed). The output folder is built after
 * that; its I/O errors go through die_out(), which removes it first (exit 1). */
static char *tmp_dir, *tmp_archive;

static void __attribute__((noreturn, format(printf, 1, 2))) die_out(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *msg = NULL;
    if (vasprintf(&msg, fmt, ap) < 0) msg = NULL;
    va_end(ap);
    if (tmp_dir) remove_tree(tmp_dir);
    if (tmp_archive) unlink(tmp_archive);
    die("%s", msg ? msg : "cannot write the output");
}

static int is_archive_out(const char *p) {
    size_t n = strlen(p);
    return (n > 7 && strcmp(p + n - 7, ".tar.gz") == 0) || (n > 4 && strcmp(p + n - 4, ".tgz") == 0);
}

static char *parent_dir(const char *p) {
    char *c = xstrdup(p), *d = xstrdup(dirname(c));
    free(c);
    return d;
}

static FILE *open_out(const char *rel) {
    char *p = xasprintf("%s/%s", tmp_dir, rel);
    FILE *f = fopen(p, "w");
    if (!f) die_out("cannot create %s: %s", p, strerror(errno));
    free(p);
    return f;
}

static void close_out(FILE *f, const char *rel) {
    if (ferror(f) | fclose(f)) die_out("cannot write %s/%s: %s", tmp_dir, rel, strerror(errno));
}

/* ---------------- pass 1: text -> candidate sentences ---------------- */

typedef struct {
    splitter *sp;
    FILE *spool;
    char *article;         /* current articleId */
    int64_t docs, sentences, with_mention, mentions;
    linked_names *links;   /* names the text's link markup pointed at */
    progress prog;
    discover *disc;        /* --discover: the counts, and the sentences kept for pass 1 */
    sentence_spool *sent;
} pass1;

/* --discover: the first two mentions of entity v, with up to 8 tokens around. */
static void keep_context(int32_t v, char **tok, int n, int at, int len) {
    int slot = E.context[v][0] ? 1 : 0;
    if (E.context[v][1]) return;
    int a = at > 8 ? at - 8 : 0, b = at + len + 8 < n ? at + len + 8 : n;
    size_t tl = 1;
    for (int k = a; k < b; k++) tl += strlen(tok[k]) + 1;
    char *c = E.context[v][slot] = xmalloc(tl), *q = c;
    for (int k = a; k < b; k++) {
        if (k > a) *q++ = ' ';
        q = stpcpy(q, tok[k]);
    }
}

static void on_sentence(void *ctx, char **tok, int n) {
    pass1 *p = ctx;
    p->sentences++;
    json_t *ms = NULL;
    for (int i = 0; i < n;) {
        int32_t v;
        int len = matcher_longest(E.folded ? E.folded : E.exact, tok, n, i, &v);
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
        E.count[v]++;
        p->mentions++;
        if (E.context) keep_context(v, tok, n, i, len);
        i += len;
    }
    if (!ms) return;
    p->with_mention++;
    json_t *o = json_object(), *toks = json_array();
    for (int i = 0; i < n; i++) json_array_append_new(toks, json_string(tok[i]));
    json_object_set_new(o, "articleId", json_string(p->article));
    json_object_set_new(o, "sentId", json_integer(p->with_mention - 1));
    json_object_set_new(o, "tokens", toks);
    json_object_set_new(o, "entityMentions", ms);
    if (json_dumpf(o, p->spool, JSON_PRESERVE_ORDER | JSON_COMPACT) != 0 || fputc('\n', p->spool) == EOF)
        die_errno("cannot write the sentence spool");
    json_decref(o);
}

/* --discover, while reading: count and keep the sentence for the matching pass. */
static void on_sentence_discover(void *ctx, char **tok, int n) {
    pass1 *p = ctx;
    discover_add_sentence(p->disc, tok, n);
    sentence_spool_put(p->sent, p->article, tok, n);
}

/* --discover, the second pass: where the text writes a candidate in lower case. */
static void count_lower_case(void *ctx, const char *article, char **tok, int n) {
    (void)article;
    pass1 *p = ctx;
    discover_add_lower_case(p->disc, tok, n);
}

/* --discover: the names the text's links pointed at, tokenised as the text is. */
static void give_links(discover *d, const linked_names *links) {
    linked_name *ln;
    int64_t k = linked_names_sorted(links, &ln);
    for (int64_t i = 0; i < k; i++) {
        char **t;
        int n = word_tokenize(ln[i].name, &t);
        if (n > 0) {
            size_t len = 0;
            for (int j = 0; j < n; j++) len += strlen(t[j]) + 1;
            char *joined = xmalloc(len), *q = joined;
            for (int j = 0; j < n; j++) q = stpcpy(q, t[j]), *q++ = ' ';
            q[-1] = 0;
            discover_add_link(d, joined, ln[i].count);
            free(joined);
        }
        free(t);
    }
    free(ln);
}

/* --discover, once the names are known: the kept sentences through on_sentence. */
static void replay_sentence(void *ctx, const char *article, char **tok, int n) {
    pass1 *p = ctx;
    if (strcmp(p->article, article)) {
        free(p->article);
        p->article = xstrdup(article);
    }
    on_sentence(p, tok, n);
}

/* The clean documents of text_reader.h. */
static void on_document(void *ctx, const char *article) {
    pass1 *p = ctx;
    free(p->article);
    p->article = xstrdup(article);
    p->docs++;
    if ((p->docs & 1023) == 0 || p->docs < 1024) progress_update(&p->prog, p->docs);
}

static void on_text(void *ctx, const char *s, size_t len) {
    pass1 *p = ctx;
    splitter_feed(p->sp, s, len);
}

static void on_document_end(void *ctx) {
    pass1 *p = ctx;
    splitter_end_document(p->sp);
}

static void on_link(void *ctx, const char *name, size_t len) {
    pass1 *p = ctx;
    linked_names_add(p->links, name, len);
}

/* ---------------- pass 2: filter and write sentences.json ---------------- */

static int64_t assign_ids(int64_t *dropped) {
    int64_t kept = 0;
    for (int64_t i = 0; i < E.n; i++) {
        E.out_id[i] = -1;
        if (E.count[i] < opt_min_mentions) continue;
        E.out_id[i] = E.eid[i] >= 0 ? E.eid[i] : kept;
        kept++;
    }
    *dropped = E.n - kept;
    return kept;
}

static void write_sentences(const char *spool_path, int64_t *sentences, int64_t *mentions) {
    FILE *in = fopen(spool_path, "r");
    if (!in) die_out("cannot reopen %s: %s", spool_path, strerror(errno));
    FILE *out = open_out("sentences.json");
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int64_t kept = 0, nm = 0;
    while ((len = getline(&line, &cap, in)) > 0) {
        json_error_t err;
        json_t *o = json_loadb(line, (size_t)len, 0, &err);
        if (!o) die_out("%s: corrupt spool line: %s", spool_path, err.text);
        json_t *ms = json_object_get(o, "entityMentions"), *keep = json_array();
        size_t i;
        json_t *m;
        json_array_foreach(ms, i, m) {
            int64_t idx = json_integer_value(json_object_get(m, "entityId"));
            if (E.out_id[idx] < 0) continue;
            json_object_set_new(m, "entityId", json_integer(E.out_id[idx]));
            json_array_append(keep, m);
        }
        if (json_array_size(keep)) {
            json_object_set_new(o, "sentId", json_integer(kept++));
            json_object_set(o, "entityMentions", keep);
            nm += (int64_t)json_array_size(keep);
            if (json_dumpf(o, out, JSON_PRESERVE_ORDER) != 0 || fputc('\n', out) == EOF)
                die_out("cannot write sentences.json: %s", strerror(errno));
        }
        json_decref(keep);
        json_decref(o);
    }
    if (ferror(in)) die_out("cannot read %s: %s", spool_path, strerror(errno));
    free(line);
    fclose(in);
    close_out(out, "sentences.json");
    *sentences = kept;
    *mentions = nm;
}

static int cmp_by_out_id(const void *a, const void *b) {
    int64_t x = E.out_id[*(const int64_t *)a], y = E.out_id[*(const int64_t *)b];
    return (x > y) - (x < y);
}

static int cmp_by_count(const void *a, const void *b);

/* --discover: names.tsv (schemas/names.md), most-mentioned first, the mention
 * count and two contexts in the comment fields. */
static void write_names(const int64_t *kept, int64_t k) {
    int64_t *count_order = xmalloc(sizeof *count_order * (size_t)(k + 1));
    memcpy(count_order, kept, sizeof *kept * (size_t)k);
    qsort(count_order, (size_t)k, sizeof *count_order, cmp_by_count);
    FILE *f = open_out("names.tsv");
    fprintf(f, "# names discovered by annotate --discover: name<TAB>aliases..., then after '#' the mentions found, the rule that merged\n"
               "# each alias (spelling, head, surname, organisation, acronym, initials: schemas/names.md) and two contexts;\n"
               "# delete or edit lines and give the file to annotate --entities\n");
    for (int64_t j = 0; j < k; j++) {
        int64_t e = count_order[j];
        fprintf(f, "%s%s\t# %lld mentions", E.name[e], E.aliases[e] ? E.aliases[e] : "", (long long)E.count[e]);
        if (E.merged[e]) fprintf(f, "; merged: %s", E.merged[e]);
        for (int c = 0; c < 2; c++)
            if (E.context[e][c]) fprintf(f, "\t%s", E.context[e][c]);
        fputc('\n', f);
    }
    close_out(f, "names.tsv");
    free(count_order);
}

static void write_entity2id(int64_t kept) {
    int64_t *order = xmalloc(sizeof *order * (size_t)(kept ? kept : 1)), k = 0;
    for (int64_t i = 0; i < E.n; i++)
        if (E.out_id[i] >= 0) order[k++] = i;
    qsort(order, (size_t)k, sizeof *order, cmp_by_out_id);
    FILE *f = open_out("entity2id.txt");
    for (int64_t j = 0; j < k; j++) fprintf(f, "%s\t%lld\n", E.name[order[j]], (long long)E.out_id[order[j]]);
    close_out(f, "entity2id.txt");
    if (E.context) write_names(order, k);
    int64_t with_aliases = 0;
    for (int64_t j = 0; j < k; j++) with_aliases += E.aliases[order[j]] != NULL;
    if (with_aliases) {
        f = open_out("aliases.txt");
        for (int64_t j = 0; j < k; j++)
            if (E.aliases[order[j]]) fprintf(f, "%s%s\n", E.name[order[j]], E.aliases[order[j]]);
        close_out(f, "aliases.txt");
    }
    free(order);
}

/* ---------------- classes: gt/ and query/ ---------------- */

/* A member list, resolved to entity indices when it is read (before pass 1). */
typedef struct {
    char *name;
    int64_t *members;  /* entity indices, distinct, in file order */
    int64_t n, cap, unknown;
} class_list;

static class_list *classes;
static int nclasses;
static unsigned char *seen; /* per entity: already a member of the class being read */

static void class_line(void *ctx, const char *doc, int64_t lineno, const char *text, size_t len, int eol) {
    (void)doc;
    (void)lineno;
    (void)eol; /* member names are short: a 64 KiB piece is a whole line */
    class_list *c = ctx;
    const char *tab = memchr(text, '\t', len);
    char *name = xasprintf("%.*s", (int)(tab ? (size_t)(tab - text) : len), text);
    char **tok;
    int n = word_tokenize(name, &tok);
    if (n) {
        int32_t v = matcher_get(E.folded ? E.folded : E.exact, tok, n);
        if (v < 0) c->unknown++;
        else if (!seen[v]) {
            seen[v] = 1;
            if (c->n == c->cap) {
                c->cap = c->cap * 2 + 64;
                c->members = xrealloc(c->members, sizeof *c->members * (size_t)c->cap);
            }
            c->members[c->n++] = v;
        }
    }
    free(tok);
    free(name);
}

static void load_classes(const char *dir) {
    char **names;
    int64_t n = text_source_list_folder(dir, ".txt", &names);
    if (n < 0) die_input(dir, NULL, "cannot open the classes folder: %s", strerror(errno));
    if (!n) die_input(dir, NULL, "no <class>.txt member lists in the classes folder");
    classes = xcalloc((size_t)n, sizeof *classes);
    seen = xcalloc((size_t)E.n, 1);
    for (int64_t i = 0; i < n; i++) {
        class_list *c = &classes[nclasses++];
        char *path = xasprintf("%s/%s", dir, names[i]);
        names[i][strlen(names[i]) - 4] = 0;
        c->name = names[i];
        text_sink sink = {c, NULL, class_line, NULL};
        text_source_read(path, &sink);
        for (int64_t k = 0; k < c->n; k++) seen[c->members[k]] = 0;
        free(path);
    }
    free(names);
    free(seen);
}

static int cmp_by_count(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    if (E.count[x] != E.count[y]) return E.count[x] < E.count[y] ? 1 : -1;
    return (E.out_id[x] > E.out_id[y]) - (E.out_id[x] < E.out_id[y]);
}

/* Draws --queries seed sets of 3 from the most-mentioned members (sorted by count). */
static void write_queries(const class_list *c, const int64_t *members, int64_t n) {
    int64_t pool = opt_seed_pool > 0 ? opt_seed_pool : (n + 2) / 3;
    if (opt_seed_pool <= 0 && pool < 15) pool = 15;
    if (pool > n) pool = n;
    rng_t r;
    rng_seed(&r, (uint64_t)opt_seed ^ hash_bytes(c->name, strlen(c->name)));
    int64_t *perm = xmalloc(sizeof *perm * (size_t)pool), used = pool;
    char *rel = xasprintf("query/%s.txt", c->name);
    FILE *f = open_out(rel);
    for (int q = 0; q < opt_queries; q++) {
        if (used + 3 > pool) { /* a fresh permutation: no seed repeats before the pool is used up */
            for (int64_t i = 0; i < pool; i++) perm[i] = i;
            rng_shuffle_i64(&r, perm, pool);
            used = 0;
        }
        for (int k = 0; k < 3; k++) fprintf(f, "%s%lld", k ? " " : "", (long long)E.out_id[members[perm[used++]]]);
        fputc('\n', f);
    }
    close_out(f, rel);
    free(rel);
    free(perm);
}

/* Writes gt/<class>.txt (and query/) for the members kept; returns 1, or 0 when
 * fewer than 3 are left (class skipped with a warning). */
static int write_class(const class_list *c) {
    int64_t *m = xmalloc(sizeof *m * (size_t)(c->n + 1)), n = 0;
    for (int64_t i = 0; i < c->n; i++)
        if (E.out_id[c->members[i]] >= 0) m[n++] = c->members[i];
    int64_t rare = c->n - n;
    if (n < 3) {
        log_warn("class %s: %lld member(s) in the data (%lld unknown names, %lld below --min-mentions); "
                 "at least 3 are needed, class skipped", c->name, (long long)n, (long long)c->unknown, (long long)rare);
        free(m);
        return 0;
    }
    qsort(m, (size_t)n, sizeof *m, cmp_by_out_id);
    char *rel = xasprintf("gt/%s.txt", c->name);
    FILE *f = open_out(rel);
    for (int64_t i = 0; i < n; i++) fprintf(f, "%lld\t%s\t1\n", (long long)E.out_id[m[i]], E.name[m[i]]);
    close_out(f, rel);
    free(rel);
    if (opt_queries > 0) {
        qsort(m, (size_t)n, sizeof *m, cmp_by_count);
        write_queries(c, m, n);
    }
    log_info("class %s: %lld members (%lld unknown names, %lld below --min-mentions)", c->name, (long long)n,
             (long long)c->unknown, (long long)rare);
    free(m);
    return 1;
}

static int write_classes(void) {
    char *gt = xasprintf("%s/gt", tmp_dir), *qd = xasprintf("%s/query", tmp_dir);
    if (mkdir(gt, 0777) || (opt_queries > 0 && mkdir(qd, 0777))) die_out("cannot create %s: %s", gt, strerror(errno));
    free(gt);
    free(qd);
    int written = 0;
    for (int i = 0; i < nclasses; i++) {
        written += write_class(&classes[i]);
        free(classes[i].name);
        free(classes[i].members);
    }
    free(classes);
    return written;
}

/* ---------------- commit ---------------- */

static void add_file_to_archive(struct archive *a, const char *top, const char *rel) {
    char *p = xasprintf("%s/%s", tmp_dir, rel);
    FILE *f = fopen(p, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st)) die_out("cannot read %s: %s", p, strerror(errno));
    struct archive_entry *e = archive_entry_new();
    char *name = xasprintf("%s/%s", top, rel);
    archive_entry_set_pathname(e, name);
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_entry_set_size(e, st.st_size);
    archive_entry_set_mtime(e, st.st_mtime, 0);
    if (archive_write_header(a, e) != ARCHIVE_OK) die_out("cannot write the archive: %s", archive_error_string(a));
    char buf[1 << 16];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        if (archive_write_data(a, buf, got) < 0) die_out("cannot write the archive: %s", archive_error_string(a));
    fclose(f);
    archive_entry_free(e);
    free(name);
    free(p);
}

static void add_folder_to_archive(struct archive *a, const char *top, const char *sub) {
    char *p = xasprintf("%s/%s", tmp_dir, sub), **names;
    int64_t n = text_source_list_folder(p, NULL, &names); /* -1: not written (no --classes) */
    free(p);
    for (int64_t i = 0; i < n; i++) {
        char *rel = xasprintf("%s/%s", sub, names[i]);
        add_file_to_archive(a, top, rel);
        free(rel);
        free(names[i]);
    }
    free(names);
}

/* Packs the temporary folder as OUT (.tar.gz, one top folder named after it). */
static void commit_archive(const char *out) {
    char *copy = xstrdup(out), *top = xstrdup(basename(copy));
    size_t tl = strlen(top);
    top[tl - (strcmp(top + tl - 4, ".tgz") == 0 ? 4 : 7)] = 0;
    char *dir = parent_dir(out);
    char *prefix = xasprintf("%s/.%s.tmp-", dir, top);
    int fd;
    tmp_archive = tempname_create_file(prefix, &fd);
    if (!tmp_archive) die_out("cannot create a temporary file in %s: %s", dir, strerror(errno));
    free(prefix);
    struct archive *a = archive_write_new();
    archive_write_add_filter_gzip(a);
    archive_write_set_format_pax_restricted(a);
    if (archive_write_open_fd(a, fd) != ARCHIVE_OK) die_out("cannot write %s: %s", tmp_archive, archive_error_string(a));
    add_file_to_archive(a, top, "entity2id.txt");
    add_file_to_archive(a, top, "sentences.json");
    if (opt_discover) add_file_to_archive(a, top, "names.tsv");
    char *aliases = xasprintf("%s/aliases.txt", tmp_dir);
    if (access(aliases, F_OK) == 0) add_file_to_archive(a, top, "aliases.txt");
    free(aliases);
    add_folder_to_archive(a, top, "gt");
    add_folder_to_archive(a, top, "query");
    if (archive_write_close(a) != ARCHIVE_OK) die_out("cannot write %s: %s", tmp_archive, archive_error_string(a));
    archive_write_free(a);
    if (fchmod(fd, 0644) || fsync(fd) || close(fd)) die_out("cannot write %s: %s", tmp_archive, strerror(errno));
    if (rename(tmp_archive, out)) die_out("cannot rename %s to %s: %s", tmp_archive, out, strerror(errno));
    tempfile_unregister(tmp_archive);
    free(tmp_archive);
    tmp_archive = NULL;
    remove_tree(tmp_dir);
    free(copy);
    free(top);
    free(dir);
}

/* True when `dir` may be replaced: it is empty or annotate wrote it (DATASET_MARKER). */
static int replaceable_folder(const char *dir) {
    char *marker = xasprintf("%s/" DATASET_MARKER, dir);
    struct stat st;
    int ours = lstat(marker, &st) == 0 && S_ISREG(st.st_mode);
    free(marker);
    if (ours) return 1;
    char **names;
    int64_t n = text_source_list_folder(dir, NULL, &names); /* visible entries */
    for (int64_t i = 0; i < n; i++) free(names[i]);
    free(names);
    return n == 0;
}

/* Marks the temporary folder as annotate's, then renames it to OUT (an existing
 * folder is replaced; main() checked that it may be). */
static void commit_folder(const char *out) {
    close_out(open_out(DATASET_MARKER), DATASET_MARKER);
    struct stat st;
    char *old = NULL;
    if (lstat(out, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) die_out("--out %s exists and is not a folder", out);
        old = xasprintf("%s.old", tmp_dir);
        if (rename(out, old)) die_out("cannot move the old %s aside: %s", out, strerror(errno));
    }
    if (chmod(tmp_dir, 0755) || rename(tmp_dir, out)) {
        int err = errno;
        if (old && rename(old, out)) log_warn("the previous %s is left at %s", out, old);
        die_out("cannot rename %s to %s: %s", tmp_dir, out, strerror(err));
    }
    if (old) remove_tree(old);
    free(old);
}

/* ---------------- main ---------------- */

int main(int argc, char **argv) {
    const cli_option opts[] = {
        {"entities", OPT_INPUT, &opt_entities, "FILE",
         "entity list: name[<TAB>alias...] per line (schemas/names.md), or an entity2id.txt (or a dataset folder/archive holding one)", 0, 0},
        {"discover", OPT_FLAG, &opt_discover, NULL, "no entity list: discover the names in the text (capitalised names, acronyms, dictionary heads \"Name , Synonym : ...\") and write them to OUT/names.tsv", 0, 0},
        {"min-count", OPT_INT, &opt_dp.min_count, "N", "with --discover: occurrences a name needs", 1, 1e9},
        {"max-len", OPT_INT, &opt_dp.max_len, "N", "with --discover: longest name in tokens", 1, 32},
        {"min-pmi", OPT_DOUBLE, &opt_dp.min_pmi, "X", "with --discover: concordance (PMI of the weakest split) a multi-word name needs", -1e9, 1e9},
        {"no-heads", OPT_FLAG, &opt_dp.no_heads, NULL, "with --discover: do not read the names before a sentence's first \":\" as a headword and its synonyms (for text whose lines start \"Alice , Bob : ...\" for another reason)", 0, 0},
        {"min-alone", OPT_DOUBLE, &opt_dp.min_alone, "X", "with --discover: share of a name's occurrences that must be a whole run of capitalised words (not a part of a longer one: drops first names, titles, \"River\")", 0, 1},
        {"format", OPT_STRING, &opt_format, "NAME", "layout of the text: auto (detected per document, and logged), plain (wrapped prose: paragraphs between blank lines), lines (one document per line), dictd (headword at column 0, definition indented below: read as \"Headword : definition\"), markdown, html; docs/input-formats.md", 0, 0},
        {"max-line", OPT_LONG, &opt_max_line, "BYTES", "longest line accepted (any format); a longer one is bad input", 1, 1e15},
        {"out", OPT_STRING, &opt_out, "PATH", "output dataset folder, or an archive ending in .tar.gz/.tgz", 0, 0},
        {"lines", OPT_FLAG, &opt_lines, NULL, "one document per line: the same as --format lines", 0, 0},
        {"ids", OPT_FLAG, &opt_ids, NULL, "each line is ID<TAB>text, ID becomes the articleId (the lines format; implied with --format auto)", 0, 0},
        {"ignore-case", OPT_FLAG, &opt_ignore_case, NULL, "match names regardless of case (Unicode case folding)", 0, 0},
        {"min-mentions", OPT_INT, &opt_min_mentions, "N", "drop entities with fewer mentions (and their mentions)", 0, 1e9},
        {"max-words", OPT_INT, &opt_max_words, "N", "drop sentences of more than N words (tokens), as build-samples --max-words", 1, 100000},
        {"classes", OPT_INPUT, &opt_classes, "DIR", "folder of <class>.txt member lists (one name per line) -> gt/, query/", 0, 0},
        {"queries", OPT_INT, &opt_queries, "N", "with --classes: seed sets of 3 per class", 0, 10000},
        {"seed-pool", OPT_INT, &opt_seed_pool, "N", "seeds come from the N most-mentioned members (0 = a third, at least 15)", 0, 1e9},
        {"random-seed", OPT_LONG, &opt_seed, "N", "random seed of the queries' seed sets", 0, 0},
        {"force", OPT_FLAG, &opt_force, NULL, "replace an existing --out folder that annotate did not write", 0, 0},
        {NULL, 0, NULL, NULL, NULL, 0, 0},
    };
    const cli_spec spec = {
        "annotate", "plain text + entity list (or --discover) -> dataset folder (entity2id.txt, sentences.json, gt/, query/)",
        "[options] (--entities FILE | --discover) --out PATH [TEXT...]   (TEXT: files, folders, archives; none or - = stdin)",
        "annotate --entities names.tsv --classes classes/ --min-mentions 3 --out mydata corpus.txt",
        "tokenize (next step), examples/wordnet/build.sh", opts, CLI_ANY_ARGS};
    discover_params_default(&opt_dp);
    int first = cli_parse(&spec, argc, argv);
    if (!opt_entities == !opt_discover) die_usage("give exactly one of --entities and --discover (try 'annotate --help')");
    if (!opt_out) die_usage("--out is required (try 'annotate --help')");
    text_reader_options ro = {TEXT_FORMAT_AUTO, opt_ids, opt_max_line};
    if (text_format_parse(opt_format, &ro.format) != 0)
        die_usage("--format %s: expected auto, plain, lines, dictd, markdown or html", opt_format);
    if (opt_lines && ro.format != TEXT_FORMAT_AUTO && ro.format != TEXT_FORMAT_LINES)
        die_usage("--lines is --format lines: it cannot go with --format %s", opt_format);
    if (opt_lines || (opt_ids && ro.format == TEXT_FORMAT_AUTO)) ro.format = TEXT_FORMAT_LINES;
    if (opt_ids && ro.format != TEXT_FORMAT_LINES) die_usage("--ids needs the lines format (--format lines)");
    char *out_parent = parent_dir(opt_out);
    if (!is_dir(out_parent)) die_usage("--out: folder %s does not exist", out_parent);
    if (is_archive_out(opt_out)) paths_output(opt_out, "--out");
    else paths_output_dir(opt_out, "--out", 1);
    paths_check(); /* never an input, nor a folder holding one, nor a non-regular file */
    if (!is_archive_out(opt_out) && is_dir(opt_out) && !opt_force && !replaceable_folder(opt_out))
        die_usage("--out %s is a folder with files annotate did not write (no %s in it): choose another folder, "
                  "or pass --force to replace it", opt_out, DATASET_MARKER);
    catalog_begin(out_parent);

    if (opt_entities) load_entities(opt_entities);
    if (opt_classes && opt_entities) load_classes(opt_classes);

    /* pass 1: the spool is the only file until every input has been read */
    char *copy = xstrdup(opt_out), *base = basename(copy);
    char *spool_prefix = xasprintf("%s/.%s.spool-", out_parent, base);
    int fd;
    char *spool_path = tempname_create_file(spool_prefix, &fd);
    if (!spool_path) die_errno("cannot create a temporary file in %s", out_parent);
    free(spool_prefix);
    pass1 p = {0};
    p.links = linked_names_new();
    p.spool = fdopen(fd, "w");
    if (!p.spool) die_errno("cannot open %s", spool_path);
    if (opt_discover) {
        p.disc = discover_new(&opt_dp);
        p.sent = sentence_spool_create(out_parent, base);
    }
    p.sp = splitter_new(opt_max_words, opt_discover ? on_sentence_discover : on_sentence, &p);
    progress_start(&p.prog, "reading", "documents", 0);
    clean_sink docs = {&p, on_document, on_text, on_document_end, on_link};
    text_reader *reader = text_reader_new(&ro, &docs);
    if (first >= argc) text_reader_read(reader, "-");
    for (int i = first; i < argc; i++) text_reader_read(reader, argv[i]);
    progress_end(&p.prog);
    text_reader_summary(reader);
    text_reader_free(reader);
    if (linked_names_links(p.links)) {
        char a[32], b[32];
        log_info("%s links to %s distinct names", fmt_count(a, linked_names_links(p.links)),
                 fmt_count(b, linked_names_distinct(p.links)));
    }
    if (opt_discover) {
        give_links(p.disc, p.links);
        sentence_spool_replay(p.sent, count_lower_case, &p);
        discovered_name *names;
        int64_t nn = discover_finish(p.disc, &names);
        discover_free(p.disc);
        if (!nn)
            die_input(first < argc ? argv[first] : "stdin", "end of input",
                      "no entity names discovered (a name is a capitalised word or phrase seen at least %d times; "
                      "see --min-count)", opt_dp.min_count);
        log_info("%lld names discovered", (long long)nn);
        load_discovered(names, nn);
        discovered_names_free(names, nn);
        if (opt_classes) load_classes(opt_classes);
        sentence_spool_replay(p.sent, replay_sentence, &p);
        sentence_spool_remove(p.sent);
    }
    if (ferror(p.spool) | fclose(p.spool)) die_errno("cannot write %s", spool_path);
    int64_t overlong = splitter_overlong(p.sp);
    splitter_free(p.sp);

    /* pass 2: the output folder */
    int64_t dropped, kept = assign_ids(&dropped), sentences, mentions;
    if (kept == 0) {
        int64_t most = 0;
        for (int64_t i = 0; i < E.n; i++) most = E.count[i] > most ? E.count[i] : most;
        die_input(first < argc ? argv[first] : "stdin", NULL,
                  "no entity of %s is mentioned --min-mentions %d times (the most mentioned: %lld): nothing to "
                  "write; lower --min-mentions or check the names", opt_entities, opt_min_mentions, (long long)most);
    }
    char *tmp_prefix = xasprintf("%s/.%s.tmp-", out_parent, base);
    tmp_dir = tempname_create_dir(tmp_prefix);
    if (!tmp_dir) die_errno("cannot create a temporary folder in %s", out_parent);
    free(tmp_prefix);
    write_sentences(spool_path, &sentences, &mentions);
    unlink(spool_path);
    tempfile_unregister(spool_path);
    write_entity2id(kept);
    int nclass = opt_classes ? write_classes() : 0;
    if (is_archive_out(opt_out)) commit_archive(opt_out);
    else commit_folder(opt_out);
    tempfile_unregister(tmp_dir);

    char a[32], b[32], c[32], d[32], e2[32], f[32];
    log_info("%s sentences read, %s with a mention, %s over --max-words %d", fmt_count(a, p.sentences + overlong),
             fmt_count(b, p.with_mention), fmt_count(c, overlong), opt_max_words);
    catalog_metric("documents", (double)p.docs);
    catalog_metric("sentences", (double)sentences);
    catalog_metric("mentions", (double)mentions);
    catalog_metric("entities_kept", (double)kept);
    catalog_metric("entities_dropped", (double)dropped);
    catalog_metric("classes", nclass);
    snprintf(f, sizeof f, ", %d classes", nclass);
    log_done("%s documents, %s sentences kept, %s mentions, %s entities kept, %s dropped (< %d mentions)%s",
             fmt_count(a, p.docs), fmt_count(b, sentences), fmt_count(c, mentions), fmt_count(d, kept),
             fmt_count(e2, dropped), opt_min_mentions, opt_classes ? f : "");
    free(p.article);
    linked_names_free(p.links);
    free(spool_path);
    free(copy);
    free(out_parent);
    free(tmp_dir);
    return 0;
}
