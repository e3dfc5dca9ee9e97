/* read_dictd: the dictd format — a dictionary whose headwords stand alone at
 * column 0 (1-4 lines: the headword and its variants) with the definition
 * indented below, as dictfmt writes it (FOLDOC). Each entry becomes one
 * paragraph "Headword , Variant : definition ...", the dictionary-head shape
 * the definition-genus features and discovery's definition heads read; a
 * category tag opening the definition is kept as words ("<operating system>"
 * -> "operating system", FOLDOC's class of the headword). dictfmt's own
 * entries ("00-database-...") are dropped; column-0 lines that no indented
 * block follows, or longer than 256 bytes, are text; so is a column-0 line
 * right after a definition's text or a white-space-only line inside it (no
 * empty line between: a word dictfmt wrapped to column 0, "{Brainfuck}" of
 * FOLDOC's "*brainfuck" — a new entry follows an empty line), or a "(url)" at
 * column 0 there (FOLDOC's long link addresses). A comma inside a headword would read as
 * the list's separator: a variant that only inverts another headword's
 * person name ("Stallman, Richard M." of "Richard Stallman") is dropped, and
 * other headwords are written without their commas ("Universal Description,
 * Discovery, and Integration", "Artisoft, Inc."). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "text/format_reader.h"

#define MAX_HEADS 4
#define HEAD_MAX 256

/* The line being read. */
enum { AT_START, COL0, COL0_TEXT, INDENT_BLANK, INDENT_TEXT, DROPPED };

typedef struct {
    clean_sink out;
    int64_t *entries;
    char *head[MAX_HEADS]; /* column-0 lines waiting for their definition */
    int nheads, blank_after_heads;
    int in_def, skip, first_def;
    int wrapped_word; /* the last line was a definition's text or white space: a column-0 line now is a word dictfmt wrapped */
    int state;
    char cur[HEAD_MAX + 1]; /* the column-0 line being read */
    size_t clen;
} dictd;

static void text(dictd *r, const char *s, size_t n) {
    if (n) r->out.text(r->out.ctx, s, n);
}

static void drop_heads(dictd *r) {
    for (int i = 0; i < r->nheads; i++) free(r->head[i]);
    r->nheads = 0;
    r->blank_after_heads = 0;
}

/* Column-0 lines that no definition followed: a paragraph of text. */
static void heads_as_text(dictd *r) {
    if (!r->nheads) return;
    text(r, "\n\n", 2);
    for (int i = 0; i < r->nheads; i++) {
        text(r, r->head[i], strlen(r->head[i]));
        text(r, "\n", 1);
    }
    text(r, "\n", 1);
    drop_heads(r);
}

static void end_entry(dictd *r) {
    if (r->in_def) text(r, "\n\n", 2);
    r->in_def = r->skip = 0;
}

static void col0_complete(dictd *r) {
    end_entry(r);
    if (r->blank_after_heads || r->nheads == MAX_HEADS) heads_as_text(r);
    size_t n = r->clen;
    while (n && isspace((unsigned char)r->cur[n - 1])) n--;
    r->head[r->nheads] = xmalloc(n + 1);
    memcpy(r->head[r->nheads], r->cur, n);
    r->head[r->nheads++][n] = 0;
}

/* Does `h` ("Surname, Given names") invert a person name that another of the
 * entry's headwords ends with ("... Surname")? */
static int inverted_person(const dictd *r, const char *h) {
    const char *comma = strchr(h, ',');
    if (!comma || strchr(comma + 1, ',') || comma[1] != ' ' || comma == h || memchr(h, ' ', (size_t)(comma - h)))
        return 0;
    size_t sl = (size_t)(comma - h);
    for (int i = 0; i < r->nheads; i++) {
        const char *o = r->head[i];
        size_t ol = strlen(o);
        if (o != h && ol > sl + 1 && o[ol - sl - 1] == ' ' && !memcmp(o + ol - sl, h, sl) && !strchr(o, ',')) return 1;
    }
    return 0;
}

/* The headword, its commas left out: ", " -> " ", other "," -> " ". */
static void headword_text(dictd *r, const char *h) {
    for (const char *c; (c = strchr(h, ',')); h = c + 1 + (c[1] == ' ')) {
        text(r, h, (size_t)(c - h));
        text(r, " ", 1);
    }
    text(r, h, strlen(h));
}

