/* tokenize: WordPiece-tokenize a dataset's sentences into a `corpus` artifact.
 *
 * Reads entity2id.txt and sentences.json (JSON lines, parsed one line at a time
 * with jansson, streamed from a folder or an archive) and writes the vocabulary,
 * the entity table and every sentence as wordpiece ids, each mention mapped to
 * its wordpiece span (schemas/corpus.md). Lines are parsed by common/dataset/sentences.h:
 * each word of `tokens` is encoded on its own with the uncased BERT tokenizer
 * (lowercasing, accents, punctuation: common/text/wordpiece.h), so a mention's words
 * map to a contiguous span; a mention whose words give no wordpiece at all is
 * dropped, counted in a warning and the `mentions_dropped` metric.
 * `--whole-words` is the official ProbExpan encoding instead: each lowercased
 * word is looked up whole, [UNK] when absent. Without a vocabulary at hand,
 * `--learn-vocab N` first learns one from the sentences (written as vocab.txt).
 * `--lines` is the Unix-pipeline face: text lines on stdin, ids on stdout.
 * Bad input exits 3 naming file, member, line and reason; nothing is written. */
#include <jansson.h>
#include <pthread.h>
#include <libgen.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/artifact.h"
#include "catalog/catalog.h"
#include "base/cli.h"
#include "artifacts/corpus.h"
#include "artifacts/entities.h"
#include "dataset/dataset.h"
#include "base/error.h"
#include "base/hashmap.h"
#include "base/log.h"
#include "dataset/sentences.h"
#include "text/wordpiece.h"

/* A mention the counting pass saw: its entity row, and whether it is embedded in a longer name. */
typedef struct {
    int64_t row;
    int embedded;
} mention_seen;

/* Consecutive lines of sentences.json and what encoding them produced. */
typedef struct {
    char *text;                  /* the lines, each NUL-terminated */
    size_t len, cap;
    size_t *start;
    int64_t *lineno;
    int n, cap_lines;
    int64_t bytes;               /* input bytes, newlines included */
    msgpack_sbuffer out;         /* the packed sentences */
    corpus_totals tot;
    strmap counts;               /* word counts (counting pass) */
    mention_seen *seen;          /* counting pass, when mentions are counted: the lines' mentions */
    size_t nseen, cap_seen;
    int64_t dropped, dropped_line; /* mentions without wordpieces, first line with one */
    int64_t left_out;            /* embedded mentions left out */
    int64_t err_line;            /* > 0: the first bad line, reason in err */
    char err[512];
    int done;
} batch;

#define BATCH_BYTES (512u << 10)

/* --embedded-share's default: chosen leave-one-corpus-out (docs/signals.md, "Mentions embedded in a longer name"). */
#define TOKENIZE_EMBEDDED_SHARE 0.25

/* The ordered pipeline: the main thread reads lines into batches, workers encode
 * them, the main thread consumes finished batches in file order (so the output
 * and the first error reported do not depend on the thread count). */
typedef struct {
    sentence_opts sh;
    int nworkers, nslots;
    batch *slot;
    int64_t submitted, taken, consumed;
    int finished;
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    pthread_t *th;
    sentence main_scratch;
    /* consumer */
    msgpack_packer *pk;          /* NULL in the counting pass */
    strmap *word_counts;         /* counting pass: the words, or NULL (not counted) */
    int64_t *mentions, *embedded; /* counting pass: per entity row, its mentions and the embedded ones */
    int64_t left_out;            /* encoding: embedded mentions left out */
    corpus_totals tot;
    int64_t dropped, dropped_line; /* as in batch */
    int64_t bytes;
    char *where;                 /* "DATASET:sentences.json" for messages */
    progress prog;
} pipeline;

/* One line (common/dataset/sentences.h): in the counting pass counts its words and notes its
 * mentions (each when the pipeline counts them), else packs it as a corpus sentence. Returns
 * 0, or -1 with the reason in b->err. */
