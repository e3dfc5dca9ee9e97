/* test_safetensors: the safetensors reader/writer, f16/bf16 conversion, encoder loading
 * under HF name variants (bert. prefix, LayerNorm.gamma/beta, extra cls./pooler. tensors),
 * bad files (exit 3 naming the tensor), and the checkpoint round trip. */
#include "check.h"
#include "golden_io.h"

#include <sys/wait.h>

#include "nn/bert.h"
#include "nn/checkpoint.h"
#include "nn/entity_head.h"
#include "base/error.h"
#include "format/safetensors.h"
#include "base/half.h"

static char tmpdir[256];

static const char *tmp_path(const char *name) {
    static char buf[8][512];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

/* Runs fn(arg) in a child; expects exit code `code` and stderr containing `needle`. */
static void expect_exit(void (*fn)(const char *), const char *arg, int code, const char *needle) {
    const char *errf = tmp_path("stderr.txt");
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen(errf, "w", stderr)) _exit(99);
        fn(arg);
        _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == code, "%s: exit %d, expected %d", arg,
              WIFEXITED(st) ? WEXITSTATUS(st) : -1, code);
    FILE *f = fopen(errf, "r");
    char msg[2048] = "";
    if (f) {
        size_t n = fread(msg, 1, sizeof msg - 1, f);
        msg[n] = 0;
        fclose(f);
    }
    CHECK_MSG(strstr(msg, needle) != NULL, "stderr \"%s\" lacks \"%s\"", msg, needle);
}

static void open_close(const char *path) {
    safetensors st;
    safetensors_open(&st, path);
    for (int i = 0; i < st.n; i++) {
        float *buf = malloc((size_t)st.t[i].numel * sizeof(float) + 4);
        safetensors_read_f32(&st, &st.t[i], buf);
        free(buf);
    }
    safetensors_close(&st);
}

/* Writes raw bytes: 8-byte header length, header, data. */
static void write_raw(const char *path, const char *hdr, const void *data, size_t n, long hlen_override) {
    FILE *f = fopen(path, "wb");
    uint64_t hl = hlen_override >= 0 ? (uint64_t)hlen_override : strlen(hdr);
    unsigned char l8[8];
    for (int i = 0; i < 8; i++) l8[i] = (unsigned char)(hl >> (8 * i));
    fwrite(l8, 1, 8, f);
    fwrite(hdr, 1, strlen(hdr), f);
    if (n) fwrite(data, 1, n, f);
    fclose(f);
}

static void test_half_conversions(void) {
    /* exact values of both formats */
    CHECK(f32_to_f16(1.0f) == 0x3c00);
    CHECK(f32_to_f16(-2.0f) == 0xc000);
    CHECK(f32_to_f16(65504.0f) == 0x7bff);
    CHECK(f32_to_f16(70000.0f) == 0x7c00);            /* overflow to inf */
    CHECK(f32_to_f16(5.9604645e-08f) == 0x0001);      /* smallest subnormal 2^-24 */
    CHECK(f32_to_f16(0.333333f) == 0x3555);           /* nearest: 0.33325195 */
    CHECK(f32_to_f16(1.0f + 1.0f / 2048) == 0x3c00);  /* tie -> even */
    CHECK(f32_to_f16(1.0f + 3.0f / 2048) == 0x3c02);  /* tie -> even (up) */
    CHECK(f16_to_f32(0x3555) == 0.33325195f);
    CHECK(f16_to_f32(0x0001) == 5.9604645e-08f);
    CHECK(f16_to_f32(0xfc00) == -INFINITY);
    CHECK(f32_to_bf16(1.0f) == 0x3f80);
    CHECK(f32_to_bf16(-3.140625f) == 0xc049);
    CHECK(bf16_to_f32(0x3eab) == 0.333984375f);
    CHECK(f32_to_bf16(0.333333f) == 0x3eab);
    for (int i = -1000; i <= 1000; i++) { /* round trip of every representable value tried */
        float x = (float)i / 64.0f;
        CHECK(f16_to_f32(f32_to_f16(x)) == x);
        CHECK(bf16_to_f32(f32_to_bf16(x)) == bf16_to_f32(f32_to_bf16(bf16_to_f32(f32_to_bf16(x)))));
    }
}

