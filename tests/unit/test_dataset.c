/* test_dataset: dataset reading from a folder, .tar.gz (with and without a top
 * folder), .tar and .zip built here; the real mini-ese archive; and every
 * bad-input case (exit 3 with file, member and line), checked in a forked child. */
#include <archive.h>
#include <archive_entry.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "archive_fixture.h"
#include "check.h"
#include "dataset/dataset.h"
#include "dataset/entitynames.h"
#include "base/error.h"

static char tmp[256];

/* Writes n bytes (NULs included) to tmp/<rel>, creating its folders. */
static void write_bytes(const char *rel, const char *data, size_t n) {
    char p[512];
    snprintf(p, sizeof p, "%s/%s", tmp, rel);
    for (char *s = strchr(p + strlen(tmp) + 1, '/'); s; s = strchr(s + 1, '/')) {
        *s = 0;
        mkdir(p, 0755);
        *s = '/';
    }
    FILE *f = fopen(p, "wb");
    fwrite(data, 1, n, f);
    fclose(f);
}

static void write_file(const char *rel, const char *text) { write_bytes(rel, text, strlen(text)); }

/* A small valid dataset in tmp/<dir>/ ; CRLF in the queries on purpose. */
static void make_dataset(const char *dir) {
    char p[256];
    snprintf(p, sizeof p, "%s/entity2id.txt", dir);
    write_file(p, "Ohio\t10\nTexas\t11\nNew York\t12\n\nZürich\t7\n");
    snprintf(p, sizeof p, "%s/sentences.json", dir);
    write_file(p, "{\"tokens\": [\"Ohio\"], \"entityMentions\": []}\n{\"tokens\": [\"x\"]}\n");
    snprintf(p, sizeof p, "%s/query/states.txt", dir);
    write_file(p, "10 11\r\n12 10 11\r\nEXIT\r\n7 7\r\n");
    snprintf(p, sizeof p, "%s/query/cities.txt", dir);
    write_file(p, "12 7\n");
    snprintf(p, sizeof p, "%s/gt/states.txt", dir);
    write_file(p, "10\tOhio\t1\n11\tTexas\t2\n12\tNew York\t0\n");
    snprintf(p, sizeof p, "%s/gt/cities.txt", dir);
    write_file(p, "12\tNew York\t1\n7\tZürich\t-1\n");
}

/* Writes every regular file below tmp/<dir> into an archive; names are
 * prefixed with `prefix` (e.g. "ds/" or "./"). */
static void add_tree(struct archive *a, const char *root, const char *prefix) {
    static const char *const files[] = {"entity2id.txt", "sentences.json", "query/states.txt",
                                        "query/cities.txt", "gt/states.txt", "gt/cities.txt", NULL};
    for (int i = 0; files[i]; i++) {
        char fp[600], name[300];
        snprintf(fp, sizeof fp, "%s/%s", root, files[i]);
        snprintf(name, sizeof name, "%s%s", prefix, files[i]);
        archive_add_file(a, fp, name);
    }
}

static void make_archive(const char *dir, const char *out, const char *prefix, int zip, int gz) {
    char root[300], op[300];
    snprintf(root, sizeof root, "%s/%s", tmp, dir);
    snprintf(op, sizeof op, "%s/%s", tmp, out);
    struct archive *a = archive_write_new();
    if (zip) archive_write_set_format_zip(a);
    else archive_write_set_format_pax_restricted(a);
    if (gz) archive_write_add_filter_gzip(a);
    archive_write_open_filename(a, op);
    add_tree(a, root, prefix);
    archive_write_close(a);
    archive_write_free(a);
}

static const char *tp(const char *rel) {
    static char buf[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmp, rel);
    return buf[k];
}

