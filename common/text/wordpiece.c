/* wordpiece: uncased BERT basic tokenization + greedy WordPiece, and BPE-style
 * WordPiece vocabulary learning (contract in wordpiece.h). */
#include "text/wordpiece.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <utf8proc.h>

#include "base/error.h"
#include "base/paths.h"
#include "base/outfile.h"

static const char *const special_literal[5] = {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"};

/* ---------------- vocabulary ---------------- */

static void vocab_index(wp_vocab *v) {
    strmap_init(&v->map);
    v->max_tok_bytes = 0;
    for (int32_t i = 0; i < v->n; i++) {
        size_t len = strlen(v->tok[i]);
        if (strmap_put(&v->map, v->tok[i], len, i) >= 0) {
            /* HF's load_vocab: a later duplicate line overrides the earlier id */
            strmap_add(&v->map, v->tok[i], len, i - strmap_get(&v->map, v->tok[i], len));
        }
        if (len > v->max_tok_bytes) v->max_tok_bytes = len;
    }
    int32_t *ids[5] = {&v->sp.pad, &v->sp.unk, &v->sp.cls, &v->sp.sep, &v->sp.mask};
    for (int k = 0; k < 5; k++)
        *ids[k] = (int32_t)strmap_get(&v->map, special_literal[k], strlen(special_literal[k]));
}

void wp_vocab_load(wp_vocab *v, const char *path) {
    memset(v, 0, sizeof *v);
    FILE *f = paths_fopen_input(path);
    if (!f) die_input(path, NULL, "cannot open vocabulary: %s", strerror(errno));
    char *line = NULL;
    size_t cap = 0, tcap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, f)) >= 0) {
        if (len && line[len - 1] == '\n') line[--len] = 0;
        if (len && line[len - 1] == '\r') line[--len] = 0;
        /* a token that cannot be valid text would never match a word (and a NUL would cut it) */
        const char *nul = memchr(line, 0, (size_t)len);
        long bad = nul ? (long)(nul - line) : wp_utf8_invalid_at(line, (size_t)len);
        if (bad >= 0) {
            char where[32];
            snprintf(where, sizeof where, "line %lld", (long long)v->n + 1);
            die_input(path, where, "%s at byte %ld of a vocabulary token", line[bad] ? "invalid UTF-8" : "a NUL byte", bad + 1);
        }
        if ((size_t)v->n == tcap) {
            tcap = tcap * 2 + 1024;
            v->tok = xrealloc(v->tok, tcap * sizeof *v->tok);
        }
        v->tok[v->n++] = xstrdup(line);
    }
    if (ferror(f)) die_errno("%s: read error", path);
    fclose(f);
    free(line);
    vocab_index(v);
    if (v->sp.unk < 0) die_input(path, NULL, "vocabulary has no [UNK] token (%d lines)", (int)v->n);
}

void wp_vocab_from_tokens(wp_vocab *v, char *const *tokens, int32_t n) {
    memset(v, 0, sizeof *v);
    v->n = n;
    v->tok = xmalloc((size_t)(n ? n : 1) * sizeof *v->tok);
    for (int32_t i = 0; i < n; i++) v->tok[i] = xstrdup(tokens[i]);
    vocab_index(v);
}

void wp_vocab_free(wp_vocab *v) {
    for (int32_t i = 0; i < v->n; i++) free(v->tok[i]);
    free(v->tok);
    strmap_free(&v->map);
    memset(v, 0, sizeof *v);
}

void wp_vocab_write(const wp_vocab *v, const char *path) {
    outfile *o = outfile_open(path);
    FILE *f = outfile_stream(o);
    for (int32_t i = 0; i < v->n; i++) fprintf(f, "%s\n", v->tok[i]);
    if (ferror(f)) die_errno("cannot write %s", outfile_temp(o));
    outfile_commit(o);
}

int32_t wp_vocab_id(const wp_vocab *v, const char *tok, size_t len) { return (int32_t)strmap_get(&v->map, tok, len); }

void wp_ids_push(wp_ids *a, int32_t id) {
    if (a->n == a->cap) {
        a->cap = a->cap * 2 + 64;
        a->id = xrealloc(a->id, a->cap * sizeof *a->id);
    }
    a->id[a->n++] = id;
}

void wp_ids_free(wp_ids *a) {
    free(a->id);
    memset(a, 0, sizeof *a);
}

