/* prefix_cache: build (locked, atomic) and mmap-read the frozen-prefix cache. */
#include "model/prefix_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "format/artifact.h"
#include "catalog/catalog.h"
#include "base/cluster.h"
#include "base/error.h"
#include "base/half.h"
#include "base/log.h"
#include "base/sha256.h"

#define CHUNK_BYTES (1u << 30)       /* data bin32 objects of at most 1 GiB */
#define BUILD_TOKENS 8192            /* tokens per prefix forward while building */
#define ALIGN 64

struct prefix_cache {
    artifact_reader *r;
    int H, is_bf16;
    int64_t S, T, chunk_tokens, nchunks;
    const uint16_t **chunk;          /* data of each chunk (into the mmap) */
    int64_t *tok_off;                /* [S+1] first token row of each sample */
};

static int is_prefix_tensor(const char *name, int P) {
    int l;
    if (!strncmp(name, "embeddings.", 11)) return 1;
    return sscanf(name, "encoder.layer.%d.", &l) == 1 && l < P;
}

/* sha256 (hex) over the prefix-shaping config fields and the frozen tensors of m. */
static void prefix_fingerprint(const bert_model *m, char out[65]) {
    const bert_config *c = &m->cfg;
    int P = bert_prefix_layers(m);
    char desc[256];
    snprintf(desc, sizeof desc, "bert-prefix v1 vocab=%d hidden=%d heads=%d ffn=%d max_pos=%d types=%d eps=%.9g P=%d",
             c->vocab_size, c->hidden, c->heads, c->ffn, c->max_pos, c->type_vocab, (double)c->ln_eps, P);
    sha256_ctx h;
    sha256_init(&h);
    sha256_update(&h, desc, strlen(desc) + 1);
    for (int i = 0; i < m->params.n; i++) {
        const param_t *p = &m->params.p[i];
        if (!is_prefix_tensor(p->name, P)) continue;
        sha256_update(&h, p->name, strlen(p->name) + 1);
        sha256_update(&h, p->data, (size_t)p->numel * sizeof(float));
    }
    sha256_final_hex(&h, out);
}

static int64_t chunk_tokens_for(int H) { return (int64_t)(CHUNK_BYTES / ((size_t)H * 2)); }

/* Raw bytes through the artifact's packer (a bin32 header we size ourselves). */
static void put_bin32_header(msgpack_packer *pk, uint32_t len) {
    const char h[5] = {(char)0xc6, (char)(len >> 24), (char)(len >> 16), (char)(len >> 8), (char)len};
    msgpack_pack_bin_body(pk, h, 5);
}

/* Starts chunk data on a 64-byte boundary: a zero pad bin32, then the chunk's header. */
static void begin_chunk(artifact_writer *w, uint64_t nbytes) {
    static const char zeros[ALIGN];
    msgpack_packer *pk = artifact_payload(w);
    uint32_t pad = (uint32_t)((ALIGN - (artifact_bytes(w) + 10) % ALIGN) % ALIGN);
    put_bin32_header(pk, pad);
    msgpack_pack_bin_body(pk, zeros, pad);
    put_bin32_header(pk, (uint32_t)nbytes);
}

/* The forward batches of a build: batch k holds samples [first[k], first[k+1]), packed up to
 * BUILD_TOKENS tokens from the samples' lengths alone, so every rank plans the batches of one
 * process without reading a token; owner[k] is the rank that encodes it, shared out by work
 * (cluster_assign of bert_sequence_cost), not by count. */
typedef struct {
    int64_t n, *first, *tokens;
    int *owner;
} build_plan;

