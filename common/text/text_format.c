/* text_format: format names and the layout / link-markup detector (see text_format.h). */
#include "text/text_format.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/error.h"
#include "base/log.h"

static const char *const NAMES[TEXT_FORMAT_COUNT] = {"auto", "plain", "lines", "dictd", "markdown", "html"};

const char *text_format_name(text_format f) { return f < TEXT_FORMAT_COUNT ? NAMES[f] : "?"; }

int text_format_parse(const char *name, text_format *f) {
    for (int i = 0; i < TEXT_FORMAT_COUNT; i++)
        if (strcmp(name, NAMES[i]) == 0) { *f = (text_format)i; return 0; }
    return -1;
}

/* ---------------- the sample as lines ---------------- */

typedef struct { const char *s; size_t len; } line_ref;

/* Lines of sample[0..len) (a last line without "\n" included); count in *n. */
static line_ref *split_lines(const char *s, size_t len, size_t *n) {
    size_t cap = 64, k = 0;
    line_ref *l = xmalloc(cap * sizeof *l);
    size_t i = 0;
    while (i < len) {
        const char *nl = memchr(s + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - s) : len;
        if (k == cap) l = xrealloc(l, (cap *= 2) * sizeof *l);
        l[k].s = s + i;
        l[k].len = e - i;
        k++;
        i = e + 1;
    }
    *n = k;
    return l;
}

static int blank(line_ref l) {
    for (size_t i = 0; i < l.len; i++)
        if (!isspace((unsigned char)l.s[i])) return 0;
    return 1;
}

static int indented(line_ref l) { return l.len && (l.s[0] == ' ' || l.s[0] == '\t'); }

/* Code points of l without trailing white space. */
static size_t width(line_ref l) {
    size_t e = l.len, w = 0;
    while (e && isspace((unsigned char)l.s[e - 1])) e--;
    for (size_t i = 0; i < e; i++) w += ((unsigned char)l.s[i] & 0xC0) != 0x80;
    return w;
}

/* Code points of l's first word (after its indentation). */
static size_t first_word(line_ref l) {
    size_t i = 0, w = 0;
    while (i < l.len && isspace((unsigned char)l.s[i])) i++;
    for (; i < l.len && !isspace((unsigned char)l.s[i]); i++) w += ((unsigned char)l.s[i] & 0xC0) != 0x80;
    return w;
}

static int starts_with_ci(const char *s, size_t len, const char *prefix) {
    size_t k = strlen(prefix);
    return len >= k && strncasecmp(s, prefix, k) == 0;
}

/* ---------------- the layouts ---------------- */

static int by_extension(const char *doc, text_detection *d) {
    static const struct { const char *ext; text_format f; } EXT[] = {
        {".md", TEXT_FORMAT_MARKDOWN}, {".markdown", TEXT_FORMAT_MARKDOWN}, {".html", TEXT_FORMAT_HTML},
        {".htm", TEXT_FORMAT_HTML}, {".xhtml", TEXT_FORMAT_HTML}};
    size_t n = strlen(doc);
    for (size_t i = 0; i < sizeof EXT / sizeof *EXT; i++) {
        size_t k = strlen(EXT[i].ext);
        if (n > k && strcasecmp(doc + n - k, EXT[i].ext) == 0) {
            d->format = EXT[i].f;
            snprintf(d->evidence, sizeof d->evidence, "the name ends in %s", EXT[i].ext);
            return 1;
        }
    }
    return 0;
}

static int html_start(const char *s, size_t len, text_detection *d) {
    size_t i = 0;
    while (i < len && isspace((unsigned char)s[i])) i++;
    if (starts_with_ci(s + i, len - i, "<!doctype html") || starts_with_ci(s + i, len - i, "<html")) {
        d->format = TEXT_FORMAT_HTML;
        snprintf(d->evidence, sizeof d->evidence, "it starts with an HTML doctype or <html>");
        return 1;
    }
    return 0;
}

