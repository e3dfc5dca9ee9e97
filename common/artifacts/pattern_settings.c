/* pattern_settings: the pattern model's settings (defaults, range checks), the kind of a
 * counted feature key and freeing the counts (see pattern_settings.h). */
#include "artifacts/pattern_settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"

pattern_config pattern_config_defaults(pattern_estimator e) {
    pattern_config c = {.estimator = e, .long_patterns = 1, .bag = 8, .bag_weight = 1.5, .genus_weight = 3.0,
                        .list_weight = 0.0, .head_weight = 0.0, .name_weight = 0.0, .differentia_weight = 0.0, .evidence = 0.0,
                        .min_entities = 2, .idf_power = 0.0, .temperature = 1.0, .prior_power = 0.5,
                        .feature_fraction = 1.0, .seed = 1};
    if (e == PATTERN_PREDICTION) {
        c.bag = 0;
        c.min_entities = 4;
        c.idf_power = 2.0;
    }
    return c;
}

pattern_kind pattern_key_kind(uint64_t key) {
    static const pattern_kind tagged[4] = {PATTERN_DIFFERENTIA, PATTERN_LIST, PATTERN_HEAD, PATTERN_NAME};
    if (key & 1) return PATTERN_NGRAM;
    if ((key & 3) == 0) return PATTERN_BAG;
    uint64_t field = (key >> 2) & TAGGED_FIELD;
    return (field & ~3ULL) == TAGGED_PATTERN ? tagged[field & 3] : PATTERN_GENUS;
}

double pattern_kind_weight(const pattern_config *c, pattern_kind k) {
    switch (k) {
    case PATTERN_BAG: return c->bag_weight;
    case PATTERN_GENUS: return c->genus_weight;
    case PATTERN_LIST: return c->list_weight;
    case PATTERN_HEAD: return c->head_weight;
    case PATTERN_NAME: return c->name_weight;
    case PATTERN_DIFFERENTIA: return c->differentia_weight;
    case PATTERN_NGRAM: break;
    }
    return 1.0;
}

/* The settings of both tables in their ranges; with minus1_ok, -1 also where a row gives it a meaning. */
static int check_settings(const pattern_config *c, int minus1_ok, char *err, size_t n) {
#define PATTERN_CHECK(c, name, field, type, metavar, help, min, max, minus1)                                         \
    if (!(minus1_ok && sizeof(minus1) > 1 && (c)->field == -1) &&                                                   \
        !((double)(c)->field >= (min) && (double)(c)->field <= (max))) {                                            \
        snprintf(err, n, "%s (--%s) %g: expected %g..%g", #field, name, (double)(c)->field, (double)(min),          \
                 (double)(max));                                                                                   \
        return 0;                                                                                                  \
    }
    PATTERN_COUNT_SETTINGS(PATTERN_CHECK, c)
    PATTERN_ESTIMATE_SETTINGS(PATTERN_CHECK, c)
#undef PATTERN_CHECK
    return 1;
}

int pattern_config_check(const pattern_config *c, char *err, size_t n) { return check_settings(c, 0, err, n); }

void pattern_config_finish_options(pattern_config *c) {
    pattern_config d = pattern_config_defaults(c->estimator);
    if (c->bag == -1) c->bag = d.bag;
    if (c->min_entities == -1) c->min_entities = d.min_entities;
    if (c->idf_power == -1) c->idf_power = d.idf_power;
    char err[200];
    if (!check_settings(c, 1, err, sizeof err)) die_usage("%s", err);
}

void pattern_counts_free(pattern_counts *k) {
    free(k->key);
    free(k->foff);
    free(k->ent);
    free(k->cnt);
    free(k->mentions);
    memset(k, 0, sizeof *k);
}

void located_pairs_free(located_pairs *p) {
    free(p->a);
    free(p->b);
    free(p->count);
    memset(p, 0, sizeof *p);
}