static int encode_line(const pipeline *p, sentence *c, batch *b, int64_t lineno, const char *line, size_t len) {
    const sentence_opts *sh = &p->sh;
    int r = sentence_parse(sh, line, len, c, sh->vocab ? NULL : p->word_counts ? &b->counts : NULL, b->err, sizeof b->err);
    if (r < 0) {
        b->err_line = lineno;
        return -1;
    }
    if (r == 0) return 0;
    b->tot.sentences++;
    b->tot.mentions += c->nm;
    b->tot.words += c->nwords;
    if (p->mentions) {
        if (b->nseen + (size_t)c->nm > b->cap_seen) {
            b->cap_seen = (b->nseen + (size_t)c->nm) * 2;
            b->seen = xrealloc(b->seen, b->cap_seen * sizeof *b->seen);
        }
        for (int32_t i = 0; i < c->nm; i++)
            b->seen[b->nseen++] = (mention_seen){intmap_get(sh->eid_row, c->m[i].eid), c->embedded[i]};
    }
    if (sh->vocab) {
        b->left_out += c->left_out;
        if (c->dropped && !b->dropped) b->dropped_line = lineno;
        b->dropped += c->dropped;
        b->tot.wordpieces += (int64_t)c->ids.n;
        b->tot.unk += c->unk;
        msgpack_packer pk;
        msgpack_packer_init(&pk, &b->out, msgpack_sbuffer_write);
        corpus_pack_sentence(&pk, lineno, c->nwords, c->ids.id, (int32_t)c->ids.n, c->m, c->nm);
    }
    return 0;
}

static void encode_batch(const pipeline *p, sentence *c, batch *b) {
    for (int i = 0; i < b->n; i++)
        if (encode_line(p, c, b, b->lineno[i], b->text + b->start[i], b->start[i + 1] - b->start[i] - 1) < 0) break;
}

static void *worker(void *arg) {
    pipeline *p = arg;
    sentence c = {0};
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (p->taken == p->submitted && !p->finished) pthread_cond_wait(&p->work, &p->mu);
        if (p->taken == p->submitted) break;
        batch *b = &p->slot[p->taken++ % p->nslots];
        pthread_mutex_unlock(&p->mu);
        encode_batch(p, &c, b);
        pthread_mutex_lock(&p->mu);
        b->done = 1;
        pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    sentence_free(&c);
    wp_thread_done();
    return NULL;
}

static void reset_batch(batch *b) {
    b->len = 0;
    b->n = 0;
    b->bytes = 0;
    b->out.size = 0;
    memset(&b->tot, 0, sizeof b->tot);
    strmap_free(&b->counts);
    strmap_init(&b->counts);
    b->nseen = 0;
    b->dropped = 0;
    b->left_out = 0;
    b->err_line = 0;
    b->done = 0;
}

/* Consumes the oldest batch: dies on its error, else writes/merges its result. */
static void consume_one(pipeline *p) {
    batch *b = &p->slot[p->consumed % p->nslots];
    if (p->nworkers) {
        pthread_mutex_lock(&p->mu);
        while (!b->done) pthread_cond_wait(&p->done, &p->mu);
        pthread_mutex_unlock(&p->mu);
    } else {
        encode_batch(p, &p->main_scratch, b);
    }
    if (b->err_line) {
        char pos[40];
        snprintf(pos, sizeof pos, "line %lld", (long long)b->err_line);
        die_input(p->where, pos, "%s", b->err);
    }
    if (p->pk) msgpack_pack_bin_body(p->pk, b->out.data, b->out.size); /* already-packed sentences, verbatim */
    if (p->word_counts)
        for (size_t s = 0; s < b->counts.cap; s++)
            if (b->counts.hash[s]) strmap_add(p->word_counts, b->counts.key[s], b->counts.klen[s], b->counts.val[s]);
    for (size_t k = 0; k < b->nseen; k++) {
        p->mentions[b->seen[k].row]++;
        p->embedded[b->seen[k].row] += b->seen[k].embedded;
    }
    p->left_out += b->left_out;
    p->tot.sentences += b->tot.sentences;
    p->tot.mentions += b->tot.mentions;
    p->tot.words += b->tot.words;
    p->tot.wordpieces += b->tot.wordpieces;
    p->tot.unk += b->tot.unk;
    if (b->dropped && !p->dropped) p->dropped_line = b->dropped_line;
    p->dropped += b->dropped;
    p->bytes += b->bytes;
    progress_update(&p->prog, p->bytes);
    reset_batch(b);
    pthread_mutex_lock(&p->mu);
    p->consumed++;
    pthread_mutex_unlock(&p->mu);
}

static void submit(pipeline *p) {
    batch *b = &p->slot[p->submitted % p->nslots];
    if (!b->n) return;
    b->start[b->n] = b->len;
    pthread_mutex_lock(&p->mu);
    p->submitted++;
    pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->mu);
    if (p->submitted - p->consumed == p->nslots) consume_one(p);
}