static void check_small(const char *path) {
    entity_table t;
    dataset_read_entities(path, &t);
    CHECK_EQ_INT(t.n, 4);
    if (t.n == 4) {
        CHECK_STR(t.name[0], "Ohio");
        CHECK_EQ_INT(t.eid[0], 10);
        CHECK_STR(t.name[2], "New York");
        CHECK_STR(t.name[3], "Zürich");
        CHECK_EQ_INT(t.eid[3], 7);
    }
    entity_table_free(&t);
    query_set qs;
    name_read_queries(path, &qs);
    CHECK_EQ_INT(qs.n, 3); /* cities (1), then states (2, EXIT stops the rest) */
    if (qs.n == 3) {
        CHECK_STR(qs.q[0].class_name, "cities");
        CHECK_EQ_INT(qs.q[0].nseeds, 2);
        CHECK_EQ_INT(qs.q[0].seeds[1], 7);
        CHECK_STR(qs.q[1].class_name, "states");
        CHECK_EQ_INT(qs.q[2].nseeds, 3);
        CHECK_EQ_INT(qs.q[2].seeds[0], 12);
        CHECK_EQ_INT(qs.q[2].seeds[2], 11);
    }
    query_set_free(&qs);
    gt_set gs;
    dataset_read_gt(path, &gs);
    CHECK_EQ_INT(gs.n, 2);
    if (gs.n == 2) {
        CHECK_STR(gs.c[0].class_name, "cities");
        CHECK_EQ_INT(gs.c[0].n, 1);
        CHECK_EQ_INT(gs.c[0].members[0], 12);
        CHECK_STR(gs.c[1].class_name, "states");
        CHECK_EQ_INT(gs.c[1].n, 2);
        CHECK_EQ_INT(gs.c[1].members[1], 11);
    }
    gt_set_free(&gs);
}

typedef struct { int n; int64_t lineno[8]; char text[8][64]; char where[128]; } lines_seen;
static void collect(void *ctx, const char *member, const char *where, int64_t lineno, char *line, size_t len) {
    (void)member;
    lines_seen *s = ctx;
    if (s->n < 8) {
        s->lineno[s->n] = lineno;
        snprintf(s->text[s->n], 64, "%s|%zu", line, len);
    }
    s->n++;
    snprintf(s->where, sizeof s->where, "%s", where);
}

static void test_folder(void) {
    make_dataset("ds");
    check_small(tp("ds"));
    lines_seen s = {0};
    CHECK_EQ_INT(dataset_read_lines(tp("ds"), "query/states.txt", collect, &s), 1);
    CHECK_EQ_INT(s.n, 4);
    CHECK_STR(s.text[0], "10 11|5"); /* CR stripped */
    CHECK_EQ_INT(s.lineno[3], 4);
    CHECK_STR(s.text[3], "7 7|3");
    /* a parent folder holding the dataset as its only subfolder works too */
    write_file("wrap/ds/entity2id.txt", "A\t1\n");
    entity_table t;
    dataset_read_entities(tp("wrap"), &t);
    CHECK_EQ_INT(t.n, 1);
    entity_table_free(&t);
    CHECK_EQ_INT(dataset_read_lines(tp("ds"), "nonexistent.txt", collect, &s), 0);
    write_file("bom/entity2id.txt", "\xEF\xBB\xBF" "A\t1\nB\t2"); /* byte-order mark, no final newline */
    dataset_read_entities(tp("bom"), &t);
    CHECK_EQ_INT(t.n, 2);
    if (t.n == 2) { CHECK_STR(t.name[0], "A"); CHECK_STR(t.name[1], "B"); CHECK_EQ_INT(t.eid[1], 2); }
    entity_table_free(&t);
}

static void test_archives(void) {
    make_dataset("ds");
    make_archive("ds", "top.tar.gz", "ds/", 0, 1);
    make_archive("ds", "flat.tar.gz", "./", 0, 1);
    make_archive("ds", "plain.tar", "", 0, 0);
    make_archive("ds", "top.zip", "ds/", 1, 0);
    check_small(tp("top.tar.gz"));
    check_small(tp("flat.tar.gz"));
    check_small(tp("plain.tar"));
    check_small(tp("top.zip"));
    lines_seen s = {0};
    dataset_read_lines(tp("top.tar.gz"), "sentences.json", collect, &s);
    CHECK_EQ_INT(s.n, 2);
    CHECK_STR(s.text[1], "{\"tokens\": [\"x\"]}|17");
    CHECK(strstr(s.where, "top.tar.gz:sentences.json") != NULL);
}

