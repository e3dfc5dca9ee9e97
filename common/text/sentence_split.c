/* sentence_split: streaming word tokeniser and sentence splitter (see sentence_split.h). */
#include "text/sentence_split.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <utf8proc.h>

#include "base/error.h"

#define MAX_CHUNK 4096 /* bytes of one white-space-free run before it is cut */

/* What a token means to the sentence splitter. */
enum { TK_WORD = 1, TK_PUNCT, TK_OPENER, TK_CLOSER, TK_TERMINAL, TK_SOFT };

typedef void (*token_sink)(void *ctx, const char *tok, size_t len, int kind, int attached);

/* ---------------- character classes ---------------- */

static int32_t decode(const char *s, size_t len, size_t *k) {
    utf8proc_int32_t cp;
    utf8proc_ssize_t n = utf8proc_iterate((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)len, &cp);
    if (n <= 0) { *k = 1; return 0xFFFD; } /* callers validate; never crash on bad bytes */
    *k = (size_t)n;
    return cp;
}

/* Start of the last code point of s[0..len). */
static size_t last_cp_start(const char *s, size_t len) {
    size_t p = len - 1;
    while (p > 0 && ((unsigned char)s[p] & 0xC0) == 0x80) p--;
    return p;
}

static int is_space_cp(int32_t cp) {
    if (cp < 0x80) return cp <= 0x20 || cp == 0x7f;
    if (cp == 0xFEFF || cp == 0x85) return 1;
    utf8proc_category_t c = utf8proc_category(cp);
    return c == UTF8PROC_CATEGORY_ZS || c == UTF8PROC_CATEGORY_ZL || c == UTF8PROC_CATEGORY_ZP ||
           c == UTF8PROC_CATEGORY_CC;
}

static int is_lead_punct(int32_t cp) {
    if (cp == '"' || cp == '\'' || cp == '`' || cp == 0xBF || cp == 0xA1) return 1;
    utf8proc_category_t c = utf8proc_category(cp);
    return c == UTF8PROC_CATEGORY_PS || c == UTF8PROC_CATEGORY_PI || c == UTF8PROC_CATEGORY_PF ||
           c == UTF8PROC_CATEGORY_SC;
}

static int is_closer(int32_t cp) {
    if (cp == '"' || cp == '\'') return 1;
    utf8proc_category_t c = utf8proc_category(cp);
    return c == UTF8PROC_CATEGORY_PE || c == UTF8PROC_CATEGORY_PF;
}

static int is_trail_punct(int32_t cp) {
    if (cp == '&' || cp == '@' || cp == '#' || cp == '/' || cp == '\\' || cp == '.') return 0;
    utf8proc_category_t c = utf8proc_category(cp);
    return c == UTF8PROC_CATEGORY_PE || c == UTF8PROC_CATEGORY_PI || c == UTF8PROC_CATEGORY_PF ||
           c == UTF8PROC_CATEGORY_PO;
}

static int is_letter_cp(int32_t cp) {
    utf8proc_category_t c = utf8proc_category(cp);
    return c >= UTF8PROC_CATEGORY_LU && c <= UTF8PROC_CATEGORY_LO;
}

static int first_category(const char *s, size_t len) {
    size_t k;
    return len ? (int)utf8proc_category(decode(s, len, &k)) : 0;
}

/* ---------------- abbreviations and clitics ---------------- */

static const char *const ABBREV[] = {
    "mr", "mrs", "ms", "dr", "prof", "st", "mt", "ft", "gen", "col", "lt", "capt", "sgt", "maj",
    "adm", "cmdr", "rev", "hon", "sen", "rep", "gov", "pres", "supt", "messrs", "mme", "mlle",
    "jr", "sr", "esq", "co", "bros", "vs", "al", "approx", "ave", "blvd", "rd", "dept", "univ",
    "assn", "fig", "figs", "vol", "vols", "pp", "ca", "cf", "viz", "esp", "ed", "eds", "jan",
    "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", NULL};
/* Abbreviations that also end a sentence when a capitalised word follows. */
static const char *const SOFT_ABBREV[] = {"etc", "inc", "ltd", "corp", NULL};