/* dictd: runs of 1-4 short column-0 lines (headwords) followed, after blank
 * lines, by an indented block. */
static int dictd_layout(const line_ref *l, size_t n, text_detection *d) {
    int64_t heads = 0, runs = 0, ind = 0, nonblank = 0;
    size_t i = 0;
    while (i < n) {
        if (blank(l[i])) { i++; continue; }
        nonblank++;
        if (indented(l[i])) { ind++; i++; continue; }
        size_t j = i, longest = 0;
        while (j < n && !blank(l[j]) && !indented(l[j])) longest = l[j].len > longest ? l[j].len : longest, j++;
        nonblank += (int64_t)(j - i) - 1;
        runs++;
        size_t k = j;
        while (k < n && blank(l[k])) k++;
        if (j - i <= 4 && longest <= 100 && k < n && indented(l[k])) heads++;
        i = j;
    }
    if (heads < 3 || heads * 10 < runs * 6 || ind * 10 < nonblank * 4 || heads * 40 < nonblank) return 0;
    char c[32];
    d->format = TEXT_FORMAT_DICTD;
    snprintf(d->evidence, sizeof d->evidence, "%s headwords at column 0 followed by indented blocks", fmt_count(c, heads));
    return 1;
}

static int html_tags(const char *s, size_t len, text_detection *d) {
    static const char *const TAGS[] = {"p", "div", "a", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "table", "tr",
                                       "td", "span", "body", "head", "title", "b", "i", "em", "strong", "img",
                                       "script", "style", "meta", "pre", "code", NULL};
    int64_t tags = 0, closing = 0;
    for (size_t i = 0; i + 1 < len; i++) {
        if (s[i] != '<') continue;
        size_t j = i + 1;
        int close = s[j] == '/';
        j += (size_t)close;
        size_t b = j;
        while (j < len && isalnum((unsigned char)s[j])) j++;
        if (j == b || j >= len || !(s[j] == '>' || s[j] == ' ' || s[j] == '/' || s[j] == '\n')) continue;
        for (int t = 0; TAGS[t]; t++)
            if (strlen(TAGS[t]) == j - b && strncasecmp(TAGS[t], s + b, j - b) == 0) {
                tags++;
                closing += close;
                break;
            }
    }
    if (tags < 10 || closing < 3) return 0;
    char c[32];
    d->format = TEXT_FORMAT_HTML;
    snprintf(d->evidence, sizeof d->evidence, "%s HTML tags", fmt_count(c, tags));
    return 1;
}

static int markdown_layout(const line_ref *l, size_t n, const char *s, size_t len, text_detection *d) {
    int64_t headings = 0, fences = 0, links = 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = 0;
        while (k < l[i].len && k < 3 && l[i].s[k] == ' ') k++;
        const char *p = l[i].s + k;
        size_t m = l[i].len - k, h = 0;
        while (h < m && h < 7 && p[h] == '#') h++;
        if (h >= 1 && h <= 6 && h < m && p[h] == ' ') headings++;
        if (starts_with_ci(p, m, "```") || starts_with_ci(p, m, "~~~")) fences++;
    }
    for (size_t i = 0; i + 1 < len; i++)
        if (s[i] == ']' && s[i + 1] == '(') links++;
    if (headings + fences / 2 + links < 3 || headings + fences == 0) return 0;
    d->format = TEXT_FORMAT_MARKDOWN;
    snprintf(d->evidence, sizeof d->evidence, "%lld headings, %lld code fences, %lld [label](url) links",
             (long long)headings, (long long)fences, (long long)links);
    return 1;
}

