/* test_artifact: the artifact format — header round trip, payload objects, row
 * matrices (aligned, mmap'd, > 2 GiB sparse), every corrupt-input case (exit 3 with
 * file + byte offset), and atomic writes (a killed or failing writer leaves no file
 * under the final name). */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>

#include "format/artifact.h"
#include "check.h"
#include "base/error.h"
#include "base/sha256.h"

static char dir[] = "/tmp/probexpan-artifact-XXXXXX";

static char *tmp_path(const char *name) { return xasprintf("%s/%s", dir, name); }

/* The reference artifact: params, one input, a map, a 3x5 matrix, an array. */
static void write_sample(const char *path, const char *input) {
    artifact_writer *w = artifact_create(path, "testkind", 2);
    artifact_param_int(w, "seed", 42);
    artifact_param_double(w, "lr", 0.5);
    artifact_param_str(w, "mode", "fast");
    artifact_add_input(w, input);
    msgpack_packer *pk = artifact_payload(w);
    msgpack_pack_map(pk, 2);
    mp_kv_int(pk, "entities", 3);
    mp_kv_str(pk, "name", "Ohio");
    artifact_matrix_begin(w, "probs", 3, 5);
    for (int i = 0; i < 3; i++) {
        float row[5];
        for (int j = 0; j < 5; j++) row[j] = (float)(10 * i + j) + 0.25f;
        artifact_matrix_row(w, row);
    }
    pk = artifact_payload(w);
    msgpack_pack_array(pk, 2);
    msgpack_pack_int(pk, -7);
    msgpack_pack_double(pk, 1.5);
    artifact_commit(w);
}

