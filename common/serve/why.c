/* why: "why not X?" for one expansion, as JSON with a summary in plain words (contract in why.h). */
#include "serve/why.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"

static const char *const kind_name[] = {[PATTERN_NGRAM] = "pattern", [PATTERN_BAG] = "word", [PATTERN_GENUS] = "genus",
                                        [PATTERN_LIST] = "list", [PATTERN_HEAD] = "head", [PATTERN_NAME] = "name",
                                        [PATTERN_DIFFERENTIA] = "differentia"};

json_t *why_feature_json(const ties_result *r, int i, const char *score_key) {
    const tie *it = &r->items[i];
    json_t *o = json_object(), *counts = json_array();
    /* vocabulary tokens are UTF-8 (checked when the corpus was read); a cut may split one */
    json_t *text = json_string(it->text);
    json_object_set_new(o, "feature", text ? text : json_string("(not UTF-8)"));
    json_object_set_new(o, "kind", json_string(kind_name[it->kind]));
    json_object_set_new(o, "weight", json_real(it->weight));
    json_object_set_new(o, "count", json_integer(it->count));
    for (int s = 0; s < r->nseeds; s++) json_array_append_new(counts, json_integer(r->seed_count[(size_t)i * (size_t)r->nseeds + (size_t)s]));
    json_object_set_new(o, "seed_counts", counts);
    json_object_set_new(o, "seeds_sharing", json_integer(it->seeds_sharing));
    json_object_set_new(o, score_key, json_real(it->contribution));
    return o;
}

static json_t *feature_list(const ties_result *r, const char *score_key) {
    json_t *a = json_array();
    for (int i = 0; i < r->n; i++) json_array_append_new(a, why_feature_json(r, i, score_key));
    return a;
}

static const char *ordinal_suffix(int n) {
    if (n % 100 >= 11 && n % 100 <= 13) return "th";
    return n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
}

static json_t *num_or_null(int applies, double v) { return applies && isfinite(v) ? json_real(v) : json_null(); }
static json_t *int_or_null(int applies, int64_t v) { return applies ? json_integer(v) : json_null(); }

/* Appends printf text to f. */
#define SAY(...) fprintf(f, __VA_ARGS__)

/* The summary: where the expansion places it, then what it shares and lacks. */
static char *summary(const engine_place *p, const char *name, const why_set *s, int64_t shared_all, int64_t shared_any,
                     int selected, int held) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) die_errno("open_memstream");
    switch (p->kind) {
    case ENGINE_PLACE_LISTED:
        SAY("%s is in the list: rank %d of %d (found %d%s by the search, %d%s closest to the set).", name, p->rank, p->listed,
            p->order, ordinal_suffix(p->order), p->kl_rank, ordinal_suffix(p->kl_rank));
        break;
    case ENGINE_PLACE_OUTSIDE:
        SAY("%s is not in the top %d: the search would take it %d%s after the list (rank about %d);", name, p->listed,
            p->search_rank, ordinal_suffix(p->search_rank), p->rank);
        break;
    case ENGINE_PLACE_REJECTED:
        SAY("%s is rejected, so never listed; were it not, the search would take it %d%s after the list;", name,
            p->search_rank, ordinal_suffix(p->search_rank));
        break;
    default:
        SAY("%s is %s: one of the set the list is expanded from.", name, p->kind == ENGINE_PLACE_SEED ? "a seed" : "accepted");
    }
    if (p->kind == ENGINE_PLACE_OUTSIDE || p->kind == ENGINE_PLACE_REJECTED) {
        SAY(" its closeness to the set (-KL %.3g) would come %d%s of %d", p->kl_score, p->kl_rank, ordinal_suffix(p->kl_rank),
            p->listed + 1);
        if (p->listed) SAY(" (the listed run from %.3g to %.3g).", p->list_kl_best, p->list_kl_worst);
        else SAY(".");
    }
    const char *who = s->naccepted ? "seeds and accepted entities" : "seeds";
    if (shared_all) SAY(" It shares %lld context%s with all %d %s", (long long)shared_all, shared_all == 1 ? "" : "s", s->nmembers, who);
    else SAY(" It shares no context with all %d %s", s->nmembers, who);
    SAY(" (%lld with at least one);", (long long)shared_any);
    SAY(" of the %d contexts the %s share most it holds %d and lacks %d.", selected, who, held, selected - held);
    if (fclose(f)) die_errno("open_memstream");
    return text;
}
#undef SAY