static void sentence_line(void *vctx, const char *member, const char *where, int64_t lineno, char *line, size_t len) {
    (void)member;
    pipeline *p = vctx;
    if (!p->where) p->where = xstrdup(where);
    batch *b = &p->slot[p->submitted % p->nslots];
    if (b->len + len + 1 > b->cap) {
        b->cap = (b->len + len + 1) * 2;
        b->text = xrealloc(b->text, b->cap);
    }
    if (b->n + 2 > b->cap_lines) {
        b->cap_lines = b->cap_lines * 2 + 1024;
        b->start = xrealloc(b->start, (size_t)b->cap_lines * sizeof *b->start);
        b->lineno = xrealloc(b->lineno, (size_t)b->cap_lines * sizeof *b->lineno);
    }
    b->start[b->n] = b->len;
    b->lineno[b->n++] = lineno;
    memcpy(b->text + b->len, line, len + 1);
    b->len += len + 1;
    b->bytes += (int64_t)len + 1;
    if (b->len >= BATCH_BYTES) submit(p);
}

/* Streams sentences.json through the pipeline; the consumer packs into pk
 * (encoding) or adds to word_counts (counting, sh.vocab == NULL). */
static corpus_totals run_sentences(const char *dataset, pipeline *p, const char *label, double *secs, int64_t *bytes) {
    p->nworkers = cli_num_threads() > 1 ? cli_num_threads() : 0;
    p->nslots = p->nworkers ? 2 * p->nworkers + 1 : 1;
    p->slot = xcalloc((size_t)p->nslots, sizeof *p->slot);
    for (int i = 0; i < p->nslots; i++) {
        msgpack_sbuffer_init(&p->slot[i].out);
        strmap_init(&p->slot[i].counts);
    }
    p->submitted = p->taken = p->consumed = 0;
    p->finished = 0;
    memset(&p->tot, 0, sizeof p->tot);
    p->dropped = p->left_out = 0;
    p->bytes = 0;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    p->th = xmalloc((size_t)(p->nworkers ? p->nworkers : 1) * sizeof *p->th);
    for (int i = 0; i < p->nworkers; i++)
        if ((errno = pthread_create(&p->th[i], NULL, worker, p)))
            die_errno("cannot start worker thread %d of %d (not enough memory for its stack? try fewer --threads)", i + 1,
                      p->nworkers);
    progress_start(&p->prog, label, "bytes", 0);
    double t0 = now_seconds();
    if (dataset_read_lines(dataset, "sentences.json", sentence_line, p) == 0)
        die_input(dataset, NULL, "no member sentences.json in the dataset");
    submit(p);
    while (p->consumed < p->submitted) consume_one(p);
    pthread_mutex_lock(&p->mu);
    p->finished = 1;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->nworkers; i++) pthread_join(p->th[i], NULL);
    *secs = now_seconds() - t0;
    *bytes = p->bytes;
    progress_end(&p->prog);
    if (p->tot.sentences == 0) die_input(dataset, "sentences.json", "no sentences: the file is empty or blank");
    for (int i = 0; i < p->nslots; i++) {
        batch *b = &p->slot[i];
        free(b->text);
        free(b->start);
        free(b->lineno);
        msgpack_sbuffer_destroy(&b->out);
        strmap_free(&b->counts);
        free(b->seen);
    }
    free(p->slot);
    free(p->th);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->done);
    return p->tot;
}

/* The entities whose embedded mentions are left out: some, and fewer than `share`
 * of all their mentions; NULL when share <= 0. */
static uint8_t *embedded_left_out(const int64_t *mentions, const int64_t *embedded, int64_t n, double share) {
    if (share <= 0) return NULL;
    uint8_t *leave = xcalloc((size_t)n + 1, 1);
    for (int64_t r = 0; r < n; r++) leave[r] = embedded[r] > 0 && (double)embedded[r] < share * (double)mentions[r];
    return leave;
}

static char *dir_of(const char *path) {
    char *tmp = xstrdup(path), *d = xstrdup(dirname(tmp));
    free(tmp);
    return d;
}