static void test_round_trip(void) {
    char *in = tmp_path("input.txt"), *out = tmp_path("a.mp");
    FILE *f = fopen(in, "w");
    fputs("abc", f); /* sha256("abc") is the FIPS 180-2 example */
    fclose(f);
    write_sample(out, in);
    artifact_reader *r = artifact_open(out, "testkind", 2);
    const artifact_header *h = artifact_hdr(r);
    CHECK_STR(h->kind, "testkind");
    CHECK_EQ_INT(h->schema, 2);
    CHECK_STR(h->producer_version, PROBEXPAN_VERSION);
    CHECK(strlen(h->created) == 20 && h->created[10] == 'T');
    CHECK_EQ_INT(mp_get_int(r, &h->params, "seed"), 42);
    CHECK_NEAR(mp_get_double(r, &h->params, "lr"), 0.5, 0);
    char *mode = mp_get_str(r, &h->params, "mode");
    CHECK_STR(mode, "fast");
    free(mode);
    CHECK_EQ_INT(h->inputs.via.array.size, 1);
    char *sha = mp_get_str(r, &h->inputs.via.array.ptr[0], "sha256");
    CHECK_STR(sha, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    free(sha);
    char *kind = mp_get_str(r, &h->inputs.via.array.ptr[0], "kind");
    CHECK_STR(kind, "file");
    free(kind);
    msgpack_object o;
    artifact_expect(r, &o, "the summary map");
    CHECK_EQ_INT(mp_get_int(r, &o, "entities"), 3);
    row_matrix m;
    artifact_read_matrix(r, "probs", &m);
    CHECK_EQ_INT(m.rows, 3);
    CHECK_EQ_INT(m.cols, 5);
    CHECK(((uintptr_t)m.data) % 64 == 0);
    CHECK_NEAR(row_matrix_row(&m, 2)[4], 24.25, 0);
    CHECK_NEAR(row_matrix_row(&m, 1)[0], 10.25, 0);
    artifact_expect(r, &o, "the array");
    CHECK(o.type == MSGPACK_OBJECT_ARRAY && o.via.array.size == 2);
    CHECK_EQ_INT(mp_as_int(r, &o.via.array.ptr[0], "x"), -7);
    CHECK(!artifact_next(r, &o));
    artifact_close(r);
    /* an artifact used as input is recorded with its kind */
    char *out2 = tmp_path("b.mp");
    artifact_writer *w = artifact_create(out2, "other", 1);
    artifact_add_input(w, out);
    artifact_commit(w);
    r = artifact_open(out2, "other", 1);
    kind = mp_get_str(r, &artifact_hdr(r)->inputs.via.array.ptr[0], "kind");
    CHECK_STR(kind, "testkind");
    free(kind);
    artifact_close(r);
    free(in); free(out); free(out2);
}

/* ---- corrupt inputs: each must die with exit 3 and a precise message ---- */

typedef struct { const char *path, *kind; int max_schema; } open_args;

static void read_everything(void *arg) {
    open_args *a = arg;
    artifact_reader *r = artifact_open(a->path, a->kind, a->max_schema);
    msgpack_object o;
    artifact_expect(r, &o, "the summary map");
    row_matrix m;
    artifact_read_matrix(r, "probs", &m);
    artifact_expect(r, &o, "the array");
    artifact_expect_end(r);
    artifact_close(r);
}

static char *copy_prefix(const char *src, const char *name, long keep, const char *append) {
    char *dst = tmp_path(name);
    FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
    for (long i = 0; i < keep; i++) {
        int c = fgetc(in);
        if (c == EOF) break;
        fputc(c, out);
    }
    if (append) fputs(append, out);
    fclose(in);
    fclose(out);
    return dst;
}

static long file_size(const char *p) {
    struct stat st;
    return stat(p, &st) ? -1 : (long)st.st_size;
}

static void test_corrupt_inputs(void) {
    char *in = tmp_path("input.txt"), *good = tmp_path("good.mp");
    write_sample(good, in);
    long size = file_size(good) - 105; /* the payload: the checksum trailer (105 bytes) follows it */
    open_args a = {good, "testkind", 2};
    CHECK_DIES(0, "", read_everything, &a) ; /* sanity: the good file reads (stderr may be empty) */
    /* truncated inside the header, inside the matrix, inside the last object */
    long cuts[] = {10, size / 2, size - 1};
    for (int i = 0; i < 3; i++) {
        char name[32];
        snprintf(name, sizeof name, "cut%d.mp", i);
        char *p = copy_prefix(good, name, cuts[i], NULL);
        open_args c = {p, "testkind", 2};
        CHECK_DIES(3, "truncated", read_everything, &c);
        CHECK_DIES(3, "byte ", read_everything, &c);
        free(p);
    }
    open_args wrong_kind = {good, "dists", 2};
    CHECK_DIES(3, "wrong artifact kind 'testkind', expected 'dists'", read_everything, &wrong_kind);
    open_args future = {good, "testkind", 1};
    CHECK_DIES(3, "schema version 2 is not supported", read_everything, &future);
    char *trailing = copy_prefix(good, "trailing.mp", size, "\x01");
    open_args t = {trailing, "testkind", 2};
    CHECK_DIES(3, "trailing data: 1 unexpected bytes", read_everything, &t);
    char *text = tmp_path("text.mp");
    FILE *f = fopen(text, "w");
    fputs("hello\n", f);
    fclose(f);
    open_args tx = {text, NULL, 9};
    CHECK_DIES(3, "not a ProbExpan artifact", read_everything, &tx);
    char *empty = copy_prefix(good, "empty.mp", 0, NULL);
    open_args e = {empty, NULL, 9};
    CHECK_DIES(3, "empty file", read_everything, &e);
    open_args missing = {"/nonexistent/x.mp", NULL, 9};
    CHECK_DIES(3, "/nonexistent/x.mp: cannot open", read_everything, &missing);
    /* wrong type in a header field: params is a string */
    char *badtype = tmp_path("badtype.mp");
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_pack_map(&pk, 7);
    mp_kv_str(&pk, "format", "probexpan");
    mp_kv_str(&pk, "kind", "testkind");
    mp_kv_int(&pk, "schema", 1);
    mp_str(&pk, "producer");
    msgpack_pack_map(&pk, 2);
    mp_kv_str(&pk, "name", "x");
    mp_kv_str(&pk, "version", "1");
    mp_kv_str(&pk, "created", "2026-01-01T00:00:00Z");
    mp_kv_str(&pk, "params", "oops");
    mp_str(&pk, "inputs");
    msgpack_pack_array(&pk, 0);
    f = fopen(badtype, "wb");
    fwrite(sb.data, 1, sb.size, f);
    fclose(f);
    msgpack_sbuffer_destroy(&sb);
    open_args bt = {badtype, "testkind", 1};
    CHECK_DIES(3, "'params': expected a map", read_everything, &bt);
    /* invalid msgpack byte inside the payload */
    char *garbage = copy_prefix(good, "garbage.mp", size, NULL);
    int fd = open(garbage, O_RDWR);
    unsigned char c1 = 0xc1;
    CHECK(pwrite(fd, &c1, 1, size - 11) == 1); /* the last object's first byte (array header) */
    close(fd);
    open_args g = {garbage, "testkind", 2};
    CHECK_DIES(3, "invalid msgpack type byte 0xc1", read_everything, &g);
    free(in); free(good); free(trailing); free(text); free(empty); free(badtype); free(garbage);
}

/* ---- atomic writes ---- */

static void slow_writer(void *arg) {
    artifact_writer *w = artifact_create((const char *)arg, "big", 1);
    artifact_matrix_begin(w, "m", 1000000, 256);
    float row[256] = {0};
    for (;;) artifact_matrix_row(w, row); /* killed or dies on overflow */
}

static void failing_writer(void *arg) {
    artifact_writer *w = artifact_create((const char *)arg, "big", 1);
    artifact_matrix_begin(w, "m", 10, 4);
    float row[4] = {0};
    artifact_matrix_row(w, row);
    die_input("input.txt", "line 7", "simulated bad input half-way");
}

static int count_files_with_prefix(const char *prefix) {
    char *cmd = xasprintf("ls %s* 2>/dev/null | wc -l", prefix);
    FILE *p = popen(cmd, "r");
    int n = -1;
    if (fscanf(p, "%d", &n) != 1) n = -1;
    pclose(p);
    free(cmd);
    return n;
}

static void test_atomic_write(void) {
    char *out = tmp_path("atomic.mp");
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) { slow_writer(out); _exit(0); }
    usleep(300000); /* let it write a few MB */
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    CHECK(access(out, F_OK) != 0); /* nothing under the final name */
    CHECK_DIES(3, "simulated bad input", failing_writer, out);
    CHECK(access(out, F_OK) != 0);
    /* die() removed its own temporary file, and the next writer of the same output removed
     * the one the SIGKILLed writer left */
    CHECK_EQ_INT(count_files_with_prefix(out), 0);
    free(out);
}

