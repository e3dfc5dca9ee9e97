/* test_format_readers: each format's reader (format_reader.h) and the link
 * markup filter (link_markup.h) on hand-written documents: the clean text, the
 * documents and the linked names they give (expected outputs written by hand). */
#include "check.h"
#include "text/format_reader.h"
#include "text/link_markup.h"
#include "text/linked_names.h"
#include "text/text_source.h"
#include "text/text_format.h"

/* What a reader gave: "<article>" at a document's start, "</>" at its end,
 * the text in between; links as "name|name|". */
typedef struct { char text[4096], links[1024]; int bad_pieces; } capture;

static void cat(char *dst, size_t cap, const char *s, size_t n) {
    size_t l = strlen(dst);
    if (l + n >= cap) n = cap - l - 1;
    memcpy(dst + l, s, n);
    dst[l + n] = 0;
}
static void on_doc(void *ctx, const char *article) {
    capture *c = ctx;
    cat(c->text, sizeof c->text, "<", 1);
    cat(c->text, sizeof c->text, article, strlen(article));
    cat(c->text, sizeof c->text, ">", 1);
}
static void on_text(void *ctx, const char *s, size_t n) {
    capture *c = ctx;
    c->bad_pieces += utf8_invalid_offset(s, n) >= 0; /* every piece of text is whole UTF-8 */
    cat(c->text, sizeof c->text, s, n);
}
static void on_end(void *ctx) { capture *c = ctx; cat(c->text, sizeof c->text, "</>", 3); }
static void on_link(void *ctx, const char *s, size_t n) {
    capture *c = ctx;
    cat(c->links, sizeof c->links, s, n);
    cat(c->links, sizeof c->links, "|", 1);
}

static capture got;

/* Runs reader over text (lines split at "\n"; each given in pieces of `step`
 * bytes, 0 = whole) through a link filter with `links`; returns the text. */
static const char *run_step(const format_reader *rd, const char *text, int links, int ids, size_t step, int64_t *entries) {
    memset(&got, 0, sizeof got);
    clean_sink out = {&got, on_doc, on_text, on_end, on_link};
    link_filter *f = link_filter_new(&out, links);
    reader_options o = {ids, entries};
    void *r = rd->open(link_filter_sink(f), "d", &o);
    int64_t lineno = 1;
    const char *s = text;
    while (*s) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s), at = 0;
        do {
            size_t k = step && len - at > step ? step : len - at;
            rd->line(r, lineno, s + at, k, at + k == len);
            at += k;
        } while (at < len);
        lineno++;
        s += len + (nl != NULL);
    }
    rd->close(r);
    link_filter_free(f);
    return got.text;
}
static const char *run(const format_reader *rd, const char *text, int links) { return run_step(rd, text, links, 0, 0, NULL); }

static void test_plain_keeps_lines(void) {
    CHECK_STR(run(&plain_reader, "Ohio is a\nstate.\n\nIowa too.\n", 0), "<d>Ohio is a\nstate.\n\nIowa too.\n</>");
}

static void run_ids_no_tab(void *arg) { run_step(&lines_reader, arg, 0, 1, 0, NULL); }

static void test_lines_one_document_per_line(void) {
    CHECK_STR(run(&lines_reader, "Ohio here\n\nIowa there\n", 0), "<d:1>Ohio here</><d:3>Iowa there</>");
    CHECK_STR(run_step(&lines_reader, "a1\tOhio here\n\nb2\tIowa\n", 0, 1, 2, NULL), "<a1>Ohio here</><b2>Iowa</>");
    CHECK_DIES(3, "d: line 1: expected ID<TAB>text", run_ids_no_tab, "no tab\n");
}

static void test_dictd_entries(void) {
    const char *dict =
        "00-database-short\n     The dictionary\n\n"
        "Pascal\nPASCAL\n\n   <language> (After {Blaise Pascal}) A\n   programming language.\n\n   It has {records}.\n\n"
        "IBM\n   <company> The {IBM}'s maker.\n\n"
        "Free text\nat column 0\n\nmore\n";
    int64_t entries = 0;
    CHECK_STR(run_step(&dictd_reader, dict, LINK_BRACES, 0, 0, &entries),
              "<d>\n\nPascal , PASCAL : language (After Blaise Pascal) A\nprogramming language.\n\nIt has records.\n\n\n\n"
              "\n\nIBM : company The IBM's maker.\n\n\n\n\n\nFree text\nat column 0\n\n\n\nmore\n\n</>");
    CHECK_EQ_INT(entries, 2);
    CHECK_STR(got.links, "Blaise Pascal|records|IBM|");
}

static void test_dictd_commas_in_headwords(void) {
    /* an inverted person name is dropped; other commas are not the list's separator */
    CHECK_STR(run(&dictd_reader, "Richard Stallman\nStallman, Richard M.\n\n   <person> Founder.\n", LINK_BRACES),
              "<d>\n\nRichard Stallman : person Founder.\n</>");
    CHECK_STR(run(&dictd_reader, "Universal Description, Discovery, and Integration\nUDDI\n\n   (UDDI) A protocol.\n", LINK_BRACES),
              "<d>\n\nUniversal Description Discovery and Integration , UDDI : (UDDI) A protocol.\n</>");
    /* a comma-first variant that inverts nobody's name keeps its words */
    CHECK_STR(run(&dictd_reader, "Artisoft, Inc.\nArtisoft\n\n   A company.\n", LINK_BRACES),
              "<d>\n\nArtisoft Inc. , Artisoft : A company.\n</>");
}

