/* link_markup: streaming removal of {link}, [[wiki]] and [label](url) markup (see link_markup.h). */
#include "text/link_markup.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "text/text_format.h"

#define PEND_MAX 512

/* What the pending bytes are: the markup being read. */
enum { NONE, BRACE, BRACKET, WIKI, MD_LABEL, MD_PAREN, MD_URL };

struct link_filter {
    clean_sink out, in;
    int syntaxes;
    int kind, image;  /* image: "![" (the whole link is dropped) */
    char pend[PEND_MAX + 8];
    size_t plen, label_end; /* label_end: Markdown label length (pend offset of "]") */
    unsigned char prev;     /* last byte passed on as text */
    int command;            /* prev ends a TeX command ("\\emph") */
};

static void pass_text(link_filter *f, const char *s, size_t n) {
    if (!n) return;
    f->out.text(f->out.ctx, s, n);
    f->prev = (unsigned char)s[n - 1];
}

/* The pending bytes were no link: they go on as text. */
static void give_up(link_filter *f) {
    pass_text(f, f->pend, f->plen);
    f->command = 0;
    f->plen = 0;
    f->kind = NONE;
    f->image = 0;
}

/* Emits s[0..n) with white-space runs made single spaces as text and as a linked name. */
static void emit_link(link_filter *f, const char *s, size_t n) {
    while (n && isspace((unsigned char)*s)) s++, n--;
    while (n && isspace((unsigned char)s[n - 1])) n--;
    char *t = xmalloc(n + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (isspace((unsigned char)s[i])) {
            if (k && t[k - 1] != ' ') t[k++] = ' ';
        } else {
            t[k++] = s[i];
        }
    }
    if (!k && !f->image) { free(t); give_up(f); return; } /* "{}", "[[ ]]": no link */
    int image = f->image;
    f->plen = 0;
    f->kind = NONE;
    f->image = 0;
    f->command = 0;
    if (image) { free(t); return; }
    pass_text(f, t, k);
    if (f->out.link) f->out.link(f->out.ctx, t, k);
    free(t);
}

/* "{label (url)}" content: the label when the parenthesised tail has no space
 * and looks like an address. */
static size_t brace_label(const char *s, size_t n) {
    if (n < 4 || s[n - 1] != ')') return n;
    const char *open = NULL;
    for (size_t i = n - 1; i-- > 0;)
        if (s[i] == '(') { open = s + i; break; }
    if (!open || open == s || !isspace((unsigned char)open[-1])) return n;
    size_t a = (size_t)(open - s);
    int address = 0;
    for (size_t i = a + 1; i + 1 < n; i++) {
        if (isspace((unsigned char)s[i])) return n;
        address |= s[i] == '.' || s[i] == '/' || s[i] == ':';
    }
    return address ? a : n;
}

static int blank_line_in_pend(const link_filter *f) {
    return f->plen >= 2 && f->pend[f->plen - 1] == '\n' && f->pend[f->plen - 2] == '\n';
}

/* Byte c extends the pending markup: 1 = consumed, 0 = the markup failed
 * (the pending bytes were passed on; c is to be read again as text). */
static int extend(link_filter *f, char c) {
    int nested = (f->kind == BRACE && c == '{') || (f->kind != BRACE && c == '[' && f->kind != BRACKET);
    /* too long: given up on a code-point boundary (pend has room for a character's tail) */
    int too_long = f->plen >= PEND_MAX && ((unsigned char)c & 0xC0) != 0x80;
    if (nested || too_long) { give_up(f); return 0; }
    f->pend[f->plen++] = c;
    if (blank_line_in_pend(f) || (f->kind == BRACE && c == ';')) { give_up(f); return 1; }
    switch (f->kind) {
    case BRACE:
        if (c == '}') {
            if (isspace((unsigned char)f->pend[f->plen - 2])) give_up(f);
            else emit_link(f, f->pend + 1, brace_label(f->pend + 1, f->plen - 2));
        }
        break;
    case BRACKET: /* after "[" (or "![") */
        if (c == '[' && (f->syntaxes & LINK_WIKI) && !f->image) f->kind = WIKI;
        else if (f->syntaxes & LINK_MARKDOWN) f->kind = MD_LABEL;
        else { f->plen--; give_up(f); return 0; }
        if (f->kind == MD_LABEL && c == ']') f->label_end = f->plen - 1, f->kind = MD_PAREN;
        break;
    case WIKI:
        if (c == ']' && f->pend[f->plen - 2] == ']') {
            size_t b = 2, e = f->plen - 2;
            const char *bar = memchr(f->pend + b, '|', e - b);
            if (bar) b = (size_t)(bar - f->pend) + 1;
            emit_link(f, f->pend + b, e - b);
        }
        break;
    case MD_LABEL:
        if (c == ']') f->label_end = f->plen - 1, f->kind = MD_PAREN;
        break;
    case MD_PAREN:
        if (c == '(') f->kind = MD_URL;
        else { f->plen--; give_up(f); return 0; }
        break;
    case MD_URL:
        if (c == ')') {
            size_t b = f->image ? 2 : 1;
            emit_link(f, f->pend + b, f->label_end - b);
        }
        break;
    }
    return 1;
}

static void filter_text(void *ctx, const char *s, size_t n) {
    link_filter *f = ctx;
    if (!f->syntaxes) { pass_text(f, s, n); return; }
    size_t run = 0, i = 0;
    while (i < n) {
        char c = s[i];
        if (f->kind != NONE) {
            if (extend(f, c)) i++;
            run = i;
            continue;
        }
        int brace = c == '{' && (f->syntaxes & LINK_BRACES) && !f->command && f->prev != '$';
        int bracket = c == '[' && (f->syntaxes & (LINK_WIKI | LINK_MARKDOWN));
        int bang = c == '!' && (f->syntaxes & LINK_MARKDOWN) && i + 1 < n && s[i + 1] == '[';
        if (!brace && !bracket && !bang) {
            f->command = c == '\\' || (f->command && isalpha((unsigned char)c));
            f->prev = (unsigned char)c;
            i++;
            continue;
        }
        pass_text(f, s + run, i - run);
        f->kind = brace ? BRACE : BRACKET;
        f->image = bang;
        f->pend[0] = c;
        f->plen = 1;
        if (bang) f->pend[f->plen++] = s[++i];
        run = ++i;
    }
    pass_text(f, s + run, n - run);
}

static void filter_document(void *ctx, const char *article) {
    link_filter *f = ctx;
    if (f->kind) give_up(f);
    f->prev = 0;
    f->out.document(f->out.ctx, article);
}

static void filter_end(void *ctx) {
    link_filter *f = ctx;
    if (f->kind) give_up(f);
    f->out.end(f->out.ctx);
}

static void filter_link(void *ctx, const char *name, size_t len) {
    link_filter *f = ctx;
    if (f->out.link) f->out.link(f->out.ctx, name, len);
}

link_filter *link_filter_new(const clean_sink *out, int syntaxes) {
    link_filter *f = xcalloc(1, sizeof *f);
    f->out = *out;
    f->syntaxes = syntaxes;
    f->in = (clean_sink){f, filter_document, filter_text, filter_end, filter_link};
    return f;
}

const clean_sink *link_filter_sink(link_filter *f) { return &f->in; }

void link_filter_free(link_filter *f) { free(f); }
