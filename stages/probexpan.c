/* probexpan: the git-style dispatcher. `probexpan STAGE args…` runs the program
 * for STAGE: bin/STAGE beside this binary in a build tree, or probexpan-STAGE
 * beside it when installed. `probexpan --help` lists the stages (in pipeline order;
 * tests/stage/inspect.sh checks that the list names every program in bin/). */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"

static const struct { const char *name, *purpose; } stages[] = {
    {"annotate", "plain text + entity list -> dataset (entity2id.txt, sentences.json, gt/, query/)"},
    {"tokenize", "dataset -> corpus: WordPiece ids with mention spans; --learn-vocab, --lines"},
    {"build-samples", "corpus -> samples: one [MASK]ed sentence per mention"},
        {"build-pairs", "ranked -> pairs: the contrastive sets and sample pairs"},
    {"train-mlm", "masked-entity prediction training of one model"},
    {"train-cl", "contrastive training with hard negatives, alternating with prediction"},
    {"infer", "model + samples -> dists: mean entity distributions (V_e x V_e)"},
    {"pattern-dists", "samples -> dists from context-pattern counts, no encoder (the default entity model)"},
    {"score-models", "KL consistency of seeds -> pick top-k models, ensemble their dists"},
    {"expand", "window search with the anchor distribution, per query"},
    {"rerank", "re-rank expansions by expansion order and KL rank"},
    {"index", "samples -> index: entity table, mention counts, pattern-model feature counts (linear size)"},
    {"pattern-model", "index (+ pairs) -> patmodel: a pattern model's subset and weights, rows computed on demand"},
    {"query", "one seed set -> the whole method from the index, ranked list as TSV/JSON"},
    {"classes", "the classes a corpus holds, from its index alone: shared definition heads, typical members"},
    {"evaluate", "MAP@10/20/50/100 per query, class and overall; side-by-side tables"},
    {"serve", "HTTP server: JSON API and web page to steer expansions of a run"},
    {"inspect", "print an artifact as JSON lines"},
    {"catalog", "list artifacts, runs and lineage recorded in catalog.sqlite"},
};
#define NSTAGES (sizeof stages / sizeof stages[0])

static void usage(FILE *f) {
    fprintf(f, "probexpan - Entity Set Expansion with ProbExpan (SIGIR'22), in C\n\n"
               "Usage: probexpan STAGE [options]   (probexpan STAGE --help for each)\n\nStages:\n");
    for (size_t i = 0; i < NSTAGES; i++) fprintf(f, "  %-14s %s\n", stages[i].name, stages[i].purpose);
    fprintf(f, "\ne.g.:\n  probexpan expand --dists run/ensemble.mp --seeds 'Ohio,Texas,Iowa' --names\n");
}

int main(int argc, char **argv) {
    pe_progname = "probexpan";
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return argc < 2 ? EXIT_USAGE : 0;
    }
    if (!strcmp(argv[1], "--version")) { puts("probexpan 0.1.0"); return 0; }
    size_t i = 0;
    while (i < NSTAGES && strcmp(argv[1], stages[i].name)) i++;
    if (i == NSTAGES) {
        usage(stderr);
        die_usage("unknown stage '%s'", argv[1]);
    }
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n < 0) die_errno("cannot find my own location");
    self[n] = '\0';
    char *dir = dirname(self);
    char *installed = xasprintf("%s/probexpan-%s", dir, argv[1]);
    char *built = xasprintf("%s/%s", dir, argv[1]);
    const char *target = access(installed, X_OK) == 0 ? installed : built;
    argv[1] = (char *)target;
    execv(target, argv + 1);
    die_errno("cannot run %s", target);
}
