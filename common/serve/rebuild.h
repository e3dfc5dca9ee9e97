/* rebuild: a new dataset and run from the reviewed names file, made in the background while
 * `serve` keeps answering from the run it loaded.
 *
 *   POST /api/rebuild    starts one (202; 409 while one runs) (api_rebuild_start)
 *   GET  /api/rebuild    its state, stage and fraction done, error (api_rebuild_status)
 *
 * The stages run the project's own programs as child processes (their own process group, output
 * to NEWRUN.log), as a user would: the work is the same as on the command line, a failure of any
 * of them (exit 3 on bad input) is a state of the rebuild, never the server's end, and nothing of
 * the server's memory is shared with them.
 *   text      the loaded dataset's sentences.json as text, one sentence a line: ID<TAB>tokens
 *             (the sentences that hold a mention: deleting, renaming and merging names only
 *             ever keep or drop the mentions found in them)
 *   annotate  annotate --entities NAMES --format lines --ids --out NEWDATA TEXT; NAMES is copied
 *             into NEWDATA/names.tsv, so that serve over the new run reviews it again
 *   tokenize, samples, index
 *             make -f pipelines/probexpan.mk DATA=NEWDATA RUN=NEWRUN index, with the loaded run's
 *             parameters (its params-text/samples/index.txt: MODEL, VOCAB_SIZE, MAX_WORDPIECES,
 *             INDEX_FLAGS) and THREADS=1, so queries keep the other cores
 * NEWDATA and NEWRUN are DATASET.N and RUN.N beside the loaded ones (a trailing .N of theirs
 * replaced; N = 2, 3, …: the first for which neither exists). The server does not switch to the
 * new run: every request thread shares the loaded run's engine, row cache and lexicon without
 * reference counts; when done, the status says the command that serves the new run. */
#ifndef PROBEXPAN_SERVE_REBUILD_H
#define PROBEXPAN_SERVE_REBUILD_H

#include "serve/names_review.h"

typedef struct rebuild rebuild;

typedef struct {
    const char *names;    /* the reviewed names file */
    const char *dataset;  /* the dataset the server loaded */
    const char *run;      /* the run folder the server loaded */
    const char *bin_dir;  /* the folder of the programs (annotate, and the pipeline's BIN) */
    const char *pipeline; /* pipelines/probexpan.mk, or NULL when not found (rebuilds are refused) */
} rebuild_paths;

/* Rebuilds from the names file of review (held while a rebuild runs: no edit lands meanwhile). */
rebuild *rebuild_new(const rebuild_paths *p, names_review *review);
/* Stops a running rebuild (its process group gets SIGTERM), waits for it, frees b. */
void rebuild_free(rebuild *b);

#endif