/* ---------------- character classes ---------------- */

long wp_utf8_invalid_at(const char *text, size_t len) {
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    while (i < len) {
        if (s[i] < 0x80) { i++; continue; }
        utf8proc_int32_t cp;
        utf8proc_ssize_t k = utf8proc_iterate(s + i, (utf8proc_ssize_t)(len - i), &cp);
        if (k <= 0) return (long)i;
        i += (size_t)k;
    }
    return -1;
}

static int is_ascii_punct(int32_t c) {
    return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);
}

static int is_punct(int32_t c) {
    if (c < 128) return is_ascii_punct(c);
    switch (utf8proc_category(c)) {
    case UTF8PROC_CATEGORY_PC: case UTF8PROC_CATEGORY_PD: case UTF8PROC_CATEGORY_PS:
    case UTF8PROC_CATEGORY_PE: case UTF8PROC_CATEGORY_PI: case UTF8PROC_CATEGORY_PF:
    case UTF8PROC_CATEGORY_PO: return 1;
    default: return 0;
    }
}

/* HF BasicTokenizer._is_chinese_char: the CJK Unified Ideographs blocks. */
static int is_cjk(int32_t c) {
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF) ||
           (c >= 0x2A700 && c <= 0x2B73F) || (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B820 && c <= 0x2CEAF) ||
           (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

enum { CH_DROP, CH_SPACE, CH_KEEP };
/* clean_text + whitespace split classification of one code point. */
static int classify(int32_t c) {
    if (c < 128) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') return CH_SPACE;
        if (c < 32 || c == 127) return CH_DROP;
        return CH_KEEP;
    }
    if (c == 0xFFFD) return CH_DROP;
    switch (utf8proc_category(c)) { /* unassigned code points (Cn) stay, as in both HF tokenizers */
    case UTF8PROC_CATEGORY_CC: case UTF8PROC_CATEGORY_CF: case UTF8PROC_CATEGORY_CS: case UTF8PROC_CATEGORY_CO:
        return CH_DROP;
    case UTF8PROC_CATEGORY_ZS: case UTF8PROC_CATEGORY_ZL: case UTF8PROC_CATEGORY_ZP: return CH_SPACE;
    default: return CH_KEEP;
    }
}

/* Python's notion of cased / case-ignorable for the final-sigma rule
 * (approximation: case mappings and general categories). */
static int is_cased(int32_t c) {
    if (c < 128) return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    return utf8proc_tolower(c) != c || utf8proc_toupper(c) != c;
}
static int is_case_ignorable(int32_t c) {
    if (c < 128) return c == '\'' || c == '.' || c == ':' || c == '^' || c == '`';
    switch (utf8proc_category(c)) {
    case UTF8PROC_CATEGORY_MN: case UTF8PROC_CATEGORY_ME: case UTF8PROC_CATEGORY_CF:
    case UTF8PROC_CATEGORY_LM: case UTF8PROC_CATEGORY_SK: return 1;
    default: return 0;
    }
}

/* Python str.lower() of a word of n code points, in place (U+0130 becomes
 * "i" + U+0307, so cp needs room for n extra entries). Returns the new length. */
static size_t lower_word(int32_t *cp, size_t n) {
    int prev_cased = 0;
    size_t extra = 0;
    for (size_t i = 0; i < n; i++) if (cp[i] == 0x130) extra++;
    if (extra) { /* spread out from the end */
        size_t j = n + extra;
        for (size_t i = n; i-- > 0;) {
            if (cp[i] == 0x130) { cp[--j] = 0x307; cp[--j] = 'I'; }
            else cp[--j] = cp[i];
        }
        n += extra;
    }
    for (size_t i = 0; i < n; i++) {
        int32_t c = cp[i], l;
        if (c < 128) l = (c >= 'A' && c <= 'Z') ? c + 32 : c;
        else if (c == 0x3A3) { /* capital sigma: final form at the end of a cased word */
            int next_cased = 0;
            for (size_t k = i + 1; k < n; k++)
                if (!is_case_ignorable(cp[k])) { next_cased = is_cased(cp[k]); break; }
            l = prev_cased && !next_cased ? 0x3C2 : 0x3C3;
        } else l = utf8proc_tolower(c);
        if (!is_case_ignorable(c)) prev_cased = is_cased(c);
        cp[i] = l;
    }
    return n;
}

