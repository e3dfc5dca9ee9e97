/* samples_build: the samples artifact from a corpus artifact, in two passes (samples_build.h). */
#include "model/samples_build.h"

#include <stdlib.h>
#include <string.h>

#include "artifacts/corpus.h"
#include "base/error.h"
#include "base/hashmap.h"
#include "base/log.h"
#include "base/rng.h"
#include "base/sort.h"

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

struct samples_build {
    const char *corpus_path;
    samples_build_opts o;
    candidate *cand;
    size_t ncand;
    wp_vocab vocab;
    entity_table ents;
    int64_t *count;  /* samples kept per corpus entity */
    int64_t *row_of; /* corpus entity -> samples row, -1 when dropped */
    int64_t E, sentences, mentions, long_sentences, long_sentence_mentions, long_samples;
    int64_t dropped_with_samples, never_mentioned, capped;
};

samples_build_opts samples_build_defaults(void) {
    return (samples_build_opts){.max_words = 150, .max_wordpieces = 512, .min_samples = 2, .max_per_entity = 0, .seed = 1};
}

/* Pass 1: every mention of a sentence within max_words whose sample fits max_wordpieces. */
static void scan_candidates(samples_build *b) {
    corpus_reader c;
    corpus_open(&c, b->corpus_path);
    intmap eid_index;
    entity_table_row_map(&c.ents, &eid_index);
    size_t ccap = 0;
    progress prog;
    progress_start(&prog, "pass 1", "sentences", 0);
    while (corpus_next(&c)) {
        b->mentions += c.nm;
        if (c.nwords > b->o.max_words) {
            b->long_sentences++;
            b->long_sentence_mentions += c.nm;
            continue;
        }
        for (int32_t k = 0; k < c.nm; k++) {
            int64_t e = intmap_get(&eid_index, c.m[k].eid);
            if (e < 0) die_input(b->corpus_path, NULL, "sentence %lld: mention of eid %lld not in the entity table",
                                 (long long)c.index, (long long)c.m[k].eid);
            int64_t len = (int64_t)c.nids - (c.m[k].wp_end - c.m[k].wp_start) + 3;
            if (len > b->o.max_wordpieces) { b->long_samples++; continue; }
            if (k >= (1 << MENTION_BITS) || c.index >= ((int64_t)1 << (64 - MENTION_BITS)))
                die_input(b->corpus_path, NULL, "sentence %lld: more than %d mentions", (long long)c.index, 1 << MENTION_BITS);
            if (b->ncand == ccap) { ccap = ccap * 2 + 4096; b->cand = xrealloc(b->cand, ccap * sizeof *b->cand); }
            b->cand[b->ncand++] = (candidate){(uint64_t)c.index << MENTION_BITS | (uint64_t)k, (int32_t)e, (uint16_t)len,
                                              (uint16_t)(1 + c.m[k].wp_start)};
        }
        progress_update(&prog, c.index + 1);
    }
    progress_end(&prog);
    b->sentences = c.totals.sentences;
    b->vocab = c.vocab; /* keep the vocabulary and entity table */
    b->ents = c.ents;
    memset(&c.vocab, 0, sizeof c.vocab);
    memset(&c.ents, 0, sizeof c.ents);
    corpus_close(&c);
    intmap_free(&eid_index);
}

/* Entities with fewer than min_samples candidates lose them all; the others over
 * max_per_entity keep a seeded random subset. */
