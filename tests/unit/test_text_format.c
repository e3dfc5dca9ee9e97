/* test_text_format: the format detector (text_format.h) on hand-written samples
 * of each layout, and the format names. */
#include "check.h"
#include "text/text_format.h"

static text_detection d;

static text_format detect(const char *doc, const char *sample) {
    text_format_detect(TEXT_FORMAT_AUTO, doc, sample, strlen(sample), &d);
    return d.format;
}

static void test_names(void) {
    text_format f;
    CHECK(text_format_parse("dictd", &f) == 0 && f == TEXT_FORMAT_DICTD);
    CHECK(text_format_parse("Dictd", &f) == -1);
    CHECK_STR(text_format_name(TEXT_FORMAT_MARKDOWN), "markdown");
}

static void test_by_name_and_doctype(void) {
    CHECK_EQ_INT(detect("notes/a.md", "plain words\n"), TEXT_FORMAT_MARKDOWN);
    CHECK_EQ_INT(detect("x.tar.gz:site/index.HTML", "words\n"), TEXT_FORMAT_HTML);
    CHECK_EQ_INT(detect("page", "\n  <!DOCTYPE html>\n<p>x"), TEXT_FORMAT_HTML);
}

static void test_dictd(void) {
    const char *s = "Pascal\n\n   <language> A programming language\n   designed by Wirth.\n\n"
                    "IBM\n\n   <company> A computer maker.\n\n"
                    "awk\n   <language> A text tool.\n";
    CHECK_EQ_INT(detect("foldoc.txt", s), TEXT_FORMAT_DICTD);
    CHECK_STR(d.evidence, "3 headwords at column 0 followed by indented blocks");
    /* a few section titles above indented prose are no dictionary */
    char *big = calloc(1, 20000);
    strcpy(big, "Chapter 1\n\n");
    for (int i = 0; i < 120; i++) strcat(big, "   some indented prose that goes on and on here\n");
    strcat(big, "Chapter 2\n\n   more prose\n");
    CHECK_EQ_INT(detect("book.txt", big), TEXT_FORMAT_PLAIN);
    free(big);
}

static void test_lines_or_plain(void) {
    const char *wrapped =
        "The quick brown fox jumps over the lazy dog and then it runs away\n"
        "into the forest where nobody can find it again for a very long\n"
        "time, which is what the fox wanted from the very beginning of all\n"
        "this. The dog did not care at all and went back to sleep in the\n"
        "sun until the evening came and the farmer called him for dinner\n"
        "at the big house.\n";
    CHECK_EQ_INT(detect("a.txt", wrapped), TEXT_FORMAT_PLAIN);
    CHECK(strstr(d.evidence, "hard-wrapped") != NULL);
    const char *per_line = "Ohio is a state of the United States in the Midwest .\n"
                           "Iowa grows corn .\n"
                           "The capital of France is Paris , a city on the Seine with many bridges and museums .\n"
                           "Texas is big .\n"
                           "Lake Eyre is a salt lake in South Australia that is usually dry for most of the year .\n"
                           "Utah has mountains .\n";
    CHECK_EQ_INT(detect("s.txt", per_line), TEXT_FORMAT_LINES);
    CHECK_EQ_INT(detect("short.txt", "Ohio is here.\nIowa too.\n"), TEXT_FORMAT_PLAIN);
    CHECK_EQ_INT(detect("empty.txt", ""), TEXT_FORMAT_PLAIN);
}

static void test_markdown_and_html_by_content(void) {
    CHECK_EQ_INT(detect("README", "# Title\n\nSee [a](x) and [b](y).\n\n## Use\n\n```\nmake\n```\n"), TEXT_FORMAT_MARKDOWN);
    CHECK(d.links & LINK_MARKDOWN);
    const char *page = "<div><p>One</p><p>Two</p><p>Three</p><br><b>x</b><i>y</i><a href=x>z</a><ul><li>q</li></ul></div>";
    CHECK_EQ_INT(detect("page", page), TEXT_FORMAT_HTML);
    CHECK_EQ_INT(d.links, 0);
}

static void test_link_markup_detected(void) {
    detect("j.txt", "A {hack} is {IBM}'s {C}-like thing.\n");
    CHECK_EQ_INT(d.links, LINK_BRACES);
    detect("code.txt", "int f() { return 1; } {a} {b} {c} while (x) { y; } if (z) { w; } for (;;) { }\n");
    CHECK_EQ_INT(d.links, 0); /* 3 link-shaped braces of 7: code */
    detect("w.txt", "[[Ohio]] and [[Iowa River|the Iowa]]\n");
    CHECK_EQ_INT(d.links, LINK_WIKI);
    text_format_detect(TEXT_FORMAT_LINES, "x.md", "{a} {b} {c}\n", 12, &d);
    CHECK(d.format == TEXT_FORMAT_LINES && d.links == LINK_BRACES);
}

int main(void) {
    check_prog_ = "test_text_format";
    RUN(test_names);
    RUN(test_by_name_and_doctype);
    RUN(test_dictd);
    RUN(test_lines_or_plain);
    RUN(test_markdown_and_html_by_content);
    RUN(test_link_markup_detected);
    return check_any_failed_;
}
