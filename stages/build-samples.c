/* build-samples: one masked sample per (entity, mention) from a corpus artifact.
 *
 * For every mention, the sentence's wordpieces with the mention's span replaced
 * by one [MASK], wrapped in [CLS] ... [SEP] (docs/design.md §3 "Samples"). Sentences
 * over --max-words words (150, official code) and samples over --max-wordpieces
 * (512) are dropped, then entities with fewer than --min-samples (2) samples;
 * --max-samples-per-entity keeps a --seed-determined random subset. Writes the
 * `samples` artifact (schemas/samples.md): the entity index (row i <-> eid, used
 * by every later stage), a per-entity sample table and the token stream, read
 * through common/samples.h. Two streaming passes over the corpus: the first
 * decides and lays out, the second writes the tokens.
 * --contrastive instead builds the `pairs` artifact of contrastive learning from
 * a ranking, the queries and a samples artifact (common/pairs.h, schemas/pairs.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/artifact.h"
#include "catalog/catalog.h"
#include "base/cli.h"
#include "artifacts/corpus.h"
#include "base/error.h"
#include "base/hashmap.h"
#include "base/log.h"
#include "artifacts/pairs.h"
#include "base/rng.h"
#include "artifacts/samples.h"

#define MAX_CHUNK_BYTES (1u << 30)

/* one candidate sample, in corpus order (16 bytes: the largest table in memory) */
typedef struct {
    uint64_t where;     /* corpus sentence index << 24 | index of the mention in the sentence */
    int32_t entity;     /* corpus entity table index; -1 once the sample is not kept */
    uint16_t length;    /* wordpieces incl. [CLS] [MASK] [SEP] (<= 65535) */
    uint16_t mask;      /* position of [MASK] in the sample */
} candidate;
#define MENTION_BITS 24
#define CAND_SENTENCE(k) ((int64_t)((k)->where >> MENTION_BITS))
#define CAND_MENTION(k) ((int32_t)((k)->where & ((1u << MENTION_BITS) - 1)))

static void pack_bin(msgpack_packer *pk, const char *key, const void *data, size_t bytes) {
    mp_str(pk, key);
    msgpack_pack_bin(pk, bytes);
    msgpack_pack_bin_body(pk, data, bytes);
}