static int cmp_size(const void *a, const void *b) {
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* lines vs plain: does a line break fall where the next word would not fit? */
static void lines_or_plain(const line_ref *l, size_t n, text_detection *d) {
    size_t *w = xmalloc((n + 1) * sizeof *w), m = 0;
    for (size_t i = 0; i < n; i++)
        if (!blank(l[i])) w[m++] = width(l[i]);
    d->format = TEXT_FORMAT_PLAIN;
    if (!m) {
        snprintf(d->evidence, sizeof d->evidence, "no text in the sample");
        free(w);
        return;
    }
    qsort(w, m, sizeof *w, cmp_size);
    size_t cols = w[m * 9 / 10]; /* the wrap width: 90th percentile of the line widths */
    free(w);
    int64_t pairs = 0, full = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        if (blank(l[i]) || blank(l[i + 1])) continue;
        pairs++;
        size_t a = width(l[i]);
        if (2 * a >= cols && a + 1 + first_word(l[i + 1]) > cols) full++;
    }
    char p[32], f[32];
    if (pairs >= 5 && full * 2 < pairs) {
        d->format = TEXT_FORMAT_LINES;
        snprintf(d->evidence, sizeof d->evidence, "%s of %s line breaks follow a line that is not full: one document per line",
                 fmt_count(f, pairs - full), fmt_count(p, pairs));
    } else if (pairs >= 5) {
        snprintf(d->evidence, sizeof d->evidence, "%s of %s line breaks end a full line of %zu columns: hard-wrapped text",
                 fmt_count(f, full), fmt_count(p, pairs), cols);
    } else {
        snprintf(d->evidence, sizeof d->evidence, "paragraphs separated by blank lines");
    }
}

/* ---------------- link markup ---------------- */

/* A "{" at s[i] that opens a link: after no word character or backslash, a
 * non-space first, a "}" within 200 bytes without "{" ";" or a blank line, no
 * space before the "}". */
static int brace_link_at(const char *s, size_t len, size_t i) {
    if (i && (isalnum((unsigned char)s[i - 1]) || s[i - 1] == '\\' || s[i - 1] == '$')) return 0;
    if (i + 2 >= len || isspace((unsigned char)s[i + 1]) || s[i + 1] == '}') return 0;
    for (size_t j = i + 1; j < len && j < i + 200; j++) {
        char c = s[j];
        if (c == '}') return !isspace((unsigned char)s[j - 1]);
        if (c == '{' || c == ';' || (c == '\n' && j + 1 < len && s[j + 1] == '\n')) return 0;
    }
    return 0;
}

static void detect_links(const char *s, size_t len, text_detection *d) {
    if (d->format == TEXT_FORMAT_HTML) return;
    int64_t braces = 0, links = 0, wiki = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '{') braces++, links += brace_link_at(s, len, i);
        if (s[i] == '[' && i + 1 < len && s[i + 1] == '[') {
            const char *e = memchr(s + i, ']', len - i < 200 ? len - i : 200);
            wiki += e && e + 1 < s + len && e[1] == ']';
        }
    }
    size_t el = strlen(d->evidence);
    char c[32];
    if (links >= 3 && links * 10 >= braces * 7) {
        d->links |= LINK_BRACES;
        snprintf(d->evidence + el, sizeof d->evidence - el, "; {link} markup: %s links", fmt_count(c, links));
        el = strlen(d->evidence);
    }
    if (wiki >= 2) {
        d->links |= LINK_WIKI;
        snprintf(d->evidence + el, sizeof d->evidence - el, "; [[wiki]] links: %lld", (long long)wiki);
    }
    if (d->format == TEXT_FORMAT_MARKDOWN) d->links |= LINK_MARKDOWN;
}

void text_format_detect(text_format format, const char *doc, const char *s, size_t len, text_detection *d) {
    memset(d, 0, sizeof *d);
    d->format = format;
    if (format != TEXT_FORMAT_AUTO) {
        snprintf(d->evidence, sizeof d->evidence, "as told (--format)");
    } else if (!by_extension(doc, d) && !html_start(s, len, d)) {
        size_t n;
        line_ref *l = split_lines(s, len, &n);
        if (!dictd_layout(l, n, d) && !html_tags(s, len, d) && !markdown_layout(l, n, s, len, d))
            lines_or_plain(l, n, d);
        free(l);
    }
    detect_links(s, len, d);
}