/* The first text of an indented line: starts an entry after headwords. */
static void start_definition_line(dictd *r) {
    if (r->nheads) {
        end_entry(r);
        if (strncmp(r->head[0], "00-database", 11) == 0 || strncmp(r->head[0], "00database", 10) == 0) {
            r->skip = 1;
        } else {
            text(r, "\n\n", 2);
            for (int i = 0, written = 0; i < r->nheads; i++) {
                if (inverted_person(r, r->head[i])) continue;
                if (written++) text(r, " , ", 3);
                headword_text(r, r->head[i]);
            }
            text(r, " : ", 3);
            if (r->entries) (*r->entries)++;
            r->in_def = r->first_def = 1;
        }
        drop_heads(r);
    }
    if (r->skip) r->state = DROPPED;
}

/* "<category words>" opening a definition: its length, 0 when s does not start with one. */
static size_t category_tag(const char *s, size_t n) {
    if (!n || s[0] != '<') return 0;
    for (size_t i = 1; i < n && i < 64; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '>') return i > 1 ? i + 1 : 0;
        if (!(isalnum(c) || c == ' ' || c == ',' || c == '-' || c == '/' || c == '.' || c >= 0x80)) return 0;
    }
    return 0;
}

static void indented_text(dictd *r, const char *s, size_t n) {
    if (r->state == DROPPED) return;
    if (r->first_def) {
        r->first_def = 0;
        size_t tag = category_tag(s, n);
        if (tag) {
            text(r, s + 1, tag - 2);
            s += tag;
            n -= tag;
        }
    }
    text(r, s, n);
}

static void dictd_line(void *rp, int64_t lineno, const char *s, size_t len, int eol) {
    (void)lineno;
    dictd *r = rp;
    if (r->state == AT_START && len) {
        if (s[0] == ' ' || s[0] == '\t') r->state = INDENT_BLANK;
        else if (r->wrapped_word || (r->in_def && s[0] == '(' && memmem(s, len, "://", 3))) r->state = INDENT_TEXT;
        else r->state = COL0, r->clen = 0;
        r->wrapped_word = 0;
    }
    if (r->state == INDENT_BLANK) {
        while (len && isspace((unsigned char)*s)) s++, len--;
        if (len) {
            r->state = INDENT_TEXT;
            start_definition_line(r);
        }
    }
    if (r->state == COL0) {
        if (r->clen + len <= HEAD_MAX) {
            memcpy(r->cur + r->clen, s, len);
            r->clen += len;
            len = 0;
        } else { /* too long for a headword: text */
            end_entry(r);
            heads_as_text(r);
            text(r, r->cur, r->clen);
            r->state = COL0_TEXT;
        }
    }
    if (r->state == INDENT_TEXT) indented_text(r, s, len);
    else if (r->state == COL0_TEXT) text(r, s, len);
    if (!eol) return;
    switch (r->state) {
    case COL0: col0_complete(r); break;
    case INDENT_TEXT:
        r->wrapped_word = r->in_def;
        text(r, "\n", 1);
        break;
    case INDENT_BLANK:
        if (r->in_def) { r->wrapped_word = 1; break; }
        /* fall through */
    case AT_START: /* a blank line */
        r->wrapped_word = 0;
        if (r->nheads) r->blank_after_heads = 1;
        else if (!r->skip) text(r, "\n", 1);
        break;
    case DROPPED: break;
    default: text(r, "\n", 1);
    }
    r->state = AT_START;
}

static void *dictd_open(const clean_sink *out, const char *doc, const reader_options *o) {
    dictd *r = xcalloc(1, sizeof *r);
    r->out = *out;
    r->entries = o->entries;
    r->out.document(r->out.ctx, doc);
    return r;
}

static void dictd_close(void *rp) {
    dictd *r = rp;
    if (r->state == COL0) col0_complete(r);
    heads_as_text(r);
    r->out.end(r->out.ctx);
    free(r);
}

const format_reader dictd_reader = {dictd_open, dictd_line, dictd_close};