/* --lines: stdin text -> one line of ids per input line */
static int run_lines(const wp_vocab *v, int flags, int special) {
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int64_t lineno = 0;
    wp_ids ids = {0};
    char *out = NULL;
    size_t ocap = 0;
    while ((len = getline(&line, &cap, stdin)) >= 0) {
        lineno++;
        if (len && line[len - 1] == '\n') line[--len] = 0;
        if (len && line[len - 1] == '\r') line[--len] = 0;
        ids.n = 0;
        if (special) wp_ids_push(&ids, v->sp.cls);
        size_t bad;
        if (wp_encode(v, line, (size_t)len, flags, &ids, &bad, NULL) < 0) {
            char pos[40];
            snprintf(pos, sizeof pos, "line %lld", (long long)lineno);
            die_input("-", pos, "invalid UTF-8 at byte %zu of the line", bad + 1);
        }
        if (special) wp_ids_push(&ids, v->sp.sep);
        if (ocap < ids.n * 12 + 2) {
            ocap = ids.n * 12 + 2;
            out = xrealloc(out, ocap);
        }
        size_t o = 0;
        for (size_t i = 0; i < ids.n; i++) o += (size_t)sprintf(out + o, i ? " %d" : "%d", ids.id[i]);
        out[o++] = '\n';
        if (fwrite(out, 1, o, stdout) != o) die_errno("write to stdout failed");
    }
    stdout_flush();
    free(line);
    free(out);
    wp_ids_free(&ids);
    log_done("%lld lines", (long long)lineno);
    return 0;
}