/* ---------------- basic tokenizer ---------------- */

typedef void (*piece_fn)(void *ctx, const char *word, size_t len, int ncp, int special);

typedef struct {
    int32_t *cp;      /* current whitespace token */
    size_t n, cap;
    char *out;        /* current output word, UTF-8 */
    size_t olen, ocap;
    int oncp;
    int flags;
} scratch;

static _Thread_local scratch S;

void wp_thread_done(void) {
    free(S.cp);
    free(S.out);
    memset(&S, 0, sizeof S);
}

static void grow_cp(size_t need) {
    if (need > S.cap) {
        S.cap = need * 2 + 64;
        S.cp = xrealloc(S.cp, S.cap * sizeof *S.cp);
    }
}

static void out_flush(piece_fn fn, void *ctx) {
    if (!S.olen) return;
    S.out[S.olen] = 0;
    fn(ctx, S.out, S.olen, S.oncp, -1);
    S.olen = 0;
    S.oncp = 0;
}

static void out_cp(int32_t c) {
    if (S.olen + 5 > S.ocap) {
        S.ocap = S.ocap * 2 + 256;
        S.out = xrealloc(S.out, S.ocap);
    }
    if (c < 128) S.out[S.olen++] = (char)c;
    else S.olen += (size_t)utf8proc_encode_char(c, (utf8proc_uint8_t *)S.out + S.olen);
    S.oncp++;
}

/* Index of the special literal that the cleaned whitespace token equals, or -1
 * (HF's never_split: "[MA\u200bSK]" is [MASK] once the format character is gone). */
static int token_is_special(void) {
    if (S.flags & WP_PLAIN_SPECIALS || S.n < 5 || S.n > 6) return -1;
    for (int k = 0; k < 5; k++) {
        size_t l = strlen(special_literal[k]), i = 0;
        while (i < l && i < S.n && S.cp[i] == (unsigned char)special_literal[k][i]) i++;
        if (i == l && l == S.n) return k;
    }
    return -1;
}

/* lowercase, strip accents, split punctuation: one whitespace token -> words */
static void process_token(piece_fn fn, void *ctx) {
    if (!S.n) return;
    int sp = token_is_special();
    if (sp >= 0) {
        S.n = 0;
        fn(ctx, special_literal[sp], strlen(special_literal[sp]), (int)strlen(special_literal[sp]), sp);
        return;
    }
    size_t n = lower_word(S.cp, S.n);
    for (size_t i = 0; i < n; i++) {
        int32_t c = S.cp[i];
        if (c < 128) {
            if (is_ascii_punct(c)) { out_flush(fn, ctx); out_cp(c); out_flush(fn, ctx); }
            else out_cp(c);
            continue;
        }
        utf8proc_int32_t d[16];
        int last = 0;
        utf8proc_ssize_t k = utf8proc_decompose_char(c, d, 16, UTF8PROC_DECOMPOSE, &last);
        if (k < 0 || k > 16) { d[0] = c; k = 1; }
        for (utf8proc_ssize_t j = 0; j < k; j++) {
            if (utf8proc_category(d[j]) == UTF8PROC_CATEGORY_MN) continue;
            if (is_punct(d[j])) { out_flush(fn, ctx); out_cp(d[j]); out_flush(fn, ctx); }
            else out_cp(d[j]);
        }
    }
    out_flush(fn, ctx);
    S.n = 0;
}

static int match_special(const char *s, size_t left) {
    for (int k = 0; k < 5; k++) {
        size_t l = strlen(special_literal[k]);
        if (left >= l && memcmp(s, special_literal[k], l) == 0) return k;
    }
    return -1;
}

/* Steps 1-5 of wordpiece.h over valid UTF-8; fn receives words and specials
 * (special = 0..4 with the literal as the word). */