/* Runs fn(arg) in a child; returns its exit code and its stderr in err. */
static int in_child(void (*fn)(const char *), const char *arg, char *err, size_t errn) {
    char ef[300];
    snprintf(ef, sizeof ef, "%s/child.err", tmp);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen(ef, "w", stderr)) _exit(99);
        fn(arg);
        _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    FILE *f = fopen(ef, "r");
    size_t n = f ? fread(err, 1, errn - 1, f) : 0;
    err[n] = 0;
    if (f) fclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void read_entities_fn(const char *p) { entity_table t; dataset_read_entities(p, &t); }
static void read_gt_fn(const char *p) { gt_set g; dataset_read_gt(p, &g); }
static void read_queries_fn(const char *p) { query_set q; name_read_queries(p, &q); }
static void noop_line(void *c, const char *m, const char *w, int64_t l, char *s, size_t n) {
    (void)c, (void)m, (void)w, (void)l, (void)s, (void)n;
}
static void read_all_fn(const char *p) { dataset_read_lines(p, "sentences.json", noop_line, NULL); }

#define EXPECT_BAD(fn, path, pattern) do { char err_[2048]; int rc_ = in_child(fn, path, err_, sizeof err_); \
    CHECK_MSG(rc_ == 3, "%s: exit %d, expected 3 (%s)", path, rc_, err_); \
    CHECK_MSG(strstr(err_, pattern) != NULL, "stderr \"%s\" lacks \"%s\"", err_, pattern); } while (0)

static void test_bad_entities(void) {
    write_file("dupeid/entity2id.txt", "A\t1\nB\t2\nC\t1\n");
    EXPECT_BAD(read_entities_fn, tp("dupeid"), "entity2id.txt: line 3: duplicate eid 1 (first on line 1)");
    write_file("dupname/entity2id.txt", "A\t1\nB\t2\nA\t3\n");
    EXPECT_BAD(read_entities_fn, tp("dupname"), "line 3: duplicate entity name \"A\"");
    write_file("notab/entity2id.txt", "A\t1\nB 2\n");
    EXPECT_BAD(read_entities_fn, tp("notab"), "line 2: expected name<TAB>eid");
    write_file("badeid/entity2id.txt", "A\tx1\n");
    EXPECT_BAD(read_entities_fn, tp("badeid"), "line 1: expected a non-negative integer eid");
    write_file("utf/entity2id.txt", "A\t1\n\xff\xfe\t2\n");
    EXPECT_BAD(read_entities_fn, tp("utf"), "line 2: invalid UTF-8");
    /* NUL bytes (fuzz-crashes/entity2id-1): names were cut at the NUL, giving
     * two empty names that the duplicate check (on the full bytes) let through */
    static const char nul_names[] = "Ohio\t1\n\0Texas\t2\n\0Paris\t3\n";
    write_bytes("nul/entity2id.txt", nul_names, sizeof nul_names - 1);
    EXPECT_BAD(read_entities_fn, tp("nul"), "nul/entity2id.txt: line 2: NUL byte at column 1");
    static const char nul_eid[] = "Ohio\t1\nTexas\t2\0x\n";
    write_bytes("nul2/entity2id.txt", nul_eid, sizeof nul_eid - 1);
    EXPECT_BAD(read_entities_fn, tp("nul2"), "nul2/entity2id.txt: line 2: NUL byte at column 8");
    write_file("nomember/sentences.json", "{}\n");
    EXPECT_BAD(read_entities_fn, tp("nomember"), "no member entity2id.txt");
    EXPECT_BAD(read_entities_fn, tp("does-not-exist"), "cannot open dataset");
}

