/* read_markdown: the markdown format — CommonMark-style text made prose:
 * headings, list items, table rows and quotes become paragraphs of their own
 * (so a list of names is no single run-on sentence), fenced code blocks, HTML
 * comments, thematic breaks, setext underlines and reference definitions
 * ("[x]: url") are dropped; inline, emphasis markers (* _ at one edge of a
 * word), backticks, backslash escapes and HTML tags are removed. [label](url)
 * links are left to link_markup.h (LINK_MARKDOWN). Block structure is read
 * from a line's first piece (its first 64 KiB). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "text/format_reader.h"

typedef struct {
    clean_sink out;
    int at_start;    /* the next piece starts a line */
    int drop_line;   /* the rest of this line is dropped */
    int block_line;  /* this line is a block of its own: "\n\n" at its end */
    int table_row;
    char fence;      /* '`' or '~' inside a fenced code block, else 0 */
    int in_comment;  /* inside <!-- --> */
} markdown;

static void text(markdown *r, const char *s, size_t n) {
    if (n) r->out.text(r->out.ctx, s, n);
}

static int word_byte(int c) { return isalnum(c) || c >= 0x80; }

/* Inline markup of s[0..n) removed. */
static void inline_text(markdown *r, const char *s, size_t n) {
    size_t run = 0, i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        size_t skip = 0, keep = 0; /* bytes dropped at i, then bytes kept after them */
        if (c == '*' || c == '_') {
            size_t j = i;
            while (j < n && s[j] == (char)c) j++;
            int before = i ? word_byte((unsigned char)s[i - 1]) : 0, after = j < n ? word_byte((unsigned char)s[j]) : 0;
            if (before != after) skip = j - i;
            else { i = j; continue; }
        } else if (c == '`') {
            skip = 1;
        } else if (c == '\\' && i + 1 < n && ispunct((unsigned char)s[i + 1])) {
            skip = 1, keep = 1;
        } else if (c == '|' && r->table_row) {
            text(r, s + run, i - run);
            text(r, " ; ", 3);
            run = ++i;
            continue;
        } else if (c == '<' && i + 1 < n && (isalpha((unsigned char)s[i + 1]) || s[i + 1] == '/' || s[i + 1] == '!')) {
            size_t j = i + 1;
            while (j < n && s[j] != '>' && s[j] != '<') j++;
            if (j < n && s[j] == '>') skip = j + 1 - i;
        }
        if (!skip) { i++; continue; }
        text(r, s + run, i - run);
        i += skip;
        run = i;
        i += keep;
    }
    text(r, s + run, n - run);
}

static size_t indent(const char *s, size_t n) {
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    return i;
}

/* Is s[0..n) (indentation skipped) made only of c, spaces, and >= 3 of c? */
static int rule_of(const char *s, size_t n, char c) {
    int count = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == c) count++;
        else if (s[i] != ' ' && s[i] != '\t') return 0;
    }
    return count >= 3 || (c == '=' && count >= 1);
}

/* Block structure of a line from its first piece; returns the offset of its text. */
static size_t line_start(markdown *r, const char *s, size_t n, int eol) {
    size_t i = indent(s, n);
    const char *p = s + i;
    size_t m = n - i;
    if (m >= 3 && (p[0] == '`' || p[0] == '~') && p[1] == p[0] && p[2] == p[0]) {
        if (!r->fence || r->fence == p[0]) r->fence = r->fence ? 0 : p[0];
        r->drop_line = 1;
        text(r, "\n\n", 2);
        return n;
    }
    if (r->fence) { r->drop_line = 1; return n; }
    if (m >= 4 && memcmp(p, "<!--", 4) == 0) r->in_comment = 1;
    if (r->in_comment) {
        const char *e = m >= 3 ? memmem(p, m, "-->", 3) : NULL;
        if (e) r->in_comment = 0;
        r->drop_line = 1;
        return n;
    }
    if (eol && (rule_of(p, m, '=') || rule_of(p, m, '-') || rule_of(p, m, '*') || rule_of(p, m, '_'))) {
        r->drop_line = 1;
        text(r, "\n\n", 2);
        return n;
    }
    while (m && p[0] == '>') { /* block quotes */
        p++, m--;
        size_t k = indent(p, m);
        p += k, m -= k;
    }
    size_t h = 0;
    while (h < m && h < 7 && p[h] == '#') h++;
    if (h >= 1 && h <= 6 && (h == m || p[h] == ' ')) {
        r->block_line = 1;
        text(r, "\n\n", 2);
        return (size_t)(p - s) + h;
    }
    if (m && p[0] == '|') {
        int sep = 1;
        for (size_t k = 0; k < m; k++) sep &= p[k] == '|' || p[k] == '-' || p[k] == ':' || p[k] == ' ';
        if (sep) { r->drop_line = 1; return n; }
        r->block_line = r->table_row = 1;
        text(r, "\n\n", 2);
        return (size_t)(p - s) + 1;
    }
    if (m && p[0] == '[') {
        const char *e = memchr(p, ']', m);
        if (e && e + 1 < p + m && e[1] == ':') { r->drop_line = 1; return n; }
    }
    size_t k = 0;
    if (m >= 2 && (p[0] == '-' || p[0] == '*' || p[0] == '+') && p[1] == ' ') k = 2;
    else {
        while (k < m && k < 9 && isdigit((unsigned char)p[k])) k++;
        if (!(k && k + 1 < m && (p[k] == '.' || p[k] == ')') && p[k + 1] == ' ')) k = 0;
        else k += 2;
    }
    if (k) text(r, "\n\n", 2);
    return (size_t)(p - s) + k;
}

static void markdown_line(void *rp, int64_t lineno, const char *s, size_t len, int eol) {
    (void)lineno;
    markdown *r = rp;
    if (r->at_start) {
        r->at_start = 0;
        r->drop_line = r->block_line = r->table_row = 0;
        size_t b = line_start(r, s, len, eol);
        size_t e = len;
        if (r->block_line && !r->table_row && eol) /* an ATX heading: its closing #s */
            while (e > b && (s[e - 1] == '#' || s[e - 1] == ' ')) e--;
        s += b;
        len = e - b;
    }
    if (!r->drop_line) inline_text(r, s, len);
    if (!eol) return;
    if (!r->drop_line) text(r, r->block_line ? "\n\n" : "\n", r->block_line ? 2 : 1);
    r->at_start = 1;
}

static void *markdown_open(const clean_sink *out, const char *doc, const reader_options *o) {
    (void)o;
    markdown *r = xcalloc(1, sizeof *r);
    r->out = *out;
    r->at_start = 1;
    r->out.document(r->out.ctx, doc);
    return r;
}

static void markdown_close(void *rp) {
    markdown *r = rp;
    r->out.end(r->out.ctx);
    free(r);
}

const format_reader markdown_reader = {markdown_open, markdown_line, markdown_close};