static void basic_tokenize(const char *text, size_t len, int flags, piece_fn fn, void *ctx) {
    const unsigned char *s = (const unsigned char *)text;
    S.n = 0;
    S.olen = 0;
    S.oncp = 0;
    S.flags = flags;
    size_t i = 0;
    while (i < len) {
        int32_t c;
        if (s[i] < 0x80) {
            c = s[i];
            if (c == '[' && !(flags & WP_PLAIN_SPECIALS)) {
                int k = match_special(text + i, len - i);
                if (k >= 0) {
                    process_token(fn, ctx);
                    fn(ctx, special_literal[k], strlen(special_literal[k]), (int)strlen(special_literal[k]), k);
                    i += strlen(special_literal[k]);
                    continue;
                }
            }
            i++;
        } else {
            utf8proc_int32_t cp;
            i += (size_t)utf8proc_iterate(s + i, (utf8proc_ssize_t)(len - i), &cp);
            c = cp;
        }
        int cls = c == 0 ? CH_DROP : classify(c);
        if (cls == CH_DROP) continue;
        if (cls == CH_SPACE) { process_token(fn, ctx); continue; }
        if (c >= 0x3400 && is_cjk(c)) {
            process_token(fn, ctx);
            S.cp[S.n++] = c; /* cap >= 1 after process_token's first growth below */
            process_token(fn, ctx);
            continue;
        }
        grow_cp(2 * (S.n + 1));
        S.cp[S.n++] = c;
    }
    process_token(fn, ctx);
}

typedef struct { wp_word_fn fn; void *ctx; } words_ctx;
static void words_piece(void *vctx, const char *w, size_t len, int ncp, int special) {
    (void)ncp;
    if (special >= 0) return; /* special literals are not words */
    words_ctx *c = vctx;
    c->fn(c->ctx, w, len);
}

int wp_basic_words(const char *text, size_t len, int flags, wp_word_fn fn, void *ctx, size_t *bad_byte) {
    long bad = wp_utf8_invalid_at(text, len);
    if (bad >= 0) {
        if (bad_byte) *bad_byte = (size_t)bad;
        return -1;
    }
    grow_cp(64);
    words_ctx c = {fn, ctx};
    basic_tokenize(text, len, flags, words_piece, &c);
    return 0;
}

/* ---------------- WordPiece ---------------- */

typedef struct { const wp_vocab *v; wp_ids *out; int64_t unk; } encode_ctx;

static void wordpiece_word(void *vctx, const char *w, size_t len, int ncp, int special) {
    encode_ctx *c = vctx;
    const wp_vocab *v = c->v;
    if (special >= 0) {
        int32_t ids[5] = {v->sp.pad, v->sp.unk, v->sp.cls, v->sp.sep, v->sp.mask};
        wp_ids_push(c->out, ids[special] >= 0 ? ids[special] : v->sp.unk);
        return;
    }
    if (ncp > WP_MAX_WORD_CHARS) { wp_ids_push(c->out, v->sp.unk); c->unk++; return; }
    size_t off[WP_MAX_WORD_CHARS + 1];
    int k = 0;
    for (size_t i = 0; i < len; i++)
        if (((unsigned char)w[i] & 0xC0) != 0x80) off[k++] = i;
    off[k] = len;
    char key[4 * WP_MAX_WORD_CHARS + 3];
    size_t mark = c->out->n;
    int start = 0;
    while (start < k) {
        const char *base;
        size_t pre;
        if (start == 0) { base = w; pre = 0; }
        else {
            key[0] = key[1] = '#';
            memcpy(key + 2, w + off[start], len - off[start]);
            base = key;
            pre = 2;
        }
        int end = k;
        int32_t id = -1;
        for (; end > start; end--) {
            size_t bytes = pre + off[end] - off[start];
            if (bytes > v->max_tok_bytes) continue;
            id = (int32_t)strmap_get(&v->map, base, bytes);
            if (id >= 0) break;
        }
        if (id < 0) { /* no piece matches: the whole word is [UNK] */
            c->out->n = mark;
            wp_ids_push(c->out, v->sp.unk);
            c->unk++;
            return;
        }
        wp_ids_push(c->out, id);
        start = end;
    }
}