static int in_list(const char *const *list, const char *s, size_t n) {
    for (; *list; list++)
        if (strlen(*list) == n && strncasecmp(*list, s, n) == 0) return 1;
    return 0;
}

/* s[0..n) ends in '.'. Returns 0 (not an abbreviation), TK_WORD (keeps its dot,
 * never ends a sentence) or TK_SOFT. */
static int abbreviation_kind(const char *s, size_t n) {
    if (n < 2) return 0;
    if (in_list(SOFT_ABBREV, s, n - 1)) return TK_SOFT;
    if (in_list(ABBREV, s, n - 1)) return TK_WORD;
    size_t k;
    int32_t cp = decode(s, n, &k);
    if (k == n - 1 && utf8proc_category(cp) == UTF8PROC_CATEGORY_LU) return TK_WORD; /* initial "J." */
    /* dotted letter groups: at least two groups of 1-3 letters, each followed by '.' */
    int groups = 0;
    size_t i = 0;
    while (i < n) {
        size_t letters = 0;
        while (i < n && s[i] != '.') {
            cp = decode(s + i, n - i, &k);
            if (!is_letter_cp(cp)) return 0;
            letters++;
            i += k;
        }
        if (letters < 1 || letters > 3 || i >= n) return 0;
        i++; /* the dot */
        groups++;
    }
    return groups >= 2 ? TK_WORD : 0;
}

static int ends_in_letter(const char *w, size_t n) {
    if (!n) return 0;
    size_t p = last_cp_start(w, n), k;
    return is_letter_cp(decode(w + p, n - p, &k));
}

/* Length of the clitic at the end of word w[0..n) ("'s", "n't", ...), 0 if none.
 * The part before it must end in a letter. */
static size_t clitic_len(const char *w, size_t n) {
    static const char *const SUFFIX[] = {"s", "re", "ve", "ll", "d", "m", NULL};
    for (int form = 0; form < 2; form++) { /* apostrophe: ASCII ' or U+2019 */
        const char *apo = form ? "\xE2\x80\x99" : "'";
        size_t al = strlen(apo);
        for (int i = 0; SUFFIX[i]; i++) {
            size_t sl = strlen(SUFFIX[i]);
            if (n <= al + sl || strncasecmp(w + n - sl, SUFFIX[i], sl) || memcmp(w + n - sl - al, apo, al)) continue;
            if (ends_in_letter(w, n - sl - al)) return sl + al;
        }
        /* n't: the 'n' belongs to the clitic ("do n't") */
        if (n > 2 + al && (w[n - 1] == 't' || w[n - 1] == 'T') && memcmp(w + n - 1 - al, apo, al) == 0 &&
            (w[n - 2 - al] == 'n' || w[n - 2 - al] == 'N') && ends_in_letter(w, n - 2 - al))
            return 2 + al;
    }
    return 0;
}

/* Is w[0..n) exactly a clitic on its own ("'s", "'re", ...)? */
static int is_bare_clitic(const char *w, size_t n) {
    if (n < 2 || w[0] != '\'') return 0;
    return in_list((const char *const[]){"s", "re", "ve", "ll", "d", "m", NULL}, w + 1, n - 1);
}

/* ---------------- one white-space-free chunk -> tokens ---------------- */

static void emit_word(const char *w, size_t n, int attached, token_sink sink, void *ctx) {
    if (!n) return;
    size_t c = clitic_len(w, n);
    sink(ctx, w, n - c, TK_WORD, attached);
    if (c) sink(ctx, w + n - c, c, TK_WORD, 1);
}

/* Core of a chunk: words separated by "--" or em/en dashes. */
static void emit_core(const char *s, size_t n, int attached, token_sink sink, void *ctx) {
    size_t start = 0, i = 0;
    while (i < n) {
        size_t k, dash = 0;
        int32_t cp = decode(s + i, n - i, &k);
        if (cp == 0x2014 || cp == 0x2013) dash = k;
        else if (cp == '-' && i + 1 < n && s[i + 1] == '-') {
            dash = 2;
            while (i + dash < n && s[i + dash] == '-') dash++;
        }
        if (!dash) { i += k; continue; }
        if (i > start) { emit_word(s + start, i - start, attached, sink, ctx); attached = 1; }
        sink(ctx, s + i, dash, TK_PUNCT, attached);
        attached = 1;
        i += dash;
        start = i;
    }
    if (start < n) emit_word(s + start, n - start, attached, sink, ctx);
}