int main(int argc, char **argv) {
    const char *vocab_path = NULL, *out = NULL, *vocab_out = NULL;
    int lines = 0, special = 0, plain_specials = 0, whole_words = 0, learn = 0;
    double embedded_share = TOKENIZE_EMBEDDED_SHARE;
    const cli_option opts[] = {
        {"vocab", OPT_INPUT, &vocab_path, "FILE", "WordPiece vocabulary (vocab.txt, line i = id i)", 0, 0},
        {"out", OPT_OUTPUT, &out, "FILE", "output corpus artifact", 0, 0},
        {"learn-vocab", OPT_INT, &learn, "N", "learn a WordPiece vocabulary of at most N tokens from the sentences instead of --vocab", 0, 10000000},
        {"vocab-out", OPT_OUTPUT, &vocab_out, "FILE", "where --learn-vocab writes vocab.txt (default: vocab.txt beside --out)", 0, 0},
        {"embedded-share", OPT_DOUBLE, &embedded_share, "S", "leave out the mentions embedded in a longer name (the next word a capitalised one: \"Baltimore\" of \"Baltimore Gas and Electric Co\") of each entity whose embedded mentions are fewer than this share of its mentions (more, and they are what the entity is named); 0 = keep every mention", 0, 1},
        {"whole-words", OPT_FLAG, &whole_words, NULL, "official ProbExpan encoding: look each lowercased word up whole, [UNK] when absent (no WordPiece split)", 0, 0},
        {"no-special-literals", OPT_FLAG, &plain_specials, NULL, "treat [CLS] [SEP] [MASK] [PAD] [UNK] in the text as plain text", 0, 0},
        {"lines", OPT_FLAG, &lines, NULL, "read text lines on stdin, write space-separated ids per line on stdout", 0, 0},
        {"special", OPT_FLAG, &special, NULL, "with --lines: wrap each line in [CLS] ... [SEP]", 0, 0},
        {NULL, 0, NULL, NULL, NULL, 0, 0},
    };
    const cli_spec spec = {"tokenize", "WordPiece-tokenize a dataset into a corpus artifact (entity mentions -> wordpiece spans)",
                           "[options] DATASET --vocab vocab.txt --out corpus.mp  |  --vocab vocab.txt --lines",
                           "tokenize ../shared/data/mini-ese.tar.gz --vocab bert/vocab.txt --out work/corpus.mp",
                           "build-samples, probexpan inspect", opts, 1};
    int first = cli_parse(&spec, argc, argv);
    int flags = (plain_specials ? WP_PLAIN_SPECIALS : 0) | (whole_words ? WP_WHOLE_WORDS : 0);

    if (lines) {
        if (!vocab_path) die_usage("--lines needs --vocab");
        if (first < argc || out || learn) die_usage("--lines reads stdin only (no DATASET, --out or --learn-vocab)");
        /* a stdin -> stdout filter: no artifact, so no catalog record (and no
         * catalog.sqlite dropped into the current directory) */
        wp_vocab v;
        wp_vocab_load(&v, vocab_path);
        int rc = run_lines(&v, flags, special);
        wp_vocab_free(&v);
        return rc;
    }
    if (first != argc - 1) die_usage("expected exactly one DATASET (folder, .tar.gz, .tar or .zip)");
    if (!out) die_usage("--out is required");
    if (!vocab_path == !learn) die_usage("give exactly one of --vocab FILE and --learn-vocab N");
    if (learn && learn < 10) die_usage("--learn-vocab N needs N >= 10");
    if (special) die_usage("--special only applies to --lines");
    const char *dataset = argv[first];
    char *outdir = dir_of(out);
    catalog_begin(outdir);

    entity_table ents;
    dataset_read_entities(dataset, &ents);
    pipeline p = {0};
    intmap eid_row;
    entity_table_row_map(&ents, &eid_row);
    p.sh = (sentence_opts){NULL, flags, &eid_row, NULL};
    log_info("%lld entities", (long long)ents.n);
    json_object_seed(0); /* before any thread parses */

    wp_vocab vocab;
    char *learned_path = NULL;
    double secs;
    int64_t bytes;
    strmap counts;
    strmap_init(&counts);
    uint8_t *leave = NULL;
    if (learn || embedded_share > 0) { /* pass 1: word counts, mentions per entity (also validates every line) */
        p.word_counts = learn ? &counts : NULL;
        p.mentions = xcalloc((size_t)ents.n + 1, sizeof *p.mentions);
        p.embedded = xcalloc((size_t)ents.n + 1, sizeof *p.embedded);
        run_sentences(dataset, &p, learn ? "counting words" : "counting mentions", &secs, &bytes);
        p.word_counts = NULL;
        leave = embedded_left_out(p.mentions, p.embedded, ents.n, embedded_share);
        free(p.mentions);
        free(p.embedded);
        p.mentions = p.embedded = NULL;
    }
    p.sh.leave_embedded = leave;
    if (learn) {
        wp_learn(&vocab, &counts, learn);
        log_info("learned a vocabulary of %d tokens from %zu distinct words", vocab.n, counts.n);
        learned_path = vocab_out ? xstrdup(vocab_out) : xasprintf("%s/vocab.txt", outdir);
    } else {
        wp_vocab_load(&vocab, vocab_path);
        if (vocab.sp.cls < 0 || vocab.sp.sep < 0 || vocab.sp.mask < 0)
            die_input(vocab_path, NULL, "vocabulary lacks one of [CLS] [SEP] [MASK]");
    }
    p.sh.vocab = &vocab;

    artifact_writer *w = corpus_create(out);
    artifact_param_options(w);
    artifact_param_str(w, "dataset", dataset);
    if (learn) artifact_param_str(w, "learned_vocab", learned_path);
    artifact_param_int(w, "vocab_size", vocab.n);
    artifact_param_int(w, "lowercase", 1);
    artifact_add_input(w, dataset);
    if (!learn) artifact_add_input(w, vocab_path);
    p.pk = corpus_begin(w, &vocab, &ents);
    corpus_totals tot = run_sentences(dataset, &p, "tokenizing", &secs, &bytes);
    if (p.dropped)
        log_warn("%s: %lld mention%s dropped: %s words produce no wordpieces (first on line %lld)", p.where,
                 (long long)p.dropped, p.dropped > 1 ? "s" : "", p.dropped > 1 ? "their" : "its", (long long)p.dropped_line);
    if (p.left_out)
        log_info("%lld embedded mention%s left out (--embedded-share %g)", (long long)p.left_out, p.left_out > 1 ? "s" : "",
                 embedded_share);
    if (learn) wp_vocab_write(&vocab, learned_path);
    corpus_commit(w, &tot);

    const corpus_totals *t = &tot;
    catalog_metric("entities", (double)ents.n);
    catalog_metric("sentences", (double)t->sentences);
    catalog_metric("mentions", (double)t->mentions);
    catalog_metric("mentions_dropped", (double)p.dropped);
    catalog_metric("mentions_left_out", (double)p.left_out);
    catalog_metric("words", (double)t->words);
    catalog_metric("wordpieces", (double)t->wordpieces);
    catalog_metric("unk", (double)t->unk);
    catalog_metric("vocab_size", vocab.n);
    catalog_metric("input_mb_per_s", secs > 0 ? bytes / 1e6 / secs : 0);
    catalog_metric("sentences_per_s", secs > 0 ? t->sentences / secs : 0);
    char a[32], b[32], d[32], e[32];
    log_done("%s sentences, %s mentions, %s wordpieces (%s [UNK]), %.1f MB/s", fmt_count(a, t->sentences),
             fmt_count(b, t->mentions), fmt_count(d, t->wordpieces), fmt_count(e, t->unk),
             secs > 0 ? bytes / 1e6 / secs : 0.0);
    sentence_free(&p.main_scratch);
    strmap_free(&counts);
    free(leave);
    free(p.where);
    intmap_free(&eid_row);
    wp_vocab_free(&vocab);
    entity_table_free(&ents);
    free(learned_path);
    free(outdir);
    return 0;
}