static void plan_batches(const samples *s, int H, build_plan *p) {
    int64_t S = samples_count(s), cap = 0;
    double *load = xcalloc((size_t)cluster_size(), sizeof(double));
    memset(p, 0, sizeof *p);
    for (int64_t j = 0; j < S;) {
        if (p->n == cap) {
            cap = cap ? 2 * cap : 64;
            p->first = xrealloc(p->first, sizeof(int64_t) * (size_t)(cap + 1));
            p->tokens = xrealloc(p->tokens, sizeof(int64_t) * (size_t)cap);
            p->owner = xrealloc(p->owner, sizeof(int) * (size_t)cap);
        }
        int64_t T = 0;
        double cost = 0;
        p->first[p->n] = j;
        while (j < S && (T == 0 || T + samples_length(s, j) <= BUILD_TOKENS)) {
            int len = samples_length(s, j++);
            T += len;
            cost += bert_sequence_cost(len, H);
        }
        p->tokens[p->n] = T;
        p->owner[p->n++] = cluster_assign(load, cost);
    }
    if (!p->first) p->first = xmalloc(sizeof(int64_t));
    p->first[p->n] = S;
    free(load);
}

static void plan_free(build_plan *p) {
    free(p->first);
    free(p->tokens);
    free(p->owner);
}

/* Packs samples [j0, j1) into b. */
static void fill_batch(const samples *s, const bert_model *m, int64_t j0, int64_t j1, bert_batch *b, int32_t *ids) {
    bert_batch_clear(b);
    for (int64_t j = j0; j < j1; j++) {
        int len = samples_tokens(s, j, ids);
        if (bert_batch_add(b, ids, len, m->cfg.mask_token_id, m->cfg.max_pos))
            die_input(samples_path(s), "sample", "sample %lld cannot be encoded (no [MASK] or longer than %d positions)",
                      (long long)j, m->cfg.max_pos);
    }
}

/* The prefix output of one batch as 16-bit rows in half [b->T, H]. */
static void encode_batch(const bert_model *m, const bert_batch *b, int bf16, float *out, uint16_t *half) {
    int H = m->cfg.hidden;
    bert_forward_prefix(m, b, bert_prefix_layers(m), out);
    size_t n = (size_t)b->T * H;
    if (bf16) f32_to_bf16_n(half, out, n);
    else f32_to_f16_n(half, out, n);
    for (size_t i = 0; i < n && !bf16; i++)
        if (fabsf(out[i]) >= 65520.0f) /* rounds to infinity in float16 */
            die("frozen-prefix value %g does not fit float16; use --cache-dtype bf16", (double)out[i]);
}

/* A worker rank of a build: encodes its batches and sends each to rank 0 without waiting
 * for rank 0 to take it (up to PIPELINE batches in flight), so it never waits on rank 0's
 * writing unless it is that far ahead. */
#define PIPELINE 4
static void build_worker(const samples *s, const bert_model *m, const build_plan *p, int bf16) {
    int H = m->cfg.hidden, L = samples_max_length(s), rank = cluster_rank();
    bert_batch b = {0};
    int32_t *ids = xmalloc(sizeof(int32_t) * (size_t)L);
    float *out = xmalloc(sizeof(float) * (size_t)(BUILD_TOKENS + L) * H);
    uint16_t *half[PIPELINE];
    cluster_request *sent[PIPELINE] = {0};
    for (int i = 0; i < PIPELINE; i++) half[i] = xmalloc(sizeof(uint16_t) * (size_t)(BUILD_TOKENS + L) * H);
    int slot = 0;
    for (int64_t k = 0; k < p->n; k++) {
        if (p->owner[k] != rank) continue;
        cluster_wait(sent[slot]); /* the slot's previous batch has reached rank 0 */
        fill_batch(s, m, p->first[k], p->first[k + 1], &b, ids);
        encode_batch(m, &b, bf16, out, half[slot]);
        sent[slot] = cluster_isend(half[slot], (size_t)b.T * H * 2, 0);
        slot = (slot + 1) % PIPELINE;
    }
    for (int i = 0; i < PIPELINE; i++) {
        cluster_wait(sent[i]);
        free(half[i]);
    }
    bert_batch_free(&b);
    free(ids);
    free(out);
}

/* Builds the cache file. In an MPI job every rank calls this: every batch is encoded by its
 * owner (plan_batches), rank 0 encodes its own and receives the others' in order and writes
 * them — the batches of one process, so the file is byte-identical for the same thread count
 * per rank. */