long wp_encode(const wp_vocab *v, const char *text, size_t len, int flags, wp_ids *out, size_t *bad_byte,
               int64_t *unk) {
    long bad = wp_utf8_invalid_at(text, len);
    if (bad >= 0) {
        if (bad_byte) *bad_byte = (size_t)bad;
        return -1;
    }
    size_t before = out->n;
    encode_ctx c = {v, out, 0};
    grow_cp(2 * len + 64);
    if (flags & WP_WHOLE_WORDS) {
        /* official: Python str.lower() of the word, then a whole-word lookup */
        size_t n = 0;
        for (size_t i = 0; i < len;) {
            utf8proc_int32_t cp;
            i += (size_t)utf8proc_iterate((const utf8proc_uint8_t *)text + i, (utf8proc_ssize_t)(len - i), &cp);
            S.cp[n++] = cp;
        }
        n = lower_word(S.cp, n);
        S.olen = 0;
        S.oncp = 0;
        for (size_t i = 0; i < n; i++) out_cp(S.cp[i]);
        int32_t id = (int32_t)strmap_get(&v->map, S.out ? S.out : "", S.olen);
        if (id < 0) { id = v->sp.unk; c.unk++; }
        wp_ids_push(out, id);
    } else {
        basic_tokenize(text, len, flags, wordpiece_word, &c);
    }
    if (unk) *unk += c.unk;
    return (long)(out->n - before);
}

/* ---------------- vocabulary learning ---------------- */

typedef struct { int32_t *sym; int32_t n; int64_t count; } lw_word;

typedef struct { int64_t count; int32_t a, b; } heap_item;

static int heap_before(const heap_item *x, const heap_item *y) {
    if (x->count != y->count) return x->count > y->count;
    if (x->a != y->a) return x->a < y->a;
    return x->b < y->b;
}

typedef struct { heap_item *h; size_t n, cap; } heap;

static void heap_push(heap *q, heap_item it) {
    if (q->n == q->cap) { q->cap = q->cap * 2 + 1024; q->h = xrealloc(q->h, q->cap * sizeof *q->h); }
    size_t i = q->n++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!heap_before(&it, &q->h[p])) break;
        q->h[i] = q->h[p];
        i = p;
    }
    q->h[i] = it;
}

static heap_item heap_pop(heap *q) {
    heap_item top = q->h[0], last = q->h[--q->n];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        const heap_item *best = &last;
        if (l < q->n && heap_before(&q->h[l], best)) { m = l; best = &q->h[l]; }
        if (r < q->n && heap_before(&q->h[r], best)) m = r;
        if (m == i) break;
        q->h[i] = q->h[m];
        i = m;
    }
    if (q->n) q->h[i] = last;
    return top;
}

/* per-pair statistics: count and the words containing the pair */
typedef struct { int64_t count; int32_t *words; int32_t nw, cw; } pair_stat;

typedef struct {
    intmap index;      /* pair key -> slot */
    pair_stat *st;
    size_t n, cap;
} pair_table;

static int64_t pair_key(int32_t a, int32_t b) { return (int64_t)a << 32 | (uint32_t)b; }

static pair_stat *pair_get(pair_table *t, int32_t a, int32_t b) {
    int64_t k = pair_key(a, b), slot = intmap_get(&t->index, k);
    if (slot >= 0) return &t->st[slot];
    if (t->n == t->cap) { t->cap = t->cap * 2 + 1024; t->st = xrealloc(t->st, t->cap * sizeof *t->st); }
    intmap_put(&t->index, k, (int64_t)t->n);
    memset(&t->st[t->n], 0, sizeof *t->st);
    return &t->st[t->n++];
}

static void pair_add_word(pair_stat *p, int32_t w) {
    if (p->nw && p->words[p->nw - 1] == w) return;
    if (p->nw == p->cw) { p->cw = p->cw * 2 + 4; p->words = xrealloc(p->words, (size_t)p->cw * sizeof *p->words); }
    p->words[p->nw++] = w;
}

typedef struct { char **tok; int32_t n, cap; strmap ids; } tok_list;

static int32_t tok_add(tok_list *t, const char *s) {
    int64_t id = strmap_get(&t->ids, s, strlen(s));
    if (id >= 0) return (int32_t)id;
    if (t->n == t->cap) { t->cap = t->cap * 2 + 1024; t->tok = xrealloc(t->tok, (size_t)t->cap * sizeof *t->tok); }
    t->tok[t->n] = xstrdup(s);
    strmap_put(&t->ids, s, strlen(s), t->n);
    return t->n++;
}

typedef struct { int32_t cp; int cont; } alpha_entry;
static int cmp_alpha(const void *x, const void *y) {
    const alpha_entry *a = x, *b = y;
    if (a->cp != b->cp) return a->cp < b->cp ? -1 : 1;
    return a->cont - b->cont;
}
typedef struct { int64_t count; int32_t idx; } alpha_count;
static int cmp_alpha_count(const void *x, const void *y) {
    const alpha_count *a = x, *b = y;
    if (a->count != b->count) return a->count > b->count ? -1 : 1;
    return a->idx - b->idx;
}