static void test_write_read_dtypes(void) {
    float a[6] = {1, -2, 0.5f, 3.25f, -0.125f, 100};
    uint16_t h[3] = {0x3c00, 0xc000, 0x3555}, bf[2] = {0x3f80, 0xc049};
    safetensors_entry e[3] = {{"a", ST_F32, 2, {2, 3}, a}, {"h", ST_F16, 1, {3}, h}, {"b", ST_BF16, 1, {2}, bf}};
    const char *p = tmp_path("dtypes.safetensors");
    safetensors_write(p, e, 3, NULL);
    safetensors st;
    safetensors_open(&st, p);
    CHECK_EQ_INT(st.n, 3);
    float out[6];
    safetensors_read_f32_shape(&st, safetensors_find(&st, "a"), 2, 2, 3, out);
    CHECK(!memcmp(out, a, sizeof a));
    safetensors_read_f32(&st, safetensors_find(&st, "h"), out);
    CHECK(out[0] == 1.0f && out[1] == -2.0f && out[2] == 0.33325195f);
    safetensors_read_f32(&st, safetensors_find(&st, "b"), out);
    CHECK(out[0] == 1.0f && out[1] == -3.140625f);
    CHECK(safetensors_find(&st, "zz") == NULL);
    safetensors_close(&st);
}

static void test_bad_files(void) {
    float d[4] = {1, 2, 3, 4};
    const char *p;
    p = tmp_path("short.safetensors");
    write_raw(p, "", NULL, 0, 0);
    truncate(p, 5);
    expect_exit(open_close, p, 3, "header");
    p = tmp_path("hlen.safetensors");
    write_raw(p, "{}", NULL, 0, 1000);
    expect_exit(open_close, p, 3, "header length");
    p = tmp_path("outside.safetensors");
    write_raw(p, "{\"w\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[0,160]}}", d, 16, -1);
    expect_exit(open_close, p, 3, "w: data_offsets");
    p = tmp_path("trunc.safetensors");  /* a valid file cut short */
    write_raw(p, "{\"w\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[0,16]}}", d, 16, -1);
    open_close(p);
    truncate(p, 8 + 55 + 8);
    expect_exit(open_close, p, 3, "w: data_offsets");
    p = tmp_path("dtype.safetensors");
    write_raw(p, "{\"w\":{\"dtype\":\"F8_E4M3\",\"shape\":[4],\"data_offsets\":[0,4]}}", d, 4, -1);
    expect_exit(open_close, p, 3, "w: unknown dtype");
    p = tmp_path("span.safetensors");
    write_raw(p, "{\"w\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,16]}}", d, 16, -1);
    expect_exit(open_close, p, 3, "w: shape");
    p = tmp_path("json.safetensors");
    write_raw(p, "{\"w\":", d, 16, -1);
    expect_exit(open_close, p, 3, "header");
    p = tmp_path("huge.safetensors");
    write_raw(p, "{\"w\":{\"dtype\":\"F32\",\"shape\":[1099511627776,1099511627776],\"data_offsets\":[0,16]}}", d, 16, -1);
    expect_exit(open_close, p, 3, "w: tensor too large");
    p = tmp_path("dup.safetensors");
    write_raw(p, "{\"w\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[0,16]},\"w\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[0,16]}}", d, 16, -1);
    expect_exit(open_close, p, 3, "header: expected a JSON object");
    p = tmp_path("int.safetensors");
    write_raw(p, "{\"n\":{\"dtype\":\"I32\",\"shape\":[4],\"data_offsets\":[0,16]}}", d, 16, -1);
    expect_exit(open_close, p, 3, "n: dtype I32");
}

/* ---- model files derived from the golden one ---- */

static char model_dir[512];

/* Copies the golden model.safetensors under new names / dtype into dir/model.safetensors
 * with config.json. rename: 0 same, 1 "bert." + gamma/beta + cls/pooler extras.
 * drop: a tensor name to leave out (or NULL); reshape: a tensor written with a wrong shape. */
