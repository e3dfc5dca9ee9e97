/* sentences: the sentences.json line parser (contract in sentences.h). Mentions
 * are validated before any token is looked at, so the first defect of a line
 * is the one reported whatever the mode. */
#include "dataset/sentences.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"

static void count_word(void *ctx, const char *w, size_t len) { strmap_add(ctx, w, len, 1); }

/* Mention k's integer field `key` into *out; -1 with the reason in err. */
static int int_field(const json_t *o, const char *key, size_t k, int64_t *out, char *err, size_t errlen) {
    json_t *v = json_object_get(o, key);
    if (!v) snprintf(err, errlen, "entityMentions[%zu]: missing \"%s\"", k, key);
    else if (!json_is_integer(v)) snprintf(err, errlen, "entityMentions[%zu].%s: expected an integer", k, key);
    else {
        *out = json_integer_value(v);
        return 0;
    }
    return -1;
}

/* Does word t (len bytes) continue a name: a capital, then letters only, and no
 * weekday or month name ("Baltimore Gas", not "Washington Monday")? */
static int continues_name(const char *t, size_t len) {
    static const char *const calendar[] = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
                                           "Sunday", "January", "February", "March", "April", "May", "June",
                                           "July", "August", "September", "October", "November", "December",
                                           "Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept",
                                           "Oct", "Nov", "Dec"};
    if (!len || t[0] < 'A' || t[0] > 'Z') return 0;
    for (size_t i = 1; i < len; i++)
        if (!((t[i] >= 'a' && t[i] <= 'z') || (t[i] >= 'A' && t[i] <= 'Z'))) return 0;
    for (size_t i = 0; i < sizeof calendar / sizeof *calendar; i++)
        if (strlen(calendar[i]) == len && !memcmp(calendar[i], t, len)) return 0;
    return 1;
}

#define BAD(...) do { snprintf(err, errlen, __VA_ARGS__); goto fail; } while (0)

int sentence_parse(const sentence_opts *opts, const char *line, size_t len, sentence *s, strmap *counts, char *err,
                   size_t errlen) {
    json_t *root = NULL;
    size_t k = 0;
    while (k < len && (line[k] == ' ' || line[k] == '\t')) k++;
    if (k == len) return 0;
    long bad = wp_utf8_invalid_at(line, len);
    if (bad >= 0) BAD("invalid UTF-8 at byte %ld of the line", bad + 1);
    json_error_t jerr;
    root = json_loadb(line, len, JSON_ALLOW_NUL, &jerr); /* "\u0000" is valid JSON; the tokenizer drops NUL */
    if (!root) BAD("malformed JSON at column %d: %s", jerr.column, jerr.text);
    if (!json_is_object(root)) BAD("expected a JSON object per line");
    json_t *tokens = json_object_get(root, "tokens"), *mentions = json_object_get(root, "entityMentions");
    if (!json_is_array(tokens)) BAD("%s \"tokens\" array", tokens ? "expected a" : "missing the");
    if (!json_is_array(mentions)) BAD("%s \"entityMentions\" array", mentions ? "expected an" : "missing the");
    size_t nw = json_array_size(tokens), nm = json_array_size(mentions);
    if (nw > INT32_MAX / 2) BAD("sentence of %zu tokens", nw);
    if (nm > INT32_MAX / 2) BAD("sentence of %zu mentions", nm);
    if (nw + 1 > s->word_cap) {
        s->word_cap = (nw + 1) * 2;
        s->word_start = xrealloc(s->word_start, s->word_cap * sizeof *s->word_start);
    }
    if (nm > s->m_cap) {
        s->m_cap = nm * 2;
        s->m = xrealloc(s->m, s->m_cap * sizeof *s->m);
        s->embedded = xrealloc(s->embedded, s->m_cap);
    }
    for (size_t i = 0; i < nm; i++) { /* mentions (word spans), validated before the tokens */
        json_t *e = json_array_get(mentions, i);
        if (!json_is_object(e)) BAD("entityMentions[%zu]: expected an object", i);
        int64_t st, en, eid;
        if (int_field(e, "start", i, &st, err, errlen) || int_field(e, "end", i, &en, err, errlen) ||
            int_field(e, "entityId", i, &eid, err, errlen))
            goto fail;
        if (st > en) BAD("entityMentions[%zu]: start %lld > end %lld", i, (long long)st, (long long)en);
        if (st < 0 || en >= (int64_t)nw)
            BAD("entityMentions[%zu]: span %lld..%lld outside the %zu tokens", i, (long long)st, (long long)en, nw);
        if (intmap_get(opts->eid_row, eid) < 0) BAD("entityMentions[%zu]: entityId %lld is not in entity2id.txt", i, (long long)eid);
        s->m[i] = (corpus_mention){eid, (int32_t)st, (int32_t)en};
    }
    s->ids.n = 0;
    s->unk = 0;
    for (size_t i = 0; i < nw; i++) {
        json_t *w = json_array_get(tokens, i);
        if (!json_is_string(w)) BAD("tokens[%zu]: expected a string", i);
        const char *t = json_string_value(w);
        size_t tl = json_string_length(w);
        s->word_start[i] = (int32_t)s->ids.n;
        if (!opts->vocab) {
            if (counts) wp_basic_words(t, tl, opts->flags, count_word, counts, NULL);
        }
        else if (wp_encode(opts->vocab, t, tl, opts->flags, &s->ids, NULL, &s->unk) < 0) BAD("tokens[%zu]: invalid UTF-8", i);
        if (s->ids.n > INT32_MAX / 2) BAD("sentence too long");
    }
    s->word_start[nw] = (int32_t)s->ids.n;
    for (size_t i = 0; i < nm; i++) { /* the tokens are checked strings */
        json_t *next = json_array_get(tokens, (size_t)s->m[i].wp_end + 1);
        s->embedded[i] = next && continues_name(json_string_value(next), json_string_length(next));
    }
    json_decref(root);
    s->nwords = (int32_t)nw;
    s->nm = (int32_t)nm;
    s->dropped = s->left_out = 0;
    if (opts->vocab) {
        s->nm = 0;
        for (size_t i = 0; i < nm; i++) { /* word span -> wordpiece span; empty ones dropped */
            corpus_mention m = s->m[i];
            m.wp_end = s->word_start[m.wp_end + 1];
            m.wp_start = s->word_start[m.wp_start];
            if (m.wp_start == m.wp_end) s->dropped++;
            else if (s->embedded[i] && opts->leave_embedded && opts->leave_embedded[intmap_get(opts->eid_row, m.eid)])
                s->left_out++;
            else s->m[s->nm++] = m;
        }
    }
    return 1;
fail:
    if (root) json_decref(root);
    return -1;
}

void sentence_free(sentence *s) {
    wp_ids_free(&s->ids);
    free(s->word_start);
    free(s->m);
    free(s->embedded);
    memset(s, 0, sizeof *s);
}