static void build(const char *path, const samples *s, const char *samples_sha, const bert_model *m,
                  const char *encoder_src, const char *fp, int bf16) {
    int H = m->cfg.hidden, P = bert_prefix_layers(m), L = samples_max_length(s);
    int R = cluster_size();
    int64_t S = samples_count(s), T = 0;
    cluster_clock c0 = cluster_phase_begin();
    build_plan plan;
    plan_batches(s, H, &plan);
    if (cluster_rank() > 0) {
        build_worker(s, m, &plan, bf16);
        plan_free(&plan);
        cluster_phase_end("prefix cache", c0);
        return;
    }
    for (int64_t k = 0; k < plan.n; k++) T += plan.tokens[k];
    bert_batch b = {0};
    int32_t *ids = xmalloc(sizeof(int32_t) * (size_t)L);
    float *out = xmalloc(sizeof(float) * (size_t)(BUILD_TOKENS + L) * H);
    uint16_t *half = xmalloc(sizeof(uint16_t) * (size_t)(BUILD_TOKENS + L) * H);
    int64_t ct = chunk_tokens_for(H), nchunks = (T + ct - 1) / ct;
    char ranks[32] = "";
    if (R > 1) snprintf(ranks, sizeof ranks, ", %d ranks", R);
    log_info("building the frozen-prefix cache %s: %lld samples, %lld tokens, %.1f MB (%s)%s", path,
             (long long)S, (long long)T, (double)T * H * 2 / 1e6, bf16 ? "bf16" : "f16", ranks);
    artifact_writer *w = cache_create(path);
    artifact_param_int(w, "frozen_layers", m->frozen);
    artifact_param_int(w, "prefix_layers", P);
    artifact_param_str(w, "dtype", bf16 ? "bf16" : "f16");
    char *rs = realpath(samples_path(s), NULL), *re = realpath(encoder_src, NULL);
    artifact_add_input(w, rs ? rs : samples_path(s));
    artifact_add_input(w, re ? re : encoder_src);
    free(rs);
    free(re);
    msgpack_packer *pk = artifact_payload(w);
    msgpack_pack_map(pk, 10);
    mp_kv_int(pk, "samples", S);
    mp_kv_int(pk, "tokens", T);
    mp_kv_int(pk, "hidden", H);
    mp_kv_int(pk, "frozen_layers", m->frozen);
    mp_kv_int(pk, "prefix_layers", P);
    mp_kv_str(pk, "dtype", bf16 ? "bf16" : "f16");
    mp_kv_str(pk, "samples_sha256", samples_sha);
    mp_kv_str(pk, "encoder_sha256", fp);
    mp_kv_int(pk, "chunk_tokens", ct);
    mp_kv_int(pk, "chunks", nchunks);

    int64_t written = 0, chunk_left = 0;
    progress pr;
    progress_start(&pr, "prefix cache", "samples", S);
    double t0 = c0.wall;
    for (int64_t k = 0; k < plan.n; k++) {
        int64_t bt = plan.tokens[k];
        if (plan.owner[k] == 0) {
            fill_batch(s, m, plan.first[k], plan.first[k + 1], &b, ids);
            encode_batch(m, &b, bf16, out, half);
        } else {
            cluster_recv(half, (size_t)bt * H * 2, plan.owner[k]);
        }
        for (int64_t t = 0; t < bt;) {      /* stream token rows into the chunks */
            if (chunk_left == 0) {
                chunk_left = T - written < ct ? T - written : ct;
                begin_chunk(w, (uint64_t)chunk_left * H * 2);
            }
            int64_t n = bt - t < chunk_left ? bt - t : chunk_left;
            msgpack_pack_bin_body(artifact_payload(w), half + (size_t)t * H, (size_t)n * H * 2);
            t += n;
            written += n;
            chunk_left -= n;
        }
        progress_update(&pr, plan.first[k + 1]);
    }
    progress_end(&pr);
    artifact_commit(w);
    double secs = now_seconds() - t0;
    log_info("prefix cache built: %lld samples in %.1f s (%.1f samples/s), %.1f KB per sample", (long long)S, secs,
             S / (secs > 0 ? secs : 1e-9), (double)T * H * 2 / 1024 / (double)(S ? S : 1));
    catalog_metric("cache_build_seconds", secs);
    catalog_metric("cache_build_samples_per_second", S / (secs > 0 ? secs : 1e-9));
    cluster_phase_end("prefix cache", c0);
    plan_free(&plan);
    bert_batch_free(&b);
    free(ids);
    free(out);
    free(half);
}

