/* read_html: the html format — the text of an HTML page: tags removed (block
 * tags such as p, div, li, td, h1-h6, br, title end a paragraph; inline tags
 * such as b, i, span join their neighbours: "<b>IBM</b>'s" -> "IBM's"),
 * comments, declarations and the content of script and style dropped,
 * character references decoded (&amp; &eacute; &#233; &#xE9;; invalid code
 * points become U+FFFD, controls a space), source line breaks made spaces.
 * The text of an <a> element (up to 256 bytes) is reported as a linked name.
 * A byte-level state machine: tags and references may span lines and pieces. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <utf8proc.h>

#include "base/error.h"
#include "text/format_reader.h"

#define OUT_MAX 4096
#define LINK_MAX 256

enum { TEXT, LT, LT_BANG, LT_BANG_DASH, TAG, COMMENT, DECL, RAW, ENTITY };

typedef struct {
    clean_sink out;
    int state;
    char quote;              /* inside a quoted attribute value of a tag */
    char name[16];           /* tag name (lower case, truncated) */
    size_t nlen;
    int closing, name_done;
    char raw_end[16];        /* "</script" or "</style" while in RAW */
    size_t raw_match;
    int dashes;              /* COMMENT: "-" seen just before */
    char ent[36];
    size_t elen;
    char buf[OUT_MAX + 8];   /* text not yet passed on */
    size_t blen;
    int in_link, link_over;
    char link[LINK_MAX];
    size_t llen;
} html;

static void flush(html *r) {
    if (r->blen) r->out.text(r->out.ctx, r->buf, r->blen);
    r->blen = 0;
}

static void put(html *r, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (r->blen >= OUT_MAX && (c & 0xC0) != 0x80) flush(r);
        r->buf[r->blen++] = (char)c;
        if (r->in_link) {
            if (r->llen < LINK_MAX) r->link[r->llen++] = (char)c;
            else r->link_over = 1;
        }
    }
}

static void put_cp(html *r, int32_t cp) {
    if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0)) cp = ' ';
    if (!utf8proc_codepoint_valid(cp)) cp = 0xFFFD;
    utf8proc_uint8_t b[4];
    utf8proc_ssize_t k = utf8proc_encode_char(cp, b);
    put(r, (const char *)b, (size_t)k);
}

static void end_link(html *r) {
    if (!r->in_link) return;
    r->in_link = 0;
    if (r->link_over || !r->out.link) return;
    char t[LINK_MAX];
    size_t k = 0;
    for (size_t i = 0; i < r->llen; i++) {
        if (isspace((unsigned char)r->link[i])) {
            if (k && t[k - 1] != ' ') t[k++] = ' ';
        } else {
            t[k++] = r->link[i];
        }
    }
    while (k && t[k - 1] == ' ') k--;
    if (k) {
        flush(r);
        r->out.link(r->out.ctx, t, k);
    }
}

static int name_is(const html *r, const char *const *list) {
    for (; *list; list++)
        if (strcmp(r->name, *list) == 0) return 1;
    return 0;
}

/* A tag's name is read: what it means for the text. */
static void tag_named(html *r) {
    static const char *const BLOCK[] = {"p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6",
                                        "table", "tr", "td", "th", "title", "dt", "dd", "dl", "blockquote", "pre",
                                        "section", "article", "header", "footer", "nav", "aside", "hr", "form",
                                        "option", "figure", "figcaption", "main", "address", "caption", "body",
                                        "head", "html", "tbody", "thead", NULL};
    r->name_done = 1;
    if (name_is(r, BLOCK)) put(r, "\n\n", 2);
    if (strcmp(r->name, "a") == 0) {
        if (r->closing) end_link(r);
        else r->in_link = 1, r->llen = 0, r->link_over = 0;
    }
}

static void tag_closed(html *r) {
    r->state = TEXT;
    if (!r->name_done) tag_named(r);
    if (!r->closing && (strcmp(r->name, "script") == 0 || strcmp(r->name, "style") == 0)) {
        r->state = RAW;
        strcpy(r->raw_end, "</");
        strcat(r->raw_end, r->name);
        r->raw_match = 0;
    }
}

static int32_t named_entity(const char *s) {
    static const struct { const char *n; int32_t cp; } E[] = {
        {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}, {"nbsp", ' '},
        {"copy", 0xA9}, {"reg", 0xAE}, {"trade", 0x2122}, {"hellip", 0x2026}, {"mdash", 0x2014},
        {"ndash", 0x2013}, {"lsquo", 0x2018}, {"rsquo", 0x2019}, {"ldquo", 0x201C}, {"rdquo", 0x201D},
        {"laquo", 0xAB}, {"raquo", 0xBB}, {"bull", 0x2022}, {"middot", 0xB7}, {"deg", 0xB0},
        {"shy", 0xAD}, {"euro", 0x20AC}, {"pound", 0xA3}, {"times", 0xD7}, {"szlig", 0xDF},
        {"aacute", 0xE1}, {"agrave", 0xE0}, {"acirc", 0xE2}, {"auml", 0xE4}, {"atilde", 0xE3},
        {"aring", 0xE5}, {"aelig", 0xE6}, {"ccedil", 0xE7}, {"eacute", 0xE9}, {"egrave", 0xE8},
        {"ecirc", 0xEA}, {"euml", 0xEB}, {"iacute", 0xED}, {"igrave", 0xEC}, {"icirc", 0xEE},
        {"iuml", 0xEF}, {"ntilde", 0xF1}, {"oacute", 0xF3}, {"ograve", 0xF2}, {"ocirc", 0xF4},
        {"ouml", 0xF6}, {"otilde", 0xF5}, {"oslash", 0xF8}, {"uacute", 0xFA}, {"ugrave", 0xF9},
        {"ucirc", 0xFB}, {"uuml", 0xFC}, {"yacute", 0xFD}, {"yuml", 0xFF}, {"Aacute", 0xC1},
        {"Auml", 0xC4}, {"Aring", 0xC5}, {"Ccedil", 0xC7}, {"Eacute", 0xC9}, {"Ntilde", 0xD1},
        {"Oacute", 0xD3}, {"Ouml", 0xD6}, {"Oslash", 0xD8}, {"Uacute", 0xDA}, {"Uuml", 0xDC}};
    for (size_t i = 0; i < sizeof E / sizeof *E; i++)
        if (strcmp(E[i].n, s) == 0) return E[i].cp;
    return -1;
}

