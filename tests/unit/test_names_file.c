/* test_names_file: a names file's lines read from memory (names_text_lines, serve's review) give
 * the fields annotate's reader (names_file_read) gives, whatever the line ends, byte-order mark,
 * comments and spaces, while keeping each line's bytes; the comment is found with its tabs; bad
 * lines are errors naming the line; the comment annotate --discover writes is read back. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataset/names_file.h"
#include "check.h"

static void test_split_comment(void) {
    char line[] = "  New York \t NYC\t\t # 3 mentions; merged: NYC (acronym)\tone context\tanother";
    char **fields = NULL;
    const char *comment;
    int cap = 0, n = names_line_split(line, &fields, &cap, &comment);
    CHECK_EQ_INT(n, 2);
    if (n == 2) {
        CHECK_STR(fields[0], "New York");
        CHECK_STR(fields[1], "NYC");
    }
    CHECK_STR(comment, "# 3 mentions; merged: NYC (acronym)\tone context\tanother");
    char comment_line[] = "   # a comment\twith a tab", blank[] = " \t ", bare[] = "Ohio\t#";
    CHECK_EQ_INT(names_line_split(comment_line, &fields, &cap, &comment), 0);
    CHECK_STR(comment, "# a comment\twith a tab");
    CHECK_EQ_INT(names_line_split(blank, &fields, &cap, &comment), 0);
    CHECK(comment == NULL);
    CHECK_EQ_INT(names_line_split(bare, &fields, &cap, &comment), 1);
    CHECK_STR(comment, "#");
    free(fields);
}

/* The entity lines as "name|alias|..." joined by newlines, from either reader. */
typedef struct { char *buf; size_t size; FILE *f; char *raw; size_t rawsize; FILE *rawf; } lines_seen;

static void seen_fields(lines_seen *s, char **fields, int n) {
    for (int i = 0; i < n; i++) fprintf(s->f, "%s%s", i ? "|" : "", fields[i]);
    fputc('\n', s->f);
}

static void from_file(void *ctx, const char *file, int64_t lineno, char **fields, int n) {
    (void)file, (void)lineno;
    seen_fields(ctx, fields, n);
}

static void from_text(void *ctx, const char *raw, size_t rawlen, char **fields, int n, const char *comment) {
    lines_seen *s = ctx;
    (void)comment;
    fwrite(raw, 1, rawlen, s->rawf);
    if (n) seen_fields(s, fields, n);
}

static void test_same_as_file_reader(void) {
    static const char text[] = "\xEF\xBB\xBF" "Ohio\tBuckeye State\r\n"
                               "# a comment\r\n"
                               "\r\n"
                               "  New York \t NYC \t# 2 mentions\tcontext\r\n"
                               "Texas\tTX\n"
                               "\xEF\xBB\xBF" "Iowa\r\r\n"
                               "Utah\t\tUT\r";
    char path[] = "/tmp/probexpan-test-names-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0 && write(fd, text, sizeof text - 1) == (ssize_t)(sizeof text - 1));
    close(fd);
    lines_seen a = {0}, b = {0};
    a.f = open_memstream(&a.buf, &a.size);
    CHECK_EQ_INT(names_file_read(path, from_file, &a), 5);
    fclose(a.f);
    b.f = open_memstream(&b.buf, &b.size);
    b.rawf = open_memstream(&b.raw, &b.rawsize);
    char err[128] = "";
    CHECK_EQ_INT(names_text_lines(text, sizeof text - 1, from_text, &b, err, sizeof err), 0);
    fclose(b.f), fclose(b.rawf);
    CHECK_STR(a.buf, "Ohio|Buckeye State\nNew York|NYC\nTexas|TX\n\xEF\xBB\xBFIowa\r\nUtah|UT\r\n");
    CHECK_STR(b.buf, a.buf);
    /* every line's bytes kept: written back, the text as it was */
    CHECK(b.rawsize == sizeof text - 1 && !memcmp(b.raw, text, sizeof text - 1));
    free(a.buf), free(b.buf), free(b.raw);
    unlink(path);
}

static void count_line(void *ctx, const char *raw, size_t rawlen, char **fields, int n, const char *comment) {
    (void)raw, (void)rawlen, (void)fields, (void)n, (void)comment;
    (*(int *)ctx)++;
}

static void test_bad_lines(void) {
    char err[128] = "";
    int lines = 0;
    static const char bad_utf8[] = "Ohio\nTex\xC3\x28s\nIowa\n", nul[] = "Ohio\n\nIo\0wa\n";
    CHECK_EQ_INT(names_text_lines(bad_utf8, sizeof bad_utf8 - 1, count_line, &lines, err, sizeof err), -1);
    CHECK_STR(err, "line 2: not valid UTF-8, or a NUL byte");
    CHECK_EQ_INT(lines, 1);
    lines = 0;
    CHECK_EQ_INT(names_text_lines(nul, sizeof nul - 1, count_line, &lines, err, sizeof err), -1);
    CHECK_STR(err, "line 3: not valid UTF-8, or a NUL byte");
    CHECK_EQ_INT(lines, 2);
    /* NAMES_MAX_LINE bytes and the CR of a CRLF: accepted; one byte more: refused */
    size_t n = NAMES_MAX_LINE + 2;
    char *longest = malloc(n);
    memset(longest, 'a', n);
    longest[n - 2] = '\r', longest[n - 1] = '\n';
    lines = 0;
    CHECK_EQ_INT(names_text_lines(longest, n, count_line, &lines, err, sizeof err), 0);
    CHECK_EQ_INT(lines, 1);
    longest[n - 2] = 'a';
    CHECK_EQ_INT(names_text_lines(longest, n, count_line, &lines, err, sizeof err), -1);
    CHECK_STR(err, "line 1: longer than 1 MiB");
    free(longest);
}

static void test_discover_comment(void) {
    char *merged = names_merged_add(NULL, "IBM", "acronym");
    merged = names_merged_add(merged, "Big Blue", "head");
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    names_comment_write(f, 41, merged);
    fputs("\tthe context", f);
    fclose(f);
    CHECK_STR(buf, "# 41 mentions; merged: IBM (acronym), Big Blue (head)\tthe context");
    CHECK_EQ_INT(names_comment_mentions(buf), 41);
    char rule[32];
    names_comment_rule(buf, "IBM", rule, sizeof rule);
    CHECK_STR(rule, "acronym");
    names_comment_rule(buf, "Big Blue", rule, sizeof rule);
    CHECK_STR(rule, "head");
    names_comment_rule(buf, "Blue", rule, sizeof rule); /* the end of another alias */
    CHECK_STR(rule, "");
    names_comment_rule(buf, "context", rule, sizeof rule);
    CHECK_STR(rule, "");
    names_comment_rule(NULL, "IBM", rule, sizeof rule);
    CHECK_STR(rule, "");
    char *more = names_comment_with_mentions(buf, 50);
    CHECK_STR(more, "# 50 mentions; merged: IBM (acronym), Big Blue (head)\tthe context");
    CHECK_EQ_INT(names_comment_mentions("# a note"), -1);
    CHECK_EQ_INT(names_comment_mentions("#7 mentions"), 7);
    CHECK_EQ_INT(names_comment_mentions(NULL), -1);
    free(more), free(buf), free(merged);
}

TEST_MAIN_BEGIN("test_names_file")
RUN(test_split_comment);
RUN(test_same_as_file_reader);
RUN(test_bad_lines);
RUN(test_discover_comment);
TEST_MAIN_END
