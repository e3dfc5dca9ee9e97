/* why: the answer to "why not X?" for one expansion — where it places an entity the user
 * names (engine_place: in the list at its rank, or outside it with the place the final search
 * and the re-ranking's score give it, or a seed, accepted or rejected), the context features
 * the entity shares with the set's members (ties_explain) and those the members share that it
 * lacks (ties_missing), with a summary in plain words. One JSON shape for serve's
 * GET /api/entity/{eid}/why and `query --why` (docs/api.md):
 *   {eid, name, mentions, status, rank, score, order, kl_rank, kl_score, search_rank, listed,
 *    list_kl_score: [best, worst], members: [{eid, name}], similarity, shared_features,
 *    shared_all, features: [...], selected_features, selected_held, missing: [...], summary}
 * (figures that do not apply to the status are null). Features are listed as the contexts
 * route lists them: {feature, kind, weight, count, seed_counts, seeds_sharing, contribution};
 * a missing one has count 0 and `score` (its score in the seeds' feature selection) instead
 * of a contribution. */
#ifndef PROBEXPAN_SERVE_WHY_H
#define PROBEXPAN_SERVE_WHY_H

#include <jansson.h>

#include "serve/ties.h"

/* The set an answer was computed for: its members (the seeds, then the accepted entities) and
 * its rejected entities, as rows of the engine's index. */
typedef struct {
    const int64_t *members;
    int nmembers, naccepted; /* naccepted: how many of the members are accepted ones */
    const int64_t *negatives;
    int nnegatives;
} why_set;

/* The members of a set: seeds[0..nseeds) then the accepted entities that are not seeds, into
 * out (room for nseeds + naccepted); returns how many. */
int why_members(const int64_t *seeds, int nseeds, const int64_t *accepted, int naccepted, int64_t *out);

/* The answer for place p (not ENGINE_PLACE_NONE) of an expansion of set s, with up to `limit`
 * shared and `limit` missing features; o and others are the feature selection's options and
 * other entities as the expansion used them (engine_select_opts, engine_select_others). */
json_t *why_json(const ties *t, const engine_place *p, const why_set *s, const seedfeat_opts *o,
                 const seedfeat_set *others, int limit);

/* One feature of a ties_result as JSON (item i of r); `score_key` names its contribution
 * ("contribution", or "score" for a missing one). */
json_t *why_feature_json(const ties_result *r, int i, const char *score_key);

#endif