/* Appends k ids to buf (holding n ids of `elem` bytes each); returns the new n. */
static int32_t put_ids(unsigned char *buf, int32_t n, int elem, const int32_t *ids, int32_t k) {
    if (elem == 4) {
        memcpy(buf + (size_t)n * 4, ids, (size_t)k * 4);
        return n + k;
    }
    for (int32_t i = 0; i < k; i++) {
        uint16_t h = (uint16_t)ids[i];
        memcpy(buf + (size_t)(n + i) * 2, &h, 2);
    }
    return n + k;
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int percentile(const int64_t *hist, int64_t total, double q) {
    int64_t need = (int64_t)(q * (double)total + 0.999999), acc = 0;
    if (need < 1) need = 1;
    for (int i = 0; i < 65536; i++)
        if ((acc += hist[i]) >= need) return i;
    return 0;
}

int main(int argc, char **argv) {
    const char *corpus_path = NULL, *out = NULL;
    int max_words = 150, max_wp = 512, min_samples = 2, cap = 0;
    long seed = 1;
    pairs_cli pc;
    pairs_cli_init(&pc);
    const cli_option opts[] = {
        {"corpus", OPT_INPUT, &corpus_path, "FILE", "corpus artifact from tokenize", 0, 0},
        {"out", OPT_OUTPUT, &out, "FILE", "output samples artifact (the pairs artifact with --contrastive)", 0, 0},
        {"max-words", OPT_INT, &max_words, "N", "drop sentences of more than N words (official code: 150)", 1, 100000000},
        {"max-wordpieces", OPT_INT, &max_wp, "N", "drop samples of more than N wordpieces incl. [CLS]/[SEP]", 3, 65535},
        {"min-samples", OPT_INT, &min_samples, "N", "drop entities with fewer than N samples", 1, 1000000},
        {"max-samples-per-entity", OPT_INT, &cap, "N", "keep at most N random samples per entity (0 = all)", 0, 100000000},
        {"seed", OPT_LONG, &seed, "N", "random seed of --max-samples-per-entity (and of the --contrastive pair draw)", 0, 0},
        PAIRS_OPTIONS(pc),
        {NULL, 0, NULL, NULL, NULL, 0, 0},
    };
    const cli_spec spec = {"build-samples", "one [CLS] ... [MASK] ... [SEP] sample per entity mention, indexed by entity",
                           "[options] --corpus corpus.mp --out samples.mp\n"
                           "   or: build-samples --contrastive --ranked ranked.mp --queries DATA --samples samples.mp --out pairs.mp",
                           "build-samples --corpus work/corpus.mp --out work/samples.mp",
                           "tokenize, train-mlm, train-cl, infer, probexpan inspect", opts, 1};
    int first = cli_parse(&spec, argc, argv);
    int corpus_was_option = corpus_path != NULL;
    if (first < argc && !corpus_path) corpus_path = argv[first++];
    if (first < argc) die_usage("unexpected argument '%s'", argv[first]);
    if (pc.contrastive) {
        if (corpus_path) die_usage("--contrastive reads --samples, not a corpus");
        if (!out) die_usage("--out is required");
        catalog_begin_beside(out);
        pairs_cli_run(&pc, out, seed);
        return 0;
    }
    if (!corpus_path) die_usage("--corpus is required");
    if (!out) die_usage("--out is required");
    if (cap > 0 && cap < min_samples) die_usage("--max-samples-per-entity %d is below --min-samples %d", cap, min_samples);
    catalog_begin_beside(out);

    /* ---- pass 1: candidates ---- */
    corpus_reader c;
    corpus_open(&c, corpus_path);
    intmap eid_index;
    intmap_init(&eid_index);
    for (int64_t i = 0; i < c.ents.n; i++) intmap_put(&eid_index, c.ents.eid[i], i);
    candidate *cand = NULL;
    size_t ncand = 0, ccap = 0;
    int64_t long_sentences = 0, long_sentence_mentions = 0, long_samples = 0, mentions = 0;
    progress prog;
    progress_start(&prog, "pass 1", "sentences", 0);
    while (corpus_next(&c)) {
        mentions += c.nm;
        if (c.nwords > max_words) {
            long_sentences++;
            long_sentence_mentions += c.nm;
            continue;
        }
        for (int32_t k = 0; k < c.nm; k++) {
            int64_t e = intmap_get(&eid_index, c.m[k].eid);
            if (e < 0) die_input(corpus_path, NULL, "sentence %lld: mention of eid %lld not in the entity table",
                                 (long long)c.index, (long long)c.m[k].eid);
            int64_t len = (int64_t)c.nids - (c.m[k].wp_end - c.m[k].wp_start) + 3;
            if (len > max_wp) { long_samples++; continue; }
            if (k >= (1 << MENTION_BITS) || c.index >= ((int64_t)1 << (64 - MENTION_BITS)))
                die_input(corpus_path, NULL, "sentence %lld: more than %d mentions", (long long)c.index, 1 << MENTION_BITS);
            if (ncand == ccap) { ccap = ccap * 2 + 4096; cand = xrealloc(cand, ccap * sizeof *cand); }
            cand[ncand++] = (candidate){(uint64_t)c.index << MENTION_BITS | (uint64_t)k, (int32_t)e, (uint16_t)len,
                                        (uint16_t)(1 + c.m[k].wp_start)};
        }
        progress_update(&prog, c.index + 1);
    }
    progress_end(&prog);
    int64_t nsent = c.totals.sentences;
    wp_vocab vocab = c.vocab;     /* keep the vocabulary and entity table */
    entity_table ents = c.ents;
    memset(&c.vocab, 0, sizeof c.vocab);
    memset(&c.ents, 0, sizeof c.ents);
    corpus_close(&c);

    /* ---- entities: counts, drops, caps ---- */
    int64_t ne = ents.n;
    int64_t *count = xcalloc((size_t)(ne ? ne : 1), sizeof *count);
    for (size_t i = 0; i < ncand; i++) count[cand[i].entity]++;
    int64_t *row_of = xmalloc((size_t)(ne ? ne : 1) * sizeof *row_of);
    int64_t E = 0, dropped_with_samples = 0, never_mentioned = 0;
    for (int64_t e = 0; e < ne; e++) {
        if (count[e] >= min_samples) row_of[e] = E++;
        else {
            row_of[e] = -1;
            if (count[e]) dropped_with_samples++;
            else never_mentioned++;
        }
    }
    if (E == 0) die_input(corpus_path, NULL, "no entity has %d or more usable samples", min_samples);
    /* candidate lists per entity, then the cap */
    int64_t *start = xcalloc((size_t)ne + 1, sizeof *start);
    for (int64_t e = 0; e < ne; e++) start[e + 1] = start[e] + count[e];
    int64_t *by_entity = xmalloc((ncand ? ncand : 1) * sizeof *by_entity), *fill = xmalloc((size_t)(ne ? ne : 1) * sizeof *fill);
    memcpy(fill, start, (size_t)ne * sizeof *fill);
    for (size_t i = 0; i < ncand; i++) by_entity[fill[cand[i].entity]++] = (int64_t)i;
    rng_t rng;
    rng_seed(&rng, (uint64_t)seed);
    int64_t capped = 0, *pick = NULL;
    for (int64_t e = 0; e < ne; e++) {
        int64_t n = count[e];
        if (row_of[e] < 0) {
            for (int64_t k = 0; k < n; k++) cand[by_entity[start[e] + k]].entity = -1;
            continue;
        }
        if (cap <= 0 || n <= cap) continue;
        capped++;
        pick = xrealloc(pick, (size_t)n * sizeof *pick);
        rng_sample_without_replacement(&rng, n, cap, pick);
        qsort(pick, (size_t)cap, sizeof *pick, cmp_i64);
        for (int64_t k = 0, p = 0; k < n; k++) {
            if (p < cap && pick[p] == k) p++;
            else cand[by_entity[start[e] + k]].entity = -1;
        }
        count[e] = cap;
    }
    free(pick);
    free(by_entity);
    free(fill);
    free(start);

    /* ---- layout: token offsets in corpus order, sample table by entity row ---- */
    int64_t S = 0, T = 0;
    int elem = vocab.n <= 65536 ? 2 : 4;
    int64_t *first_of_row = xcalloc((size_t)E + 1, sizeof *first_of_row);
    for (int64_t e = 0; e < ne; e++)
        if (row_of[e] >= 0) first_of_row[row_of[e] + 1] = count[e];
    for (int64_t r = 0; r < E; r++) first_of_row[r + 1] += first_of_row[r];
    S = first_of_row[E];
    int64_t *s_off = xmalloc((size_t)S * sizeof *s_off), *s_sent = xmalloc((size_t)S * sizeof *s_sent);
    int32_t *s_len = xmalloc((size_t)S * sizeof *s_len), *s_mask = xmalloc((size_t)S * sizeof *s_mask);
    int64_t *rfill = xmalloc((size_t)E * sizeof *rfill);
    memcpy(rfill, first_of_row, (size_t)E * sizeof *rfill);
    int64_t *chunk_first = xmalloc(sizeof *chunk_first), *chunk_tokens = NULL;
    int64_t nchunks = 0, chunk_bytes = 0;
    int64_t hist[65536] = {0};
    for (size_t ci = 0; ci < ncand; ci++) {
        candidate *k = &cand[ci];
        if (k->entity < 0) continue;
        if (!nchunks || chunk_bytes + (int64_t)k->length * elem > MAX_CHUNK_BYTES) {
            chunk_first = xrealloc(chunk_first, (size_t)(nchunks + 1) * sizeof *chunk_first);
            chunk_tokens = xrealloc(chunk_tokens, (size_t)(nchunks + 1) * sizeof *chunk_tokens);
            chunk_first[nchunks] = T;
            chunk_tokens[nchunks++] = 0;
            chunk_bytes = 0;
        }
        int64_t j = rfill[row_of[k->entity]]++;
        s_off[j] = T;
        s_len[j] = k->length;
        s_mask[j] = k->mask;
        s_sent[j] = CAND_SENTENCE(k);
        T += k->length;
        chunk_tokens[nchunks - 1] += k->length;
        chunk_bytes += (int64_t)k->length * elem;
        hist[k->length]++;
    }

    /* ---- write ---- */
    artifact_writer *w = artifact_create(out, "samples", SAMPLES_SCHEMA);
    artifact_param_options(w);
    if (!corpus_was_option) artifact_param_str(w, "corpus", corpus_path); /* given as the argument */
    artifact_add_input(w, corpus_path);
    msgpack_packer *pk = artifact_payload(w);
    corpus_pack_vocab(pk, &vocab);
    msgpack_pack_map(pk, 4);
    mp_kv_int(pk, "entities", E);
    mp_str(pk, "eid");
    msgpack_pack_array(pk, (size_t)E);
    for (int64_t e = 0; e < ne; e++)
        if (row_of[e] >= 0) msgpack_pack_int64(pk, ents.eid[e]);
    mp_str(pk, "name");
    msgpack_pack_array(pk, (size_t)E);
    for (int64_t e = 0; e < ne; e++)
        if (row_of[e] >= 0) mp_str(pk, ents.name[e]);
    pack_bin(pk, "first", first_of_row, (size_t)(E + 1) * sizeof *first_of_row);
    msgpack_pack_map(pk, 5);
    mp_kv_int(pk, "samples", S);
    pack_bin(pk, "offset", s_off, (size_t)S * sizeof *s_off);
    pack_bin(pk, "length", s_len, (size_t)S * sizeof *s_len);
    pack_bin(pk, "mask", s_mask, (size_t)S * sizeof *s_mask);
    pack_bin(pk, "sentence", s_sent, (size_t)S * sizeof *s_sent);
    msgpack_pack_map(pk, 4);
    mp_kv_int(pk, "tokens", T);
    mp_kv_str(pk, "dtype", elem == 2 ? "u16" : "i32");
    mp_kv_int(pk, "chunks", nchunks);
    mp_str(pk, "chunk_first");
    msgpack_pack_array(pk, (size_t)nchunks);
    for (int64_t k = 0; k < nchunks; k++) msgpack_pack_int64(pk, chunk_first[k]);
    free(s_off);
    free(s_len);
    free(s_mask);
    free(s_sent);

    /* ---- pass 2: the token stream, corpus order ---- */
    corpus_reader c3;
    corpus_open(&c3, corpus_path);
    progress_start(&prog, "pass 2", "sentences", nsent);
    unsigned char *buf = xmalloc((size_t)max_wp * 4 + 16);
    int64_t chunk = -1, written = 0;
    size_t ci = 0;
    while (ci < ncand && corpus_next(&c3)) {
        for (; ci < ncand && CAND_SENTENCE(&cand[ci]) == c3.index; ci++) {
            candidate *k = &cand[ci];
            if (k->entity < 0) continue;
            if (chunk < 0 || (chunk + 1 < nchunks && written == chunk_first[chunk + 1])) {
                chunk++;
                msgpack_pack_bin(pk, (size_t)(chunk_tokens[chunk] * elem));
            }
            const corpus_mention *m = &c3.m[CAND_MENTION(k)];
            const int32_t *ids = c3.ids;
            /* [CLS] ids[0:s] [MASK] ids[e:] [SEP] */
            int32_t n = 0;
            n = put_ids(buf, n, elem, &vocab.sp.cls, 1);
            n = put_ids(buf, n, elem, ids, m->wp_start);
            n = put_ids(buf, n, elem, &vocab.sp.mask, 1);
            n = put_ids(buf, n, elem, ids + m->wp_end, c3.nids - m->wp_end);
            n = put_ids(buf, n, elem, &vocab.sp.sep, 1);
            if (n != k->length) die("internal: sample length %d != %d", n, k->length);
            msgpack_pack_bin_body(pk, buf, (size_t)n * elem);
            written += n;
        }
        progress_update(&prog, c3.index + 1);
    }
    progress_end(&prog);
    corpus_close(&c3);
    if (written != T) die("internal: wrote %lld tokens, planned %lld", (long long)written, (long long)T);

    int p50 = percentile(hist, S, 0.5), p90 = percentile(hist, S, 0.9), p99 = percentile(hist, S, 0.99),
        pmax = percentile(hist, S, 1.0);
    /* the statistics, once: the artifact's closing map and the run's metrics */
    const struct { const char *key; int64_t value; } stats[] = {
        {"entities_kept", E},
        {"entities_dropped", dropped_with_samples + never_mentioned},
        {"entities_dropped_few_samples", dropped_with_samples},
        {"entities_never_mentioned", never_mentioned},
        {"entities_capped", capped},
        {"sentences", nsent},
        {"sentences_too_long", long_sentences},
        {"mentions", mentions},
        {"samples", S},
        {"samples_dropped_long_sentence", long_sentence_mentions},
        {"samples_dropped_over_max_wordpieces", long_samples},
        {"tokens", T},
        {"length_p50", p50},
        {"length_p90", p90},
        {"length_p99", p99},
        {"length_max", pmax},
    };
    const size_t nstats = sizeof stats / sizeof stats[0];
    msgpack_pack_map(pk, nstats + 1);
    mp_kv_str(pk, "end", "samples");
    for (size_t i = 0; i < nstats; i++) mp_kv_int(pk, stats[i].key, stats[i].value);
    uint64_t bytes = artifact_bytes(w);
    artifact_commit(w);
    for (size_t i = 0; i < nstats; i++) catalog_metric(stats[i].key, (double)stats[i].value);
    catalog_metric("bytes", (double)bytes);
    char a[32], b[32], d[32], f[32];
    log_info("entities: %s kept, %s dropped (%lld with < %d samples, %lld never mentioned), %lld capped",
             fmt_count(a, E), fmt_count(b, dropped_with_samples + never_mentioned), (long long)dropped_with_samples,
             min_samples, (long long)never_mentioned, (long long)capped);
    log_info("mentions: %s, dropped %lld in sentences > %d words, %lld samples > %d wordpieces",
             fmt_count(a, mentions), (long long)long_sentence_mentions, max_words, (long long)long_samples, max_wp);
    log_info("sample length (wordpieces): p50 %d, p90 %d, p99 %d, max %d", p50, p90, p99, pmax);
    log_done("%s entities, %s samples, %s tokens, %s sentences", fmt_count(a, E), fmt_count(b, S), fmt_count(d, T),
             fmt_count(f, nsent));

    free(buf);
    free(chunk_first);
    free(chunk_tokens);
    free(rfill);
    free(first_of_row);
    free(row_of);
    free(count);
    free(cand);
    intmap_free(&eid_index);
    wp_vocab_free(&vocab);
    entity_table_free(&ents);
    return 0;
}