static void test_bad_other(void) {
    make_dataset("badgt");
    write_file("badgt/gt/empty.txt", "");
    EXPECT_BAD(read_gt_fn, tp("badgt"), "gt/empty.txt: empty ground truth");
    make_dataset("badgt2");
    write_file("badgt2/gt/x.txt", "5\tfoo\n");
    EXPECT_BAD(read_gt_fn, tp("badgt2"), "gt/x.txt: line 1: expected eid<TAB>name<TAB>label");
    make_dataset("badq");
    write_file("badq/query/x.txt", "1 2\n1 two 3\n");
    EXPECT_BAD(read_queries_fn, tp("badq"), "query/x.txt: line 2 item 1: unknown entity \"1 two 3\"");
    /* a NUL used to end the line early: "1 2\0 junk" gave seeds {1, 2}, "EXIT\0x" ended the file */
    make_dataset("nulq");
    static const char nul_seeds[] = "10 11\n1 2\0 junk\n";
    write_bytes("nulq/query/x.txt", nul_seeds, sizeof nul_seeds - 1);
    EXPECT_BAD(read_queries_fn, tp("nulq"), "query/x.txt: line 2: NUL byte at column 4");
    static const char nul_exit[] = "EXIT\0x\n";
    write_bytes("nulq/query/x.txt", nul_exit, sizeof nul_exit - 1);
    EXPECT_BAD(read_queries_fn, tp("nulq"), "query/x.txt: line 1: NUL byte at column 5");
    make_dataset("nulgt");
    static const char nul_gt[] = "10\tOhio\t1\n11\tTe\0xas\t1\n";
    write_bytes("nulgt/gt/x.txt", nul_gt, sizeof nul_gt - 1);
    EXPECT_BAD(read_gt_fn, tp("nulgt"), "gt/x.txt: line 2: NUL byte at column 6");
    write_file("noq/entity2id.txt", "A\t1\n");
    EXPECT_BAD(read_queries_fn, tp("noq"), "no query/<class>.txt");
    /* missing member in an archive */
    write_file("miss/entity2id.txt", "A\t1\n");
    make_archive("miss", "miss.tar.gz", "miss/", 0, 1);
    EXPECT_BAD(read_gt_fn, tp("miss.tar.gz"), "miss.tar.gz: no gt/<class>.txt members");
    write_file("junk.tar.gz", "this is not an archive\n");
    EXPECT_BAD(read_entities_fn, tp("junk.tar.gz"), "junk.tar.gz: cannot read");
}

/* Truncated archive: a large sentences.json cut in half must die with exit 3
 * (and not deliver a silently shortened file). */
/* Query lines of names: separated by tabs (names may hold commas) or commas;
 * aliases from aliases.txt; an alias of two entities is ambiguous. */
static void test_named_queries(void) {
    make_dataset("named");
    write_file("named/entity2id.txt", "Ohio\t10\nTexas\t11\nSmith, John\t12\nZürich\t7\n");
    write_file("named/aliases.txt", "Ohio\tBuckeye State\t# comment\tnot an alias\nZürich\tZurich\nDropped\tGone\n");
    write_file("named/query/states.txt", "10 11\n buckeye state , texas\nSmith, John\tZurich\t11\n");
    write_file("named/query/cities.txt", "12 7\n");
    query_set qs;
    name_read_queries(tp("named"), &qs);
    CHECK(qs.n == 4);
    CHECK(!strcmp(qs.q[2].class_name, "states") && qs.q[2].nseeds == 2 && qs.q[2].seeds[0] == 10 && qs.q[2].seeds[1] == 11);
    CHECK(qs.q[3].nseeds == 3 && qs.q[3].seeds[0] == 12 && qs.q[3].seeds[1] == 7 && qs.q[3].seeds[2] == 11);
    query_set_free(&qs);
    write_file("named/query/states.txt", "not an alias\n");
    EXPECT_BAD(read_queries_fn, tp("named"), "query/states.txt: line 1 item 1: unknown entity \"not an alias\"");
    write_file("named/aliases.txt", "Ohio\tOH\nTexas\toh\n");
    write_file("named/query/states.txt", "Texas, OH\n");
    EXPECT_BAD(read_queries_fn, tp("named"), "line 1 item 2: \"OH\" is an alias of several entities: \"Ohio\" (eid 10), \"Texas\" (eid 11)");
}