/* ---- a row matrix beyond 2 GiB, created sparsely from the documented layout ---- */

static void test_large_sparse_matrix(void) {
    const int64_t rows = 600, cols = 1 << 20; /* 600 x 4 MiB = 2.4 GiB */
    char *path = tmp_path("large.mp");
    artifact_writer *w = artifact_create(path, "dists", 1);
    artifact_matrix_begin(w, "mean_prob", 0, 0); /* measure where payload starts */
    uint64_t start = artifact_bytes(w);
    artifact_commit(w);
    /* re-create with the real descriptor written by hand, following schemas/row-matrix.md */
    FILE *f = fopen(path, "r+b");
    CHECK(f != NULL);
    if (!f) return;
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    int64_t stride = (cols * 4 + 5 + 63) / 64 * 64;
    msgpack_pack_map(&pk, 5);
    mp_kv_str(&pk, "matrix", "mean_prob");
    mp_kv_int(&pk, "rows", rows);
    mp_kv_int(&pk, "cols", cols);
    mp_kv_str(&pk, "dtype", "f32");
    mp_kv_int(&pk, "stride", stride);
    /* locate the descriptor: it is the first payload object, so truncate back there */
    struct stat st;
    fstat(fileno(f), &st);
    long desc_off = 0;
    { /* the zero-row descriptor + its pad occupied [desc_off, start) */
        artifact_reader *r = artifact_open(path, "dists", 1);
        desc_off = (long)artifact_offset(r);
        artifact_close(r);
    }
    CHECK(start > (uint64_t)desc_off);
    uint64_t after_desc = (uint64_t)desc_off + sb.size;
    uint64_t pad = (64 - (after_desc + 10) % 64) % 64;
    fseek(f, desc_off, SEEK_SET);
    fwrite(sb.data, 1, sb.size, f);
    unsigned char h[5] = {0xc6, 0, 0, 0, (unsigned char)pad};
    fwrite(h, 1, 5, f);
    for (uint64_t i = 0; i < pad; i++) fputc(0, f);
    uint64_t rows_off = after_desc + 5 + pad;
    uint64_t total = rows_off + (uint64_t)rows * (uint64_t)stride;
    CHECK(ftruncate(fileno(f), (off_t)total) == 0);
    uint32_t len = (uint32_t)(stride - 5);
    unsigned char rh[5] = {0xc6, (unsigned char)(len >> 24), (unsigned char)(len >> 16), (unsigned char)(len >> 8),
                           (unsigned char)len};
    float marker = 3.5f;
    int64_t marked[] = {0, 599, 543};
    for (int k = 0; k < 3; k++) {
        uint64_t o = rows_off + (uint64_t)marked[k] * (uint64_t)stride;
        CHECK(pwrite(fileno(f), rh, 5, (off_t)o) == 5);
        float v = marker + (float)k;
        CHECK(pwrite(fileno(f), &v, 4, (off_t)(o + 5 + 4 * 1000)) == 4);
    }
    for (int64_t i = 1; i < rows - 1; i++) /* every row header, as a real writer would */
        CHECK(pwrite(fileno(f), rh, 5, (off_t)(rows_off + (uint64_t)i * (uint64_t)stride)) == 5);
    fclose(f);
    msgpack_sbuffer_destroy(&sb);
    CHECK(total > (2ULL << 30));
    artifact_reader *r = artifact_open(path, "dists", 1);
    row_matrix m;
    artifact_read_matrix(r, "mean_prob", &m);
    CHECK_EQ_INT(m.rows, rows);
    CHECK_NEAR(row_matrix_row(&m, 0)[1000], 3.5, 0);
    CHECK_NEAR(row_matrix_row(&m, 599)[1000], 4.5, 0);
    CHECK_NEAR(row_matrix_row(&m, 543)[1000], 5.5, 0);
    CHECK_NEAR(row_matrix_row(&m, 300)[7], 0, 0);
    artifact_expect_end(r);
    artifact_close(r);
    unlink(path);
    free(path);
}

