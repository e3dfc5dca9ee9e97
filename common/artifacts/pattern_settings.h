/* pattern_settings: what the pattern model's index stores (artifacts/index.h) and how it is
 * set — the settings of the pattern model (pattern_config, its defaults, ranges and command-line
 * table), the kinds of feature a counted key stands for, and the feature counts themselves.
 * They live in the artifacts layer so that the index artifact reads and checks them without
 * the model; the model (model/pattern_model.h, which describes the features and estimators)
 * builds on them. */
#ifndef PROBEXPAN_PATTERN_SETTINGS_H
#define PROBEXPAN_PATTERN_SETTINGS_H

#include <stddef.h>
#include <stdint.h>

#define PATTERN_SIDE 16      /* context ids kept on each side of the mask (max bag) */
/* Features one sample shows at most: 9 n-grams, 2 x PATTERN_SIDE bag words, 3 genus words, 4
 * differentia words, 8 list members, 2 location features, 4 head words, 1 name head, 6 titles
 * (model/pattern_model.h checks the sum against its constants). */
#define PATTERN_MAX 69

typedef enum { PATTERN_SIMILARITY, PATTERN_PREDICTION } pattern_estimator;

typedef struct {
    pattern_estimator estimator;
    int long_patterns;       /* 0 = the 5 short patterns, 1 = all 9 */
    int bag;                 /* 0..PATTERN_SIDE */
    double bag_weight;       /* > 0 */
    double genus_weight;     /* >= 0; 0 = no genus features */
    double list_weight;      /* >= 0; 0 = no coordination-list features */
    double head_weight;      /* >= 0; 0 = no Hearst / title head features */
    double name_weight;      /* >= 0; 0 = no name-head features */
    double differentia_weight; /* >= 0; 0 = no differentia features */
    double evidence;         /* similarity: k >= 0 of the mention-count shrinkage; 0 = none */
    int min_entities;        /* >= 2 */
    double idf_power;        /* >= 0 */
    double temperature;      /* similarity: > 0 */
    double prior_power;      /* prediction: >= 0 */
    double feature_fraction; /* (0, 1] */
    uint64_t seed;           /* of the feature subset */
} pattern_config;

/* The measured defaults of an estimator (docs/results.md; the grids:
 * dev/research/pattern-model-trials.md); the list and differentia features and the evidence
 * are off (0) here: `index` chooses them from the corpus. */
pattern_config pattern_config_defaults(pattern_estimator e);
/* PATTERN_AUTO as list_weight, differentia_weight or evidence: chosen from the corpus by
 * pattern_config_resolve. */
#define PATTERN_AUTO (-1.0)
/* The pattern-counting settings, each once: option name, field of pattern_config, option type,
 * metavar, help, the setting's range [min, max] and what -1 stands for on the command line
 * ("" = not accepted). `index` and `pattern-dists` declare their options from it
 * (PATTERN_COUNT_CLI_OPTIONS; the table needs base/cli.h), pattern_config_check holds a config
 * to the same ranges (the model's builders, the index reader). The temperature's lower bound
 * keeps cos / T finite. */
#define PATTERN_BY_ESTIMATOR(similarity, prediction) \
    "; -1 = the estimator's: " similarity " for similarity, " prediction " for prediction"
#define PATTERN_FROM_CORPUS(glossary, text) "; -1 = from the corpus: " glossary " in a glossary, else " text
#define PATTERN_COUNT_SETTINGS(X, c)                                                                               \
    X(c, "bag", bag, OPT_INT, "W", "also every id within W of the mask, unordered", 0, PATTERN_SIDE,               \
      PATTERN_BY_ESTIMATOR("8", "0"))                                                                              \
    X(c, "bag-weight", bag_weight, OPT_DOUBLE, "X", "weight multiplier of the --bag features", 1e-6, 1e6, "")      \
    X(c, "genus-weight", genus_weight, OPT_DOUBLE, "X",                                                            \
      "weight multiplier of the genus features: the head words of the definition a mention is the subject of "    \
      "(\"X : German composer of ...\", \"X is a lake in ...\"); 0 = none", 0, 1e6, "")                              \
    X(c, "list-weight", list_weight, OPT_DOUBLE, "X",                                                              \
      "weight multiplier of the list features: the members of the coordination list a mention is in "             \
      "(\"Japan , West Germany and Britain\"), \", NAME\" after a mention and \"NAME ,\" before it (\"Houston , "      \
      "Texas .\"), and the titles of a name in its longer names (\"Finance Minister Kiichi Miyazawa\"); > 0 also "  \
      "records the apposition pairs of query's --located-share; 0 = none", 0, \
      1e6, \
      PATTERN_FROM_CORPUS("0", "2"))                   \
    X(c, "head-weight", head_weight, OPT_DOUBLE, "X",                                                              \
      "weight multiplier of the head features: class nouns of Hearst patterns and titles around a mention "        \
      "(\"countries such as X\", \"X and other countries\", \"Finance Minister X\"); 0 = none", 0, 1e6, "")        \
    X(c, "name-weight", name_weight, OPT_DOUBLE, "X",                                                              \
      "weight multiplier of the name features: the head word of a multi-word entity name "                         \
      "(\"... Stock Exchange\" -> exchange); 0 = none", 0, 1e6, "")                                                 \
    X(c, "differentia-weight", differentia_weight, OPT_DOUBLE, "X",                                                \
      "weight multiplier of the differentia features: the heads of the prepositional phrases after a "             \
      "definition's genus (\"X : a republic in northwestern Africa\" -> africa); 0 = none", 0, 1e6,                \
      PATTERN_FROM_CORPUS("3", "0"))                                                                               \
    X(c, "evidence", evidence, OPT_DOUBLE, "K",                                                                    \
      "similarity to an entity shrunk by n / (n + K) for its mention count n, so thin entities do not "            \
      "outrank well-attested ones on a shared feature; 0 = none", 0, 1e6, PATTERN_FROM_CORPUS("0", "0.5"))          \
    X(c, "min-entities", min_entities, OPT_INT, "N", "drop features seen with fewer than N entities", 2, 1e9,      \
      PATTERN_BY_ESTIMATOR("2", "4"))                                                                              \
    X(c, "idf-power", idf_power, OPT_DOUBLE, "P", "feature weight log(E / entities of the feature)^P", 0, 10,      \
      PATTERN_BY_ESTIMATOR("0", "2"))                                                                              \
    X(c, "temperature", temperature, OPT_DOUBLE, "T", "similarity: r(e) = softmax(cosine / T)", 1e-6, 1e6, "")