/* The reference "&ent;" is complete (ent without & and ;). */
static void entity_done(html *r) {
    r->ent[r->elen] = 0;
    int32_t cp = -1;
    if (r->ent[0] == '#') {
        int hex = r->ent[1] == 'x' || r->ent[1] == 'X';
        const char *d = r->ent + 1 + hex;
        if (*d) {
            long v = 0;
            for (; *d && v <= 0x10FFFF; d++) {
                int x = isdigit((unsigned char)*d) ? *d - '0' : hex && isxdigit((unsigned char)*d) ? tolower(*d) - 'a' + 10 : -1;
                if (x < 0) { v = -1; break; }
                v = v * (hex ? 16 : 10) + x;
            }
            cp = v < 0 ? -1 : v > 0x10FFFF || v == 0 ? 0xFFFD : (int32_t)v;
        }
    } else {
        cp = named_entity(r->ent);
    }
    if (cp >= 0) { put_cp(r, cp); return; }
    put(r, "&", 1);
    put(r, r->ent, r->elen);
    put(r, ";", 1);
}

/* One byte of the page. */
static void byte(html *r, char c) {
    unsigned char u = (unsigned char)c;
    switch (r->state) {
    case TEXT:
        if (c == '<') r->state = LT;
        else if (c == '&') r->state = ENTITY, r->elen = 0;
        else put(r, isspace(u) ? " " : &c, 1);
        return;
    case LT:
        if (c == '!') { r->state = LT_BANG; return; }
        if (c == '?') { r->state = DECL; return; }
        if (c == '/' || isalpha(u)) {
            r->state = TAG, r->quote = 0, r->nlen = 0, r->name_done = 0;
            r->closing = c == '/';
            r->name[0] = 0;
            if (isalpha(u)) r->name[r->nlen++] = (char)tolower(u), r->name[r->nlen] = 0;
            return;
        }
        r->state = TEXT;
        put(r, "<", 1);
        byte(r, c);
        return;
    case LT_BANG: r->state = c == '-' ? LT_BANG_DASH : DECL; return;
    case LT_BANG_DASH: r->state = c == '-' ? COMMENT : DECL, r->dashes = 0; return;
    case COMMENT:
        if (c == '>' && r->dashes >= 2) r->state = TEXT;
        r->dashes = c == '-' ? r->dashes + 1 : 0;
        return;
    case DECL:
        if (c == '>') r->state = TEXT;
        return;
    case TAG:
        if (r->quote) { if (c == r->quote) r->quote = 0; return; }
        if (!r->name_done) {
            if (isalnum(u) || c == '-' || c == ':') {
                if (r->nlen + 1 < sizeof r->name) r->name[r->nlen++] = (char)tolower(u), r->name[r->nlen] = 0;
                return;
            }
            tag_named(r);
        }
        if (c == '"' || c == '\'') r->quote = c;
        else if (c == '>') tag_closed(r);
        return;
    case RAW:
        if (tolower(u) == r->raw_end[r->raw_match]) {
            if (!r->raw_end[++r->raw_match]) {
                r->state = TAG, r->quote = 0, r->closing = 1, r->name_done = 1;
                strcpy(r->name, r->raw_end + 2);
            }
        } else {
            r->raw_match = tolower(u) == r->raw_end[0];
        }
        return;
    case ENTITY:
        if (c == ';' && r->elen) { r->state = TEXT; entity_done(r); return; }
        if ((isalnum(u) || (c == '#' && !r->elen)) && r->elen < sizeof r->ent - 1) { r->ent[r->elen++] = c; return; }
        r->state = TEXT;
        put(r, "&", 1);
        put(r, r->ent, r->elen);
        byte(r, c);
        return;
    }
}

static void html_line(void *rp, int64_t lineno, const char *s, size_t len, int eol) {
    (void)lineno;
    html *r = rp;
    for (size_t i = 0; i < len; i++) {
        /* a whole code point of text at once: the multi-byte ones are never markup */
        if (r->state == TEXT && ((unsigned char)s[i] & 0x80)) {
            size_t j = i + 1;
            while (j < len && ((unsigned char)s[j] & 0xC0) == 0x80) j++;
            put(r, s + i, j - i);
            i = j - 1;
            continue;
        }
        byte(r, s[i]);
    }
    if (eol) byte(r, '\n');
}

static void *html_open(const clean_sink *out, const char *doc, const reader_options *o) {
    (void)o;
    html *r = xcalloc(1, sizeof *r);
    r->out = *out;
    r->out.document(r->out.ctx, doc);
    return r;
}

static void html_close(void *rp) {
    html *r = rp;
    if (r->state == ENTITY) put(r, "&", 1), put(r, r->ent, r->elen);
    if (r->state == LT) put(r, "<", 1);
    flush(r);
    r->out.end(r->out.ctx);
    free(r);
}

const format_reader html_reader = {html_open, html_line, html_close};
