/* test_serve_lexicon: names, aliases, mention counts, prefix search, resolution and example
 * sentences of `probexpan serve` (common/serve/lexicon.h) on a small dataset folder written
 * here: entity table, aliases.txt and sentences.json. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "serve/lexicon.h"

static char dir[] = "/tmp/probexpan-lexicon-XXXXXX";

static void write_file(const char *name, const char *text) {
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

/* Rows: the method's entity table (eids differ from rows on purpose). */
static int64_t eids[] = {10, 11, 12, 13, 14, 15, 16, 17};
static char *names[] = {"New York", "York", "Sun Microsystems, Inc.", "International Business Machines", "Paris",
                        "Paris Hilton", "Big Apple Records", "Ohio"};
static lexicon *lex;

static lexicon *load(void) {
    entity_table t = {8, eids, names};
    write_file("entity2id.txt", "New York\t10\nYork\t11\n");
    write_file("aliases.txt", "# name<TAB>aliases\n"
                              "International Business Machines\tIBM\n"
                              "14\tCity of Light\n"
                              "Paris Hilton\tParis\n"
                              "Sun Microsystems, Inc.\tSun\tSUN\n"
                              "Nowhere\tX\n"
                              "New York\tBig Apple\n"
                              "Big Apple Records\tBig Apple\n");
    write_file("sentences.json",
               "{\"tokens\": [\"NYC\", \"is\", \"big\"], \"entityMentions\": [{\"start\": 0, \"end\": 0, \"entityId\": 10}]}\n"
               "\n"
               "{\"tokens\": [\"from\", \"New\", \"York\", \"to\", \"York\"], \"entityMentions\": [{\"start\": 1, \"end\": 2, \"entityId\": 10},"
               " {\"start\": 4, \"end\": 4, \"entityId\": 11}, {\"start\": 0, \"end\": 0, \"entityId\": 999}]}\n"
               "{\"tokens\": [\"IBM\", \"and\", \"Sun\"], \"entityMentions\": [{\"start\": 0, \"end\": 0, \"entityId\": 13},"
               " {\"start\": 2, \"end\": 2, \"entityId\": 12}]}\n"
               "{\"tokens\": [\"New\", \"York\", \"again\"], \"entityMentions\": [{\"start\": 0, \"end\": 1, \"entityId\": 10}]}\n");
    return lexicon_load(&t, dir);
}

static void test_names_aliases_mentions(void) {
    CHECK_EQ_INT(lexicon_entities(lex), 8);
    CHECK_EQ_INT(lexicon_row_of_eid(lex, 13), 3);
    CHECK_EQ_INT(lexicon_row_of_eid(lex, 999), -1);
    CHECK_EQ_INT(lexicon_mentions(lex, 0), 3);
    CHECK_EQ_INT(lexicon_mentions(lex, 1), 1);
    CHECK_EQ_INT(lexicon_mentions(lex, 7), 0);
    /* declared aliases first (as written), then mention forms that differ from the name */
    CHECK_EQ_INT(lexicon_alias_count(lex, 0), 2);
    CHECK_STR(lexicon_alias(lex, 0, 0), "Big Apple");
    CHECK_STR(lexicon_alias(lex, 0, 1), "NYC");
    CHECK_EQ_INT(lexicon_alias_count(lex, 2), 1); /* "SUN" is "Sun" normalised */
    CHECK_STR(lexicon_alias(lex, 3, 0), "IBM");
    CHECK_STR(lexicon_alias(lex, 4, 0), "City of Light"); /* the eid in the first field */
}

static void test_resolve(void) {
    int64_t close[5];
    int n;
    CHECK_EQ_INT(lexicon_resolve(lex, "ibm", close, 5, &n), 3);
    CHECK_EQ_INT(lexicon_resolve(lex, "new_york", close, 5, &n), 0);
    CHECK_EQ_INT(lexicon_resolve(lex, "Paris", close, 5, &n), 4); /* a name wins over an alias */
    CHECK_EQ_INT(lexicon_resolve(lex, "sun microsystems, inc.", close, 5, &n), 2);
    CHECK_EQ_INT(lexicon_resolve(lex, "Big Apple", close, 5, &n), -2); /* an alias of two entities */
    CHECK_EQ_INT(n, 2);
    CHECK((close[0] == 0 && close[1] == 6) || (close[0] == 6 && close[1] == 0));
    CHECK_EQ_INT(lexicon_resolve(lex, "Ohoi", close, 3, &n), -1);
    CHECK_EQ_INT(n, 3);
    CHECK_EQ_INT(close[0], 7); /* Ohio, the closest */
}

static void test_search(void) {
    int64_t rows[8], total;
    int n = lexicon_search(lex, "york", 8, rows, &total);
    CHECK_EQ_INT(n, 2);
    CHECK_EQ_INT(rows[0], 1); /* "York": the start of a name, before a later word of "New York" */
    CHECK_EQ_INT(rows[1], 0);
    n = lexicon_search(lex, "IB", 8, rows, &total);
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT(rows[0], 3);
    n = lexicon_search(lex, "paris", 8, rows, &total);
    CHECK_EQ_INT(n, 2);
    CHECK_EQ_INT(rows[0], 4); /* name starts: Paris (0 mentions) and Paris Hilton tie on kind and mentions: by name */
    n = lexicon_search(lex, "big apple", 1, rows, &total);
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT(total, 2);
    CHECK_EQ_INT(rows[0], 6); /* its name starts so; for New York it is an alias */
    n = lexicon_search(lex, "", 2, rows, &total);
    CHECK_EQ_INT(n, 2);
    CHECK_EQ_INT(total, 8);
    CHECK_EQ_INT(rows[0], 0); /* the most mentioned */
    CHECK_EQ_INT(lexicon_search(lex, "zzz", 8, rows, &total), 0);
    CHECK_EQ_INT(total, 0);
}

static void test_contexts(void) {
    lexicon_context c[LEXICON_CONTEXTS];
    int n = lexicon_contexts(lex, 0, c, LEXICON_CONTEXTS);
    CHECK_EQ_INT(n, 3);
    CHECK_EQ_INT(c[0].line, 1);
    CHECK_EQ_INT(c[1].line, 3); /* the blank line 2 counts as a line */
    CHECK_EQ_INT(c[1].ntokens, 5);
    CHECK_EQ_INT(c[1].start, 1);
    CHECK_EQ_INT(c[1].end, 2);
    const char *t = c[1].tokens;
    for (int i = 0; i < c[1].start; i++) t += strlen(t) + 1;
    CHECK_STR(t, "New");
    CHECK_EQ_INT(lexicon_contexts(lex, 0, c, 1), 1);
    CHECK_EQ_INT(lexicon_contexts(lex, 7, c, 5), 0);
    n = lexicon_contexts(lex, 1, c, 5);
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT(c[0].start, 4); /* York in "from New York to York" */
}

int main(void) {
    check_prog_ = "test_serve_lexicon";
    if (!mkdtemp(dir)) return 1;
    lex = load();
    RUN(test_names_aliases_mentions);
    RUN(test_resolve);
    RUN(test_search);
    RUN(test_contexts);
    lexicon_free(lex);
    for (const char *f = "entity2id.txt\0aliases.txt\0sentences.json\0"; *f; f += strlen(f) + 1) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s", dir, f);
        unlink(path);
    }
    rmdir(dir);
    return check_any_failed_;
}