int why_members(const int64_t *seeds, int nseeds, const int64_t *accepted, int naccepted, int64_t *out) {
    memcpy(out, seeds, sizeof(int64_t) * (size_t)nseeds);
    int n = nseeds;
    for (int i = 0; i < naccepted; i++) {
        int seed = 0;
        for (int k = 0; k < nseeds && !seed; k++) seed = seeds[k] == accepted[i];
        if (!seed) out[n++] = accepted[i];
    }
    return n;
}

json_t *why_json(const ties *t, const engine_place *p, const why_set *s, const seedfeat_opts *o,
                 const seedfeat_set *others, int limit) {
    const corpus_index *x = engine_index(ties_engine(t));
    int64_t e = p->row, shared_all, shared_any;
    ties_shared_counts(engine_model(ties_engine(t)), s->members, s->nmembers, &e, 1, &shared_all, &shared_any);
    ties_result shared, missing;
    int held;
    ties_explain(t, e, s->members, s->nmembers, limit, &shared);
    ties_missing(t, e, s->members, s->nmembers, o, others, &(seedfeat_set){s->negatives, s->nnegatives}, limit, &missing,
                 &held);
    static const char *const status[] = {[ENGINE_PLACE_LISTED] = "listed", [ENGINE_PLACE_OUTSIDE] = "outside",
                                         [ENGINE_PLACE_REJECTED] = "rejected", [ENGINE_PLACE_SEED] = "seed",
                                         [ENGINE_PLACE_ACCEPTED] = "accepted"};
    int listed = p->kind == ENGINE_PLACE_LISTED, placed = listed || p->kind == ENGINE_PLACE_OUTSIDE,
        scored = placed || p->kind == ENGINE_PLACE_REJECTED;
    json_t *root = json_object(), *members = json_array(), *range = json_array();
    json_object_set_new(root, "eid", json_integer(x->ent.eid[e]));
    json_object_set_new(root, "name", json_string(x->ent.name[e]));
    json_object_set_new(root, "mentions", json_integer(x->mentions[e]));
    json_object_set_new(root, "status", json_string(status[p->kind]));
    json_object_set_new(root, "rank", int_or_null(placed, p->rank));
    json_object_set_new(root, "score", num_or_null(listed, p->score));
    json_object_set_new(root, "order", int_or_null(listed, p->order));
    json_object_set_new(root, "kl_rank", int_or_null(scored, p->kl_rank));
    json_object_set_new(root, "kl_score", num_or_null(scored, p->kl_score));
    json_object_set_new(root, "search_rank", int_or_null(scored && !listed, p->search_rank));
    json_object_set_new(root, "listed", json_integer(p->listed));
    json_array_append_new(range, num_or_null(p->listed > 0, p->list_kl_best));
    json_array_append_new(range, num_or_null(p->listed > 0, p->list_kl_worst));
    json_object_set_new(root, "list_kl_score", range);
    for (int i = 0; i < s->nmembers; i++)
        json_array_append_new(members, json_pack("{s:I,s:s}", "eid", (json_int_t)x->ent.eid[s->members[i]], "name",
                                                 x->ent.name[s->members[i]]));
    json_object_set_new(root, "members", members);
    json_object_set_new(root, "similarity", json_real(shared.similarity));
    json_object_set_new(root, "shared_features", json_integer(shared.shared));
    json_object_set_new(root, "shared_all", json_integer(shared_all));
    json_object_set_new(root, "features", feature_list(&shared, "contribution"));
    json_object_set_new(root, "selected_features", json_integer(missing.shared));
    json_object_set_new(root, "selected_held", json_integer(held));
    json_object_set_new(root, "missing", feature_list(&missing, "score"));
    char *text = summary(p, x->ent.name[e], s, shared_all, shared_any, (int)missing.shared, held);
    json_t *j = json_string(text);
    json_object_set_new(root, "summary", j ? j : json_string("(not UTF-8)"));
    free(text);
    ties_result_free(&shared);
    ties_result_free(&missing);
    return root;
}
