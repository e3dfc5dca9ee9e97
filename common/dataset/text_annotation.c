/* text_annotation: annotate's first pass, raw text -> spooled sentences with mentions
 * (text_annotation.h). */
#include "dataset/text_annotation.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "base/log.h"
#include "base/tempname.h"
#include "discover/sentence_spool.h"
#include "text/linked_names.h"
#include "text/sentence_split.h"

struct text_annotation {
    annotation *a;
    splitter *sp;
    char *spool_path;
    FILE *spool;
    char *article;         /* current articleId */
    int64_t docs, sentences, with_mention;
    linked_names *links;   /* names the text's link markup pointed at */
    progress prog;
    discover *disc;        /* discovery: the counts, and the sentences kept for the matching */
    sentence_spool *sent;
};

static void on_sentence(void *ctx, char **tok, int n) {
    text_annotation *p = ctx;
    p->sentences++;
    json_t *ms = annotation_match(p->a, tok, n);
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

/* Discovery, while reading: count and keep the sentence for the matching. */
static void on_sentence_discover(void *ctx, char **tok, int n) {
    text_annotation *p = ctx;
    discover_add_sentence(p->disc, tok, n);
    sentence_spool_put(p->sent, p->article, tok, n);
}

text_annotation *text_annotation_new(annotation *a, const char *out, int max_words, const discover_params *dp) {
    text_annotation *p = xcalloc(1, sizeof *p);
    p->a = a;
    char *copy = xstrdup(out), *base = basename(copy), *copy2 = xstrdup(out), *out_parent = dirname(copy2);
    char *spool_prefix = xasprintf("%s/.%s.spool-", out_parent, base);
    int fd;
    p->spool_path = tempname_create_file(spool_prefix, &fd);
    if (!p->spool_path) die_errno("cannot create a temporary file in %s", out_parent);
    free(spool_prefix);
    p->links = linked_names_new();
    p->spool = fdopen(fd, "w");
    if (!p->spool) die_errno("cannot open %s", p->spool_path);
    if (dp) {
        p->disc = discover_new(dp);
        p->sent = sentence_spool_create(out_parent, base);
    }
    p->sp = splitter_new(max_words, dp ? on_sentence_discover : on_sentence, p);
    free(copy);
    free(copy2);
    return p;
}

/* ---------------- reading: the clean documents of text_reader.h ---------------- */

static void on_document(void *ctx, const char *article) {
    text_annotation *p = ctx;
    free(p->article);
    p->article = xstrdup(article);
    p->docs++;
    if ((p->docs & 1023) == 0 || p->docs < 1024) progress_update(&p->prog, p->docs);
}

static void on_text(void *ctx, const char *s, size_t len) {
    text_annotation *p = ctx;
    splitter_feed(p->sp, s, len);
}

static void on_document_end(void *ctx) {
    text_annotation *p = ctx;
    splitter_end_document(p->sp);
}

static void on_link(void *ctx, const char *name, size_t len) {
    text_annotation *p = ctx;
    linked_names_add(p->links, name, len);
}

void text_annotation_read(text_annotation *p, const text_reader_options *ro, char *const *inputs, int n) {
    progress_start(&p->prog, "reading", "documents", 0);
    clean_sink docs = {p, on_document, on_text, on_document_end, on_link};
    text_reader *reader = text_reader_new(ro, &docs);
    if (n == 0) text_reader_read(reader, "-");
    for (int i = 0; i < n; i++) text_reader_read(reader, inputs[i]);
    progress_end(&p->prog);
    text_reader_summary(reader);
    text_reader_free(reader);
    if (linked_names_links(p->links)) {
        char a[32], b[32];
        log_info("%s links to %s distinct names", fmt_count(a, linked_names_links(p->links)),
                 fmt_count(b, linked_names_distinct(p->links)));
    }
}

/* ---------------- discovery ---------------- */

/* The second pass over the kept sentences: where the text writes a candidate in lower case. */
static void count_lower_case(void *ctx, const char *article, char **tok, int n) {
    (void)article;
    text_annotation *p = ctx;
    discover_add_lower_case(p->disc, tok, n);
}

/* The names the text's links pointed at, tokenised as the text is. */
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

int64_t text_annotation_discover(text_annotation *p, discovered_name **names) {
    give_links(p->disc, p->links);
    sentence_spool_replay(p->sent, count_lower_case, p);
    int64_t n = discover_finish(p->disc, names);
    discover_free(p->disc);
    p->disc = NULL;
    return n;
}

/* Once the names are known: a kept sentence through on_sentence. */
static void replay_sentence(void *ctx, const char *article, char **tok, int n) {
    text_annotation *p = ctx;
    if (strcmp(p->article, article)) {
        free(p->article);
        p->article = xstrdup(article);
    }
    on_sentence(p, tok, n);
}

void text_annotation_match_kept(text_annotation *p) {
    sentence_spool_replay(p->sent, replay_sentence, p);
    sentence_spool_remove(p->sent);
    p->sent = NULL;
}

/* ---------------- the end ---------------- */

void text_annotation_finish(text_annotation *p, text_annotation_counts *c) {
    if (ferror(p->spool) | fclose(p->spool)) die_errno("cannot write %s", p->spool_path);
    p->spool = NULL;
    c->docs = p->docs;
    c->sentences = p->sentences;
    c->with_mention = p->with_mention;
    c->overlong = splitter_overlong(p->sp);
    splitter_free(p->sp);
    p->sp = NULL;
}

const char *text_annotation_spool(const text_annotation *p) {
    return p->spool_path;
}

void text_annotation_free(text_annotation *p) {
    unlink(p->spool_path);
    tempfile_unregister(p->spool_path);
    free(p->spool_path);
    free(p->article);
    linked_names_free(p->links);
    free(p);
}