static void select_samples(samples_build *b) {
    int64_t ne = b->ents.n;
    candidate *cand = b->cand;
    int64_t *count = b->count = xcalloc((size_t)(ne ? ne : 1), sizeof *count);
    for (size_t i = 0; i < b->ncand; i++) count[cand[i].entity]++;
    int64_t *row_of = b->row_of = xmalloc((size_t)(ne ? ne : 1) * sizeof *row_of);
    for (int64_t e = 0; e < ne; e++) {
        if (count[e] >= b->o.min_samples) row_of[e] = b->E++;
        else {
            row_of[e] = -1;
            if (count[e]) b->dropped_with_samples++;
            else b->never_mentioned++;
        }
    }
    if (b->E == 0) die_input(b->corpus_path, NULL, "no entity has %d or more usable samples", b->o.min_samples);
    /* candidate lists per entity, then the cap */
    int64_t *start = xcalloc((size_t)ne + 1, sizeof *start);
    for (int64_t e = 0; e < ne; e++) start[e + 1] = start[e] + count[e];
    int64_t *by_entity = xmalloc((b->ncand ? b->ncand : 1) * sizeof *by_entity),
            *fill = xmalloc((size_t)(ne ? ne : 1) * sizeof *fill);
    memcpy(fill, start, (size_t)ne * sizeof *fill);
    for (size_t i = 0; i < b->ncand; i++) by_entity[fill[cand[i].entity]++] = (int64_t)i;
    rng_t rng;
    rng_seed(&rng, b->o.seed);
    int64_t cap = b->o.max_per_entity, *pick = NULL;
    for (int64_t e = 0; e < ne; e++) {
        int64_t n = count[e];
        if (row_of[e] < 0) {
            for (int64_t k = 0; k < n; k++) cand[by_entity[start[e] + k]].entity = -1;
            continue;
        }
        if (cap <= 0 || n <= cap) continue;
        b->capped++;
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
}

samples_build *samples_build_scan(const char *corpus_path, const samples_build_opts *o) {
    samples_build *b = xcalloc(1, sizeof *b);
    b->corpus_path = corpus_path;
    b->o = *o;
    scan_candidates(b);
    select_samples(b);
    return b;
}

int32_t samples_build_vocab_size(const samples_build *b) { return b->vocab.n; }

/* The sample table by entity row, the samples placed in corpus order. */
static void lay_out(const samples_build *b, samples_writer *sw) {
    int64_t E = b->E;
    int64_t *first_of_row = xcalloc((size_t)E + 1, sizeof *first_of_row);
    for (int64_t e = 0; e < b->ents.n; e++)
        if (b->row_of[e] >= 0) first_of_row[b->row_of[e] + 1] = b->count[e];
    for (int64_t r = 0; r < E; r++) first_of_row[r + 1] += first_of_row[r];
    samples_plan(sw, E, first_of_row);
    for (size_t ci = 0; ci < b->ncand; ci++)
        if (b->cand[ci].entity >= 0)
            samples_place(sw, b->row_of[b->cand[ci].entity], b->cand[ci].length, b->cand[ci].mask, CAND_SENTENCE(&b->cand[ci]));
    free(first_of_row);
}

/* Pass 2: the token stream, corpus order. */
static void write_tokens(const samples_build *b, samples_writer *sw) {
    corpus_reader c;
    corpus_open(&c, b->corpus_path);
    progress prog;
    progress_start(&prog, "pass 2", "sentences", b->sentences);
    size_t ci = 0;
    while (ci < b->ncand && corpus_next(&c)) {
        for (; ci < b->ncand && CAND_SENTENCE(&b->cand[ci]) == c.index; ci++) {
            const candidate *k = &b->cand[ci];
            if (k->entity < 0) continue;
            const corpus_mention *m = &c.m[CAND_MENTION(k)];
            samples_write_masked(sw, c.ids, m->wp_start, c.ids + m->wp_end, c.nids - m->wp_end);
        }
        progress_update(&prog, c.index + 1);
    }
    progress_end(&prog);
    corpus_close(&c);
}

void samples_build_write(samples_build *b, samples_writer *sw, samples_build_report *report) {
    lay_out(b, sw);
    samples_begin(sw, &b->vocab, &b->ents, b->row_of);
    int64_t T = samples_planned_tokens(sw);
    write_tokens(b, sw);
    int p50 = samples_length_percentile(sw, 0.5), p90 = samples_length_percentile(sw, 0.9),
        p99 = samples_length_percentile(sw, 0.99), pmax = samples_length_percentile(sw, 1.0);
    int64_t S = 0;
    for (int64_t e = 0; e < b->ents.n; e++)
        if (b->row_of[e] >= 0) S += b->count[e];
    const samples_stat stats[SAMPLES_BUILD_STATS] = {
        {"entities_kept", b->E},
        {"entities_dropped", b->dropped_with_samples + b->never_mentioned},
        {"entities_dropped_few_samples", b->dropped_with_samples},
        {"entities_never_mentioned", b->never_mentioned},
        {"entities_capped", b->capped},
        {"sentences", b->sentences},
        {"sentences_too_long", b->long_sentences},
        {"mentions", b->mentions},
        {"samples", S},
        {"samples_dropped_long_sentence", b->long_sentence_mentions},
        {"samples_dropped_over_max_wordpieces", b->long_samples},
        {"tokens", T},
        {"length_p50", p50},
        {"length_p90", p90},
        {"length_p99", p99},
        {"length_max", pmax},
    };
    memcpy(report->stat, stats, sizeof stats);
    report->entities = b->E;
    report->samples = S;
    report->tokens = T;
    report->sentences = b->sentences;
    report->bytes = samples_commit(sw, stats, SAMPLES_BUILD_STATS);
    char a[32], c[32];
    log_info("entities: %s kept, %s dropped (%lld with < %d samples, %lld never mentioned), %lld capped",
             fmt_count(a, b->E), fmt_count(c, b->dropped_with_samples + b->never_mentioned),
             (long long)b->dropped_with_samples, b->o.min_samples, (long long)b->never_mentioned, (long long)b->capped);
    log_info("mentions: %s, dropped %lld in sentences > %d words, %lld samples > %d wordpieces", fmt_count(a, b->mentions),
             (long long)b->long_sentence_mentions, b->o.max_words, (long long)b->long_samples, b->o.max_wordpieces);
    log_info("sample length (wordpieces): p50 %d, p90 %d, p99 %d, max %d", p50, p90, p99, pmax);
    free(b->cand);
    free(b->count);
    free(b->row_of);
    wp_vocab_free(&b->vocab);
    entity_table_free(&b->ents);
    free(b);
}
