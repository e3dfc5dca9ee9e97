/* dists_expander: the serve_expander (common/serve/api.h) over a run folder's `dists`
 * artifacts, as the batch pipeline leaves them: per variant one file (noclen
 * dists-mlm-1.mp, nocl ensemble-mlm.mp, noen dists-noen-cl.mp, full ensemble-cl.mp);
 * window search (common/method/windowsearch.h) with the pipeline's defaults, then the
 * official re-ranking (common/method/rerank.h: sum aggregate, mu 9, its anchor bands), the
 * pipeline's choice for pattern models. Accepted entities join the seeds; negative seeds
 * are kept out. The contrastive models of noen/full were refined on the dataset's own
 * queries, not on the request's seed set.
 *
 * Figures per entity: order (1-based expansion order), kl_rank (rank by -KL against the
 * final set), kl_score (that -KL). The files are mapped read-only; each call has its own
 * scorer and candidate state, so calls run concurrently. A variant whose file is missing
 * answers 503. */
#ifndef PROBEXPAN_SERVE_DISTS_EXPANDER_H
#define PROBEXPAN_SERVE_DISTS_EXPANDER_H

#include "serve/api.h"

/* Opens the variants' files present in run_dir; each must have the lexicon's entity table
 * (exit 3 otherwise). Dies with exit 3 when none is present. */
serve_expander dists_expander_open(const char *run_dir, const lexicon *lex);
void dists_expander_close(serve_expander *e);

#endif