static void tokenize_chunk(const char *c, size_t len, token_sink sink, void *ctx) {
    size_t b = 0, e = len, k;
    int attached = 0;
    /* opening punctuation */
    while (b < e) {
        int32_t cp = decode(c + b, e - b, &k);
        if (!is_lead_punct(cp) || is_bare_clitic(c + b, e - b)) break;
        sink(ctx, c + b, k, TK_OPENER, attached);
        attached = 1;
        b += k;
    }
    /* closing punctuation, collected from the end */
    struct { size_t off, len; int kind; } tail[64];
    int nt = 0, core_kind = TK_WORD;
    while (e > b && nt < 64) {
        size_t p = last_cp_start(c + b, e - b) + b;
        int32_t cp = decode(c + p, e - p, &k);
        size_t q = e;
        if (cp == '.') {
            while (q > b && c[q - 1] == '.') q--;
            if (e - q == 1) {
                int ab = abbreviation_kind(c + b, e - b);
                if (ab) { core_kind = ab; break; }
            }
            tail[nt].kind = TK_TERMINAL;
        } else if (cp == '!' || cp == '?') {
            while (q > b && (c[q - 1] == '!' || c[q - 1] == '?')) q--;
            tail[nt].kind = TK_TERMINAL;
        } else if (cp == 0x2026) {
            q = p;
            tail[nt].kind = TK_TERMINAL;
        } else if (is_trail_punct(cp)) {
            q = p;
            tail[nt].kind = is_closer(cp) ? TK_CLOSER : TK_PUNCT;
        } else {
            break;
        }
        tail[nt].off = q;
        tail[nt].len = e - q;
        nt++;
        e = q;
    }
    if (e > b) {
        if (core_kind == TK_SOFT) sink(ctx, c + b, e - b, TK_SOFT, attached);
        else emit_core(c + b, e - b, attached, sink, ctx);
        attached = 1;
    }
    for (int i = nt - 1; i >= 0; i--) {
        sink(ctx, c + tail[i].off, tail[i].len, tail[i].kind, attached);
        attached = 1;
    }
}

/* ---------------- token lists ---------------- */

/* Tokens as NUL-terminated strings in one growing buffer, with their offsets. */
typedef struct {
    char *buf;
    size_t len, cap;
    size_t *off;
    int n, ncap;
} token_list;

static void list_push(token_list *l, const char *tok, size_t len) {
    if (l->n == l->ncap) {
        l->ncap = l->ncap * 2 + 64;
        l->off = xrealloc(l->off, sizeof *l->off * (size_t)l->ncap);
    }
    if (l->len + len + 1 > l->cap) {
        l->cap = (l->len + len + 1) * 2;
        l->buf = xrealloc(l->buf, l->cap);
    }
    l->off[l->n++] = l->len;
    memcpy(l->buf + l->len, tok, len);
    l->buf[l->len + len] = 0;
    l->len += len + 1;
}

static void list_add(void *ctx, const char *tok, size_t len, int kind, int attached) {
    (void)kind;
    (void)attached;
    list_push(ctx, tok, len);
}

/* ---------------- the streaming splitter ---------------- */

struct splitter {
    int max_tokens;
    sentence_fn fn;
    void *ctx;
    char *chunk;          /* current white-space-free run */
    size_t clen;
    int newlines;         /* newlines since the last chunk */
    token_list pending;   /* tokens of the pending sentence */
    char **ptrs;
    int overlong, state; /* state: 0 inside, 1 after . ! ?, 2 after a soft abbreviation */
    int64_t n_overlong;
};