static void test_sha256_vectors(void) {
    const char *msgs[] = {"", "abc", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"};
    const char *want[] = {"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                          "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"};
    for (int i = 0; i < 3; i++) {
        sha256_ctx c;
        char hex[65];
        sha256_init(&c);
        sha256_update(&c, msgs[i], strlen(msgs[i]));
        sha256_final_hex(&c, hex);
        CHECK_STR(hex, want[i]);
    }
    /* a million 'a' fed in odd-sized pieces */
    sha256_ctx c;
    char hex[65], buf[997];
    memset(buf, 'a', sizeof buf);
    sha256_init(&c);
    size_t left = 1000000;
    while (left) {
        size_t n = left < sizeof buf ? left : sizeof buf;
        sha256_update(&c, buf, n);
        left -= n;
    }
    sha256_final_hex(&c, hex);
    CHECK_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_MAIN_BEGIN("test_artifact")
    if (!mkdtemp(dir)) return 1;
    RUN(test_sha256_vectors);
    RUN(test_round_trip);
    RUN(test_corrupt_inputs);
    RUN(test_atomic_write);
    RUN(test_large_sparse_matrix);
    char *cmd = xasprintf("rm -rf %s", dir);
    if (system(cmd)) return 1;
    free(cmd);
TEST_MAIN_END