void wp_learn(wp_vocab *out, const strmap *word_counts, int32_t n_target) {
    tok_list T = {0};
    strmap_init(&T.ids);
    for (int k = 0; k < 5; k++) tok_add(&T, special_literal[k]);

    /* words as code point sequences; alphabet with frequencies */
    lw_word *W = NULL;
    int32_t nw = 0, wcap = 0;
    strmap alpha;
    strmap_init(&alpha);
    alpha_entry *ae = NULL;
    int64_t *acount = NULL;
    size_t nalpha = 0;
    for (size_t s = 0; s < word_counts->cap; s++) {
        if (!word_counts->hash[s]) continue;
        const char *w = word_counts->key[s];
        size_t len = word_counts->klen[s];
        int64_t cnt = word_counts->val[s];
        if (cnt <= 0) continue;
        int32_t cps[WP_MAX_WORD_CHARS + 1];
        int32_t n = 0;
        int ok = 1;
        for (size_t i = 0; i < len && ok;) {
            utf8proc_int32_t cp;
            utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)w + i, (utf8proc_ssize_t)(len - i), &cp);
            if (k <= 0 || n == WP_MAX_WORD_CHARS) ok = 0;
            else { cps[n++] = cp; i += (size_t)k; }
        }
        if (!ok || n == 0) continue;
        if (nw == wcap) {
            wcap = wcap * 2 + 1024;
            W = xrealloc(W, (size_t)wcap * sizeof *W);
        }
        W[nw] = (lw_word){xmalloc((size_t)n * sizeof(int32_t)), n, cnt};
        for (int32_t i = 0; i < n; i++) {
            int32_t key[2] = {cps[i], i > 0};
            int64_t a = strmap_get(&alpha, (const char *)key, sizeof key);
            if (a < 0) {
                a = (int64_t)nalpha++;
                strmap_put(&alpha, (const char *)key, sizeof key, a);
                ae = xrealloc(ae, nalpha * sizeof *ae);
                acount = xrealloc(acount, nalpha * sizeof *acount);
                ae[a] = (alpha_entry){cps[i], i > 0};
                acount[a] = 0;
            }
            acount[a] += cnt;
            W[nw].sym[i] = (int32_t)a; /* alphabet index for now */
        }
        nw++;
    }
    /* keep the most frequent characters when the alphabet alone is too big */
    size_t keep = nalpha;
    int32_t room = n_target - T.n;
    if (room < 0) room = 0;
    int32_t *alpha_tok = xmalloc((nalpha ? nalpha : 1) * sizeof *alpha_tok);
    for (size_t a = 0; a < nalpha; a++) alpha_tok[a] = -1;
    {
        alpha_count *ac = xmalloc((nalpha ? nalpha : 1) * sizeof *ac);
        for (size_t a = 0; a < nalpha; a++) ac[a] = (alpha_count){acount[a], (int32_t)a};
        qsort(ac, nalpha, sizeof *ac, cmp_alpha_count);
        if (keep > (size_t)room) keep = (size_t)room;
        alpha_entry *kept = xmalloc((keep ? keep : 1) * sizeof *kept);
        for (size_t i = 0; i < keep; i++) kept[i] = ae[ac[i].idx];
        qsort(kept, keep, sizeof *kept, cmp_alpha);
        for (size_t i = 0; i < keep; i++) {
            char buf[8] = "##";
            size_t o = kept[i].cont ? 2 : 0;
            o += (size_t)utf8proc_encode_char(kept[i].cp, (utf8proc_uint8_t *)buf + o);
            buf[o] = 0;
            int32_t key[2] = {kept[i].cp, kept[i].cont};
            alpha_tok[strmap_get(&alpha, (const char *)key, sizeof key)] = tok_add(&T, buf);
        }
        free(kept);
        free(ac);
    }
    /* map words to token ids; words with a dropped character do not take part */
    int32_t live = 0;
    for (int32_t i = 0; i < nw; i++) {
        int ok = 1;
        for (int32_t j = 0; j < W[i].n; j++) {
            W[i].sym[j] = alpha_tok[W[i].sym[j]];
            if (W[i].sym[j] < 0) ok = 0;
        }
        if (ok) W[live++] = W[i];
        else free(W[i].sym);
    }
    nw = live;

    /* initial pair statistics */
    pair_table P = {0};
    intmap_init(&P.index);
    for (int32_t i = 0; i < nw; i++)
        for (int32_t j = 0; j + 1 < W[i].n; j++) {
            pair_stat *p = pair_get(&P, W[i].sym[j], W[i].sym[j + 1]);
            p->count += W[i].count;
            pair_add_word(p, i);
        }
    heap Q = {0};
    for (int64_t s = 0; s < (int64_t)P.index.cap; s++) {
        if (!P.index.used[s]) continue;
        pair_stat *p = &P.st[P.index.val[s]];
        int64_t k = P.index.key[s];
        heap_push(&Q, (heap_item){p->count, (int32_t)(k >> 32), (int32_t)(uint32_t)k});
    }

    int32_t *touched_a = NULL, *touched_b = NULL;
    size_t ntouched = 0, ctouched = 0;
    while (T.n < n_target && Q.n) {
        heap_item it = heap_pop(&Q);
        pair_stat *p = pair_get(&P, it.a, it.b);
        if (p->count != it.count) { /* stale: counts only drop, so queue the current one */
            if (p->count > 0) heap_push(&Q, (heap_item){p->count, it.a, it.b});
            continue;
        }
        if (p->count < 2) break;
        /* new token: a + b without its "##" */
        const char *sa = T.tok[it.a], *sb = T.tok[it.b];
        if (sb[0] == '#' && sb[1] == '#') sb += 2;
        char *merged = xasprintf("%s%s", sa, sb);
        int32_t z = tok_add(&T, merged);
        free(merged);
        /* re-count the words containing the pair */
        int32_t nlist = p->nw;
        int32_t *list = p->words;
        p->words = NULL;
        p->nw = p->cw = 0;
        ntouched = 0;
        for (int32_t li = 0; li < nlist; li++) {
            lw_word *w = &W[list[li]];
            int found = 0;
            for (int32_t j = 0; j + 1 < w->n; j++)
                if (w->sym[j] == it.a && w->sym[j + 1] == it.b) { found = 1; break; }
            if (!found) continue;
            for (int32_t j = 0; j + 1 < w->n; j++) pair_get(&P, w->sym[j], w->sym[j + 1])->count -= w->count;
            int32_t o = 0;
            for (int32_t j = 0; j < w->n; j++) {
                if (j + 1 < w->n && w->sym[j] == it.a && w->sym[j + 1] == it.b) { w->sym[o++] = z; j++; }
                else w->sym[o++] = w->sym[j];
            }
            w->n = o;
            for (int32_t j = 0; j + 1 < w->n; j++) {
                pair_stat *q = pair_get(&P, w->sym[j], w->sym[j + 1]);
                q->count += w->count;
                if (w->sym[j] != z && w->sym[j + 1] != z) continue; /* an old pair: already lists w */
                pair_add_word(q, list[li]);
                if (ntouched == ctouched) {
                    ctouched = ctouched * 2 + 256;
                    touched_a = xrealloc(touched_a, ctouched * sizeof *touched_a);
                    touched_b = xrealloc(touched_b, ctouched * sizeof *touched_b);
                }
                touched_a[ntouched] = w->sym[j];
                touched_b[ntouched++] = w->sym[j + 1];
            }
        }
        free(list);
        /* queue the current counts of pairs that involve the new token (the others
         * only decreased: their stale entries are re-queued when popped) */
        for (size_t t = 0; t < ntouched; t++) {
            pair_stat *q = pair_get(&P, touched_a[t], touched_b[t]);
            heap_push(&Q, (heap_item){q->count, touched_a[t], touched_b[t]});
        }
    }
    wp_vocab_from_tokens(out, T.tok, T.n);

    for (int32_t i = 0; i < T.n; i++) free(T.tok[i]);
    free(T.tok);
    strmap_free(&T.ids);
    for (int32_t i = 0; i < nw; i++) free(W[i].sym);
    free(W);
    strmap_free(&alpha);
    free(ae);
    free(acount);
    free(alpha_tok);
    for (size_t i = 0; i < P.n; i++) free(P.st[i].words);
    free(P.st);
    intmap_free(&P.index);
    free(Q.h);
    free(touched_a);
    free(touched_b);
}