splitter *splitter_new(int max_tokens, sentence_fn fn, void *ctx) {
    if (max_tokens < 1) die("splitter_new: max_tokens must be >= 1");
    splitter *s = xcalloc(1, sizeof *s);
    s->max_tokens = max_tokens;
    s->fn = fn;
    s->ctx = ctx;
    s->chunk = xmalloc(MAX_CHUNK + 8);
    s->ptrs = xmalloc(sizeof *s->ptrs * (size_t)max_tokens);
    return s;
}

void splitter_free(splitter *s) {
    if (!s) return;
    free(s->chunk);
    free(s->pending.buf);
    free(s->pending.off);
    free(s->ptrs);
    free(s);
}

int64_t splitter_overlong(const splitter *s) { return s->n_overlong; }

static void flush_sentence(splitter *s) {
    token_list *l = &s->pending;
    if (l->n) {
        if (s->overlong) {
            s->n_overlong++;
        } else {
            for (int i = 0; i < l->n; i++) s->ptrs[i] = l->buf + l->off[i];
            s->fn(s->ctx, s->ptrs, l->n);
        }
    }
    l->n = 0;
    l->len = 0;
    s->overlong = 0;
    s->state = 0;
}

static void append_token(splitter *s, const char *tok, size_t len) {
    if (s->pending.n >= s->max_tokens) s->overlong = 1;
    else list_push(&s->pending, tok, len);
}

static void on_token(void *ctx, const char *tok, size_t len, int kind, int attached) {
    splitter *s = ctx;
    if (s->state && kind == TK_CLOSER && attached) { append_token(s, tok, len); return; }
    int cat = first_category(tok, len);
    if (s->state == 1) {
        if (kind == TK_TERMINAL) { append_token(s, tok, len); return; }
        if (cat == UTF8PROC_CATEGORY_LL) s->state = 0;
        else flush_sentence(s);
    } else if (s->state == 2) {
        if (cat == UTF8PROC_CATEGORY_LU || cat == UTF8PROC_CATEGORY_LT) flush_sentence(s);
        else s->state = 0;
    }
    append_token(s, tok, len);
    if (kind == TK_TERMINAL) s->state = 1;
    else if (kind == TK_SOFT) s->state = 2;
}

static void end_chunk(splitter *s) {
    if (!s->clen) return;
    tokenize_chunk(s->chunk, s->clen, on_token, s);
    s->clen = 0;
}

void splitter_feed(splitter *s, const char *text, size_t len) {
    size_t i = 0;
    while (i < len) {
        size_t k = 1;
        unsigned char b = (unsigned char)text[i];
        int32_t cp = b < 0x80 ? b : decode(text + i, len - i, &k);
        if (is_space_cp(cp)) {
            end_chunk(s);
            if (cp == '\n' || cp == 0x2029) {
                s->newlines += cp == '\n' ? 1 : 2;
                if (s->newlines >= 2) flush_sentence(s);
            }
        } else {
            s->newlines = 0;
            if (s->clen + k > MAX_CHUNK) end_chunk(s);
            memcpy(s->chunk + s->clen, text + i, k);
            s->clen += k;
        }
        i += k;
    }
}

void splitter_end_document(splitter *s) {
    end_chunk(s);
    flush_sentence(s);
    s->newlines = 0;
}

/* ---------------- word_tokenize ---------------- */

int word_tokenize(const char *text, char ***tokens) {
    token_list l = {0};
    size_t n = strlen(text), i = 0, start = 0;
    int in_word = 0;
    while (i <= n) {
        size_t k = 1;
        int32_t cp = i < n ? decode(text + i, n - i, &k) : ' ';
        int space = i == n || is_space_cp(cp);
        if (space && in_word) {
            tokenize_chunk(text + start, i - start, list_add, &l);
            in_word = 0;
        } else if (!space && !in_word) {
            start = i;
            in_word = 1;
        }
        i += k;
    }
    char **out = xmalloc(sizeof(char *) * (size_t)(l.n + 1) + l.len + 1);
    char *strings = (char *)(out + l.n + 1);
    if (l.len) memcpy(strings, l.buf, l.len);
    for (int t = 0; t < l.n; t++) out[t] = strings + l.off[t];
    out[l.n] = NULL;
    free(l.buf);
    free(l.off);
    *tokens = out;
    return l.n;
}