static void derive(const char *dir, int rename_mode, safetensors_dtype dtype, const char *drop,
                   const char *reshape) {
    char src[4400], cfg[4400], dst[600];
    snprintf(src, sizeof src, "%s/model.safetensors", golden_dir());
    snprintf(cfg, sizeof cfg, "%s/config.json", golden_dir());
    mkdir(dir, 0777);
    safetensors st;
    safetensors_open(&st, src);
    safetensors_entry *e = calloc((size_t)st.n + 2, sizeof *e);
    char **names = calloc((size_t)st.n + 2, sizeof(char *));
    void **bufs = calloc((size_t)st.n + 2, sizeof(void *));
    int k = 0;
    for (int i = 0; i < st.n; i++) {
        const safetensors_tensor *t = &st.t[i];
        if (drop && !strcmp(t->name, drop)) continue;
        char nm[256];
        snprintf(nm, sizeof nm, "%s", t->name);
        if (rename_mode && strncmp(nm, "head.", 5) && strncmp(nm, "projection_head.", 16)) {
            snprintf(nm, sizeof nm, "bert.%s", t->name);
            char *q = strstr(nm, "LayerNorm.weight");
            if (q) strcpy(q, "LayerNorm.gamma");
            q = strstr(nm, "LayerNorm.bias");
            if (q) strcpy(q, "LayerNorm.beta");
        }
        names[k] = strdup(nm);
        e[k].name = names[k];
        e[k].ndim = t->ndim;
        memcpy(e[k].shape, t->shape, sizeof t->shape);
        if (reshape && !strcmp(t->name, reshape)) e[k].shape[0] = 1, e[k].shape[1] *= t->shape[0];
        if (t->dtype == ST_F32 && dtype != ST_F32) {
            float *f = malloc((size_t)t->numel * 4);
            safetensors_read_f32(&st, t, f);
            uint16_t *h = malloc((size_t)t->numel * 2);
            if (dtype == ST_F16) f32_to_f16_n(h, f, (size_t)t->numel);
            else f32_to_bf16_n(h, f, (size_t)t->numel);
            free(f);
            bufs[k] = h;
            e[k].dtype = dtype;
            e[k].data = h;
        } else {
            e[k].dtype = t->dtype;
            e[k].data = t->data;
        }
        k++;
    }
    static float extra[4] = {1, 2, 3, 4};
    if (rename_mode) {
        e[k++] = (safetensors_entry){"cls.predictions.bias", ST_F32, 1, {4}, extra};
        e[k++] = (safetensors_entry){"bert.pooler.dense.bias", ST_F32, 1, {4}, extra};
    }
    snprintf(dst, sizeof dst, "%s/model.safetensors", dir);
    safetensors_write(dst, e, k, NULL);
    bert_config c;
    bert_config_load(&c, cfg);
    snprintf(dst, sizeof dst, "%s/config.json", dir);
    bert_config_save(&c, dst);
    for (int i = 0; i < k; i++) {
        if (i < st.n) free(names[i]);
        free(bufs[i]);
    }
    free(names);
    free(bufs);
    free(e);
    safetensors_close(&st);
}

static void load_dir_child(const char *dir) {
    bert_model m;
    bert_load_dir(&m, dir, 0);
    bert_free(&m);
}

static void test_name_variants(void) {
    if (!golden_dir()) SKIP("no ../shared/golden");
    bert_model ref, m;
    bert_load_dir(&ref, golden_dir(), 0);
    snprintf(model_dir, sizeof model_dir, "%s/renamed", tmpdir);
    derive(model_dir, 1, ST_F32, NULL, NULL);
    bert_load_dir(&m, model_dir, 0);
    CHECK_EQ_INT(m.params.n, ref.params.n);
    CHECK(!memcmp(m.param_mem, ref.param_mem, (size_t)param_list_numel(&ref.params, 0) * 4));
    bert_free(&m);
    bert_free(&ref);
}

static void test_missing_and_misshaped(void) {
    if (!golden_dir()) SKIP("no ../shared/golden");
    char d1[600], d2[600];
    snprintf(d1, sizeof d1, "%s/missing", tmpdir);
    derive(d1, 0, ST_F32, "encoder.layer.1.output.dense.bias", NULL);
    expect_exit(load_dir_child, d1, 3, "encoder.layer.1.output.dense.bias: missing tensor");
    snprintf(d2, sizeof d2, "%s/misshaped", tmpdir);
    derive(d2, 0, ST_F32, NULL, "encoder.layer.0.attention.self.key.weight");
    expect_exit(load_dir_child, d2, 3, "encoder.layer.0.attention.self.key.weight: shape [1, 4096], expected [64, 64]");
}