static void expect_str(artifact_reader *r, const msgpack_object *d, const char *key, const char *want,
                       const char *what) {
    char *v = mp_get_str(r, d, key);
    if (strcmp(v, want))
        die_input(artifact_path(r), key, "this cache was built for %s %.16s..., the trainer has %.16s... — "
                  "delete it or pass another --cache", what, v, want);
    free(v);
}

static void expect_int(artifact_reader *r, const msgpack_object *d, const char *key, int64_t want) {
    int64_t v = mp_get_int(r, d, key);
    if (v != want)
        die_input(artifact_path(r), key, "this cache has %s = %lld, the trainer needs %lld — "
                  "delete it or pass another --cache", key, (long long)v, (long long)want);
}

static prefix_cache *open_cache(const char *path, const samples *s, const char *samples_sha,
                                const bert_model *m, const char *fp) {
    prefix_cache *c = xcalloc(1, sizeof *c);
    artifact_reader *r = c->r = artifact_open(path, CACHE_KIND, CACHE_SCHEMA);
    msgpack_object d;
    artifact_expect(r, &d, "the cache descriptor map");
    expect_str(r, &d, "samples_sha256", samples_sha, "samples with sha256");
    expect_str(r, &d, "encoder_sha256", fp, "an encoder prefix with fingerprint");
    expect_int(r, &d, "frozen_layers", m->frozen);
    expect_int(r, &d, "prefix_layers", bert_prefix_layers(m));
    expect_int(r, &d, "hidden", m->cfg.hidden);
    c->H = m->cfg.hidden;
    c->S = samples_count(s);
    expect_int(r, &d, "samples", c->S);
    c->tok_off = xmalloc(sizeof(int64_t) * (size_t)(c->S + 1));
    c->tok_off[0] = 0;
    for (int64_t j = 0; j < c->S; j++) c->tok_off[j + 1] = c->tok_off[j] + samples_length(s, j);
    c->T = c->tok_off[c->S];
    expect_int(r, &d, "tokens", c->T);
    char *dt = mp_get_str(r, &d, "dtype");
    if (strcmp(dt, "f16") && strcmp(dt, "bf16")) artifact_bad(r, "dtype '%s': expected \"f16\" or \"bf16\"", dt);
    c->is_bf16 = !strcmp(dt, "bf16");
    free(dt);
    c->chunk_tokens = mp_get_int(r, &d, "chunk_tokens");
    c->nchunks = mp_get_int(r, &d, "chunks");
    if (c->chunk_tokens < 1 || c->chunk_tokens > chunk_tokens_for(c->H) ||
        c->nchunks != (c->T + c->chunk_tokens - 1) / c->chunk_tokens)
        artifact_bad(r, "inconsistent chunk_tokens %lld / chunks %lld for %lld tokens",
                     (long long)c->chunk_tokens, (long long)c->nchunks, (long long)c->T);
    c->chunk = xcalloc((size_t)c->nchunks + 1, sizeof *c->chunk);
    for (int64_t k = 0; k < c->nchunks; k++) {
        msgpack_object o;
        artifact_expect(r, &o, "a chunk alignment pad");
        if (o.type != MSGPACK_OBJECT_BIN) artifact_bad(r, "expected the alignment pad (bin) of chunk %lld", (long long)k);
        artifact_expect(r, &o, "a chunk of prefix rows");
        int64_t rows = k < c->nchunks - 1 ? c->chunk_tokens : c->T - k * c->chunk_tokens;
        if (o.type != MSGPACK_OBJECT_BIN || o.via.bin.size != (uint64_t)rows * c->H * 2)
            artifact_bad(r, "chunk %lld: expected a bin of %lld bytes", (long long)k, (long long)rows * c->H * 2);
        if ((uintptr_t)o.via.bin.ptr % ALIGN) artifact_bad(r, "chunk %lld is not 64-byte aligned", (long long)k);
        c->chunk[k] = (const uint16_t *)(const void *)o.via.bin.ptr;
    }
    artifact_expect_end(r);
    return c;
}

