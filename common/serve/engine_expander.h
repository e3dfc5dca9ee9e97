/* engine_expander: the serve_expander (common/serve/api.h) over the query engine
 * (common/engine/engine.h) — the whole method for each request's own seed set, from a run
 * folder's corpus index, every variant. Rejected entities are the refinement's hard
 * negatives and accepted ones its positives, as in `probexpan query`.
 *
 * Figures per entity: order (1-based position in the window search), kl_rank (rank by -KL
 * against the final set), kl_score (that -KL), search_score (the window search's anchor
 * score when the entity was added). The engine keeps each query's state in the call, so
 * requests run concurrently. */
#ifndef PROBEXPAN_SERVE_ENGINE_EXPANDER_H
#define PROBEXPAN_SERVE_ENGINE_EXPANDER_H

#include "engine/engine.h"
#include "serve/api.h"

/* Wraps an open engine (which must outlive the expander). */
serve_expander engine_expander(const engine *g);

#endif