/* f16 / bf16 files load; the values are the rounded golden values; outputs stay close. */
static void test_half_models(void) {
    if (!golden_dir()) SKIP("no ../shared/golden");
    bert_model ref;
    bert_load_dir(&ref, golden_dir(), 0);
    safetensors_dtype types[2] = {ST_F16, ST_BF16};
    for (int k = 0; k < 2; k++) {
        char d[600];
        snprintf(d, sizeof d, "%s/half%d", tmpdir, k);
        derive(d, 0, types[k], NULL, NULL);
        bert_model m;
        bert_load_dir(&m, d, 0);
        int64_t n = param_list_numel(&ref.params, 0), bad = 0;
        for (int64_t i = 0; i < n; i++) {
            float r = ref.param_mem[i];
            float want = k ? bf16_to_f32(f32_to_bf16(r)) : f16_to_f32(f32_to_f16(r));
            bad += m.param_mem[i] != want;
        }
        CHECK_EQ_INT(bad, 0);
        bert_free(&m);
    }
    bert_free(&ref);
}

static void test_checkpoint_roundtrip(void) {
    if (!golden_dir()) SKIP("no ../shared/golden");
    bert_model m, m2;
    bert_load_dir(&m, golden_dir(), 1);
    entity_head h, h2;
    entity_head_create(&h, m.cfg.hidden, m.cfg.num_entities);
    char src[4400], voc[4400];
    snprintf(src, sizeof src, "%s/model.safetensors", golden_dir());
    snprintf(voc, sizeof voc, "%s/vocab.txt", golden_dir());
    CHECK(entity_head_load_safetensors(&h, src));
    char d[600];
    snprintf(d, sizeof d, "%s/ckpt", tmpdir);
    param_list *lists[2] = {&m.params, &h.params};
    checkpoint_save(d, &m.cfg, voc, lists, 2, NULL, 0);
    bert_load_dir(&m2, d, 1);
    entity_head_create(&h2, m2.cfg.hidden, m2.cfg.num_entities);
    char dst[700];
    snprintf(dst, sizeof dst, "%s/model.safetensors", d);
    CHECK(entity_head_load_safetensors(&h2, dst));
    CHECK(!memcmp(&m.cfg, &m2.cfg, sizeof m.cfg));
    CHECK(!memcmp(m.param_mem, m2.param_mem, (size_t)param_list_numel(&m.params, 0) * 4));
    CHECK(!memcmp(h.mem, h2.mem, (size_t)param_list_numel(&h.params, 0) * 4));
    snprintf(dst, sizeof dst, "%s/vocab.txt", d);
    CHECK(access(dst, R_OK) == 0);
    /* identical outputs */
    int ids[2][6] = {{101, 300, 103, 400, 102, 0}, {101, 103, 500, 600, 700, 102}};
    bert_batch b = {0};
    bert_batch_clear(&b);
    bert_batch_add(&b, ids[0], 5, 103, 64);
    bert_batch_add(&b, ids[1], 6, 103, 64);
    float o1[2 * 64], o2[2 * 64];
    bert_forward_infer(&m, &b, o1);
    bert_forward_infer(&m2, &b, o2);
    CHECK(!memcmp(o1, o2, sizeof o1));
    bert_batch_free(&b);
    bert_free(&m);
    bert_free(&m2);
    entity_head_free(&h);
    entity_head_free(&h2);
}

static void test_batch_add(void) {
    bert_batch b = {0};
    bert_batch_clear(&b);
    int a[3] = {101, 5, 102}, c[3] = {101, 103, 102};
    CHECK_EQ_INT(bert_batch_add(&b, a, 3, 103, 10), -1);
    CHECK_EQ_INT(bert_batch_add(&b, c, 3, 103, 2), -2);
    CHECK_EQ_INT(bert_batch_add(&b, c, 3, 103, 10), 0);
    CHECK_EQ_INT(b.B, 1);
    CHECK_EQ_INT(b.T, 3);
    CHECK_EQ_INT(b.mask_pos[0], 1);
    bert_batch_free(&b);
}

TEST_MAIN_BEGIN("test_safetensors")
    snprintf(tmpdir, sizeof tmpdir, "/tmp/test_safetensors.XXXXXX");
    if (!mkdtemp(tmpdir)) return 1;
    RUN(test_half_conversions);
    RUN(test_write_read_dtypes);
    RUN(test_bad_files);
    RUN(test_batch_add);
    RUN(test_name_variants);
    RUN(test_missing_and_misshaped);
    RUN(test_half_models);
    RUN(test_checkpoint_roundtrip);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd)) return 1;
TEST_MAIN_END