/* Rank 0 of an MPI job: the exclusive lock that one process holds while building. Other
 * ranks: -1. */
static int rank0_lock(const char *path) {
    if (cluster_rank() != 0) return -1;
    char *lock = xasprintf("%s.lock", path);
    int fd = open(lock, O_RDWR | O_CREAT, 0666);
    if (fd < 0) die_errno("cannot open the lock file %s", lock);
    if (flock(fd, LOCK_EX)) die_errno("cannot lock %s", lock);
    free(lock);
    return fd;
}

prefix_cache *prefix_cache_obtain(const char *path, const samples *s, const char *samples_sha,
                                  const bert_model *m, const char *encoder_src, const char *dtype) {
    if (strcmp(dtype, "f16") && strcmp(dtype, "bf16")) die_usage("--cache-dtype: '%s' is not f16 or bf16", dtype);
    char fp[65];
    prefix_fingerprint(m, fp);
    if (cluster_size() > 1) { /* rank 0 holds the lock and decides; all ranks build */
        int fd = rank0_lock(path);
        int64_t need = cluster_rank() == 0 && access(path, F_OK) != 0;
        cluster_sum_i64(&need, 1);
        if (need) build(path, s, samples_sha, m, encoder_src, fp, !strcmp(dtype, "bf16"));
        cluster_barrier();
        if (fd >= 0) close(fd);
    } else if (access(path, F_OK) != 0) {
        char *lock = xasprintf("%s.lock", path);
        int fd = open(lock, O_RDWR | O_CREAT, 0666);
        if (fd < 0) die_errno("cannot open the lock file %s", lock);
        if (flock(fd, LOCK_EX | LOCK_NB)) {
            log_info("waiting for another process building %s", path);
            if (flock(fd, LOCK_EX)) die_errno("cannot lock %s", lock);
        }
        if (access(path, F_OK) != 0) build(path, s, samples_sha, m, encoder_src, fp, !strcmp(dtype, "bf16"));
        else log_info("using %s, built meanwhile by another process", path);
        close(fd); /* releases the lock */
        free(lock);
    }
    prefix_cache *c = open_cache(path, s, samples_sha, m, fp);
    return c;
}

void prefix_cache_rows(const prefix_cache *c, int64_t j, float *out) {
    for (int64_t g = c->tok_off[j]; g < c->tok_off[j + 1];) {
        int64_t k = g / c->chunk_tokens, i = g % c->chunk_tokens;
        int64_t n = c->chunk_tokens - i;
        if (n > c->tok_off[j + 1] - g) n = c->tok_off[j + 1] - g;
        const uint16_t *src = c->chunk[k] + (size_t)i * c->H;
        if (c->is_bf16) bf16_to_f32_n(out, src, (size_t)n * c->H);
        else f16_to_f32_n(out, src, (size_t)n * c->H);
        out += (size_t)n * c->H;
        g += n;
    }
}

double prefix_cache_bytes_per_sample(const prefix_cache *c) {
    return c->S ? (double)c->T * c->H * 2 / (double)c->S : 0;
}

const char *prefix_cache_dtype(const prefix_cache *c) { return c->is_bf16 ? "bf16" : "f16"; }

void prefix_cache_close(prefix_cache *c) {
    if (!c) return;
    artifact_close(c->r);
    free(c->chunk);
    free(c->tok_off);
    free(c);
}