/* The estimate's settings beyond the counting ones (pattern-dists' options), same columns. */
#define PATTERN_ESTIMATE_SETTINGS(X, c)                                                                            \
    X(c, "prior-power", prior_power, OPT_DOUBLE, "B",                                                              \
      "prediction: divide r(e) by the model's mean prediction^B (0 = off)", 0, 10, "")                             \
    X(c, "feature-fraction", feature_fraction, OPT_DOUBLE, "F", "keep a seeded subset of about F of the features", \
      1e-3, 1, "")
/* One cli_option per row into config c: -1 is in the option's range where the row says what it means. */
#define PATTERN_CLI_OPTION(c, name, field, type, metavar, help, min, max, minus1) \
    {name, type, &(c).field, metavar, help minus1, sizeof(minus1) > 1 ? -1 : (min), (max)},
#define PATTERN_COUNT_CLI_OPTIONS(c) PATTERN_COUNT_SETTINGS(PATTERN_CLI_OPTION, c)
#define PATTERN_ESTIMATE_CLI_OPTIONS(c) PATTERN_ESTIMATE_SETTINGS(PATTERN_CLI_OPTION, c)
/* After cli_parse: the settings at -1 that the estimator decides (bag, min_entities, idf_power)
 * take c->estimator's default (list_weight, differentia_weight and evidence at -1 stay for pattern_config_resolve),
 * then the settings are checked against the tables: out of range is a usage error (exit 2). */
void pattern_config_finish_options(pattern_config *c);
/* 1 when every setting of both tables is in its range; else 0 and err = which and the range. */
int pattern_config_check(const pattern_config *c, char *err, size_t n);

/* The kinds of feature. A feature's key says which: odd = an n-gram pattern, 0 mod 4 = a bag
 * word, 2 mod 4 = a genus word, or a differentia word, a list member, a head word or a name
 * head when bits 2-31 hold TAGGED_PATTERN plus the kind's tag (0 differentia, 1 list, 2 head,
 * 3 name), with 32 hash bits above; every other 2 mod 4 key is a genus word, whose keys are
 * those counted before these kinds existed (a random genus key lands on the pattern with
 * probability 4 / 2^30). */
#define TAGGED_PATTERN 0x2B5E9C40ULL
#define TAGGED_FIELD 0x3FFFFFFFULL
typedef enum {
    PATTERN_NGRAM,
    PATTERN_BAG,
    PATTERN_GENUS,
    PATTERN_LIST,
    PATTERN_HEAD,
    PATTERN_NAME,
    PATTERN_DIFFERENTIA
} pattern_kind;
pattern_kind pattern_key_kind(uint64_t key);
/* The weight multiplier of kind k in config c (1 for the n-grams). */
double pattern_kind_weight(const pattern_config *c, pattern_kind k);

/* ---- counts: the corpus side of the model, the same for every feature subset ----
 * The features of every sample (long_patterns, bag, which kinds have a weight > 0 and
 * min_entities of the config; no subset applied), in order of first appearance over the samples, with their
 * postings. A model with
 * a feature subset keeps the features in the subset, in the same order, so a model built from
 * counts equals one built from the samples with the same config, bit for bit. Size: O(F +
 * feature-entity pairs), linear in the corpus. */
typedef struct {
    int64_t E, F;      /* entities; features kept (seen with >= min_entities entities) */
    uint64_t *key;     /* [F] the feature's hash key: decides subset membership; its kind: pattern_key_kind */
    int64_t *foff;     /* [F + 1] feature f's postings are ent/cnt[foff[f] .. foff[f + 1]) */
    int32_t *ent;      /* entity rows, ascending within a feature */
    int32_t *cnt;      /* occurrences in that entity's samples (>= 1; a sample may show a feature twice) */
    int64_t *mentions; /* [E] samples of each entity (the evidence of its profile) */
} pattern_counts;
void pattern_counts_free(pattern_counts *k);

/* The apposition pairs "A , B" of running text per pair of entities, as the index stores them
 * (counted and used by common/model/located_pairs.h). */
typedef struct {
    int64_t n;        /* pairs */
    int32_t *a, *b;   /* entity rows: "a , b"; (a, b) strictly ascending, a != b */
    int32_t *count;   /* samples of a named so, >= 1 */
} located_pairs;
void located_pairs_free(located_pairs *p);

#endif