static void test_truncated(void) {
    make_dataset("big");
    char *big = xmalloc(3000000);
    size_t n = 0;
    uint64_t x = 88172645463325252ULL;
    while (n < 2900000) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        n += (size_t)sprintf(big + n, "{\"tokens\": [\"w%llu\"]}\n", (unsigned long long)(x % 1000000007ULL));
    }
    write_file("big/sentences.json", big);
    free(big);
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "cd %s && tar czf big.tar.gz big && s=$(stat -c %%s big.tar.gz) && head -c $((s / 2)) big.tar.gz > cut.tar.gz",
             tmp);
    CHECK(system(cmd) == 0);
    EXPECT_BAD(read_all_fn, tp("cut.tar.gz"), "truncated or corrupt archive");
    EXPECT_BAD(read_entities_fn, tp("cut.tar.gz"), "truncated or corrupt archive");
    const char *sh = check_shared_dir();
    if (!sh) return;
    snprintf(cmd, sizeof cmd, "s=$(stat -c %%s %s/data/mini-ese.tar.gz) && head -c $((s / 2)) %s/data/mini-ese.tar.gz > %s/mini-cut.tar.gz",
             sh, sh, tmp);
    CHECK(system(cmd) == 0);
    EXPECT_BAD(read_all_fn, tp("mini-cut.tar.gz"), "truncated or corrupt archive");
}

static void count_line(void *c, const char *m, const char *w, int64_t l, char *s, size_t n) {
    (void)m, (void)w, (void)s, (void)n;
    *(int64_t *)c = l;
}

static void test_mini(void) {
    const char *sh = check_shared_dir();
    if (!sh) SKIP("../shared absent");
    char p[512];
    snprintf(p, sizeof p, "%s/data/mini-ese.tar.gz", sh);
    if (access(p, R_OK) != 0) SKIP("mini-ese.tar.gz absent");
    entity_table t;
    dataset_read_entities(p, &t);
    CHECK_EQ_INT(t.n, 1843);
    CHECK_STR(t.name[0], "United States");
    CHECK_EQ_INT(t.eid[1842], 1842);
    entity_table_free(&t);
    query_set qs;
    name_read_queries(p, &qs);
    CHECK_EQ_INT(qs.n, 20);
    int nclass = 0;
    for (int i = 0; i < qs.n; i++) {
        if (i == 0 || strcmp(qs.q[i].class_name, qs.q[i - 1].class_name)) nclass++;
        CHECK_EQ_INT(qs.q[i].nseeds, 3);
    }
    CHECK_EQ_INT(nclass, 4);
    CHECK_STR(qs.q[0].class_name, "composers");
    CHECK_EQ_INT(qs.q[0].seeds[0], 803);
    query_set_free(&qs);
    gt_set gs;
    dataset_read_gt(p, &gs);
    CHECK_EQ_INT(gs.n, 4);
    static const char *const names[] = {"composers", "greek_deities", "national_capitals", "us_states"};
    static const int sizes[] = {97, 55, 135, 58};
    for (int i = 0; i < gs.n && i < 4; i++) {
        CHECK_STR(gs.c[i].class_name, names[i]);
        CHECK_EQ_INT(gs.c[i].n, sizes[i]);
    }
    gt_set_free(&gs);
    int64_t lines = 0;
    CHECK_EQ_INT(dataset_read_lines(p, "sentences.json", count_line, &lines), 1);
    CHECK_EQ_INT(lines, 19986);
}

TEST_MAIN_BEGIN("test_dataset")
    snprintf(tmp, sizeof tmp, "%s/test_dataset.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmp)) { perror("mkdtemp"); return 1; }
    RUN(test_folder);
    RUN(test_archives);
    RUN(test_bad_entities);
    RUN(test_bad_other);
    RUN(test_named_queries);
    RUN(test_truncated);
    RUN(test_mini);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmp);
TEST_MAIN_END