static void test_dictd_long_word_at_column_0(void) {
    /* dictfmt's long URL: a white-space-only line, then the word at column 0 */
    CHECK_STR(run(&dictd_reader, "Doom\n   See {Washington\n   \n(ftp://x.edu/doom)}.\n", LINK_BRACES),
              "<d>\n\nDoom : See Washington.\n</>");
    CHECK_STR(got.links, "Washington|");
    /* a word wrapped to column 0 right after the text (FOLDOC's "*brainfuck", "CooL"), also
       before an empty line inside the definition; the entry after an empty line is an entry */
    CHECK_STR(run(&dictd_reader, "W\n\n   A variant of the\n{Brainfuck}\n   language with\ncommand\n\n   More.\n\nX\n\n   An x.\n",
                  LINK_BRACES),
              "<d>\n\nW : A variant of the\nBrainfuck\nlanguage with\ncommand\n\nMore.\n\n\n\n\n\nX : An x.\n</>");
}

static void test_markdown_blocks_and_inline(void) {
    const char *md = "# The *Title* #\n\nSee [Ohio](http://o.org) and **Iowa**.\n"
                     "- Texas\n- `Utah`\n\n```\ncode {x}\n```\n| A | B |\n|---|---|\n[r]: http://r\nsnake_case 2 * 3 <b>x</b>\n";
    CHECK_STR(run(&markdown_reader, md, LINK_MARKDOWN),
              "<d>\n\n The Title\n\n\nSee Ohio and Iowa.\n\n\nTexas\n\n\nUtah\n\n\n\n\n\n\n\n A  ;  B  ; \n\n"
              "snake_case 2 * 3 x\n</>");
    CHECK_STR(got.links, "Ohio|");
}

static void test_html_text(void) {
    const char *page = "<!DOCTYPE html><html><head><title>T&amp;C</title><style>p{x}</style>\n"
                       "<script>if (a<b) x();</script></head><body><p>Caf&eacute; <b>IBM</b>'s\n"
                       "<a href=\"x\">New\n York</a> &#233;&#xE9;&#0;&bogus; <!-- no --> a < b</p></body></html>\n";
    CHECK_STR(run(&html_reader, page, 0),
              "<d>\n\n\n\n\n\nT&C\n\n \n\n\n\n\n\nCafé IBM's New  York éé\xEF\xBF\xBD&bogus;  a < b\n\n\n\n\n\n </>");
    CHECK_STR(got.links, "New York|");
}

static void test_link_markup(void) {
    CHECK_STR(run(&plain_reader, "{IBM}'s {C}-like {VAX}/{VMS} re{routing} \\emph{x} {} { x; }\n", LINK_BRACES),
              "<d>IBM's C-like VAX/VMS rerouting \\emph{x} {} { x; }\n</>");
    CHECK_STR(got.links, "IBM|C|VAX|VMS|routing|");
    CHECK_STR(run(&plain_reader, "{More (about.html)} {a\n\nb}\n", LINK_BRACES), "<d>More {a\n\nb}\n</>");
    CHECK_STR(run(&plain_reader, "[[Ohio River|the Ohio]] and [[Iowa]] [1]\n", LINK_WIKI), "<d>the Ohio and Iowa [1]\n</>");
    CHECK_STR(got.links, "the Ohio|Iowa|");
    CHECK_STR(run(&plain_reader, "![logo](x.png) [Ohio](o) [no] (x)\n", LINK_MARKDOWN), "<d> Ohio [no] (x)\n</>");
    /* the same, fed a byte at a time */
    CHECK_STR(run_step(&plain_reader, "{IBM}'s [[Iowa]] [Ohio](o)\n", LINK_BRACES | LINK_WIKI | LINK_MARKDOWN, 0, 1, NULL),
              "<d>IBM's Iowa Ohio\n</>");
    CHECK_STR(run(&plain_reader, "{IBM}'s\n", 0), "<d>{IBM}'s\n</>");
    /* an unclosed brace longer than the filter holds is given up between characters, not inside one */
    char lng[1400] = "{";
    for (int i = 0; i < 600; i++) strcat(lng, "\xc3\xa9"); /* byte 512 is a continuation byte */
    strcat(lng, "\n");
    run(&plain_reader, lng, LINK_BRACES);
    CHECK_EQ_INT(got.bad_pieces, 0);
    CHECK_EQ_INT((int64_t)strlen(got.text), (int64_t)strlen(lng) + 6); /* "<d>" + text + "</>" */
}

static void test_linked_names(void) {
    linked_names *l = linked_names_new();
    const char *links[] = {"IBM", "C", "IBM", ""}; /* an empty name is not counted */
    for (int i = 0; i < 4; i++) linked_names_add(l, links[i], strlen(links[i]));
    linked_name *v;
    int64_t n = linked_names_sorted(l, &v);
    CHECK_EQ_INT(n, 2);
    CHECK_EQ_INT(linked_names_links(l), 3);
    if (n == 2) {
        CHECK_STR(v[0].name, "IBM");
        CHECK_EQ_INT(v[0].count, 2);
        CHECK_STR(v[1].name, "C");
    }
    free(v);
    linked_names_free(l);
}

int main(void) {
    check_prog_ = "test_format_readers";
    RUN(test_plain_keeps_lines);
    RUN(test_lines_one_document_per_line);
    RUN(test_dictd_entries);
    RUN(test_dictd_commas_in_headwords);
    RUN(test_dictd_long_word_at_column_0);
    RUN(test_markdown_blocks_and_inline);
    RUN(test_html_text);
    RUN(test_link_markup);
    RUN(test_linked_names);
    return check_any_failed_;
}
