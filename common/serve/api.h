/* api: the JSON API of `probexpan serve` (docs/api.md) as plain functions from a parsed
 * request to a response — no sockets here (common/serve/http.h carries them), so every
 * handler can be tested and fuzzed directly.
 *
 *   GET  /api/info                             entities, variants (api_info)
 *   GET  /api/entities?prefix=oh&limit=20      autocomplete (api_entities)
 *   GET  /api/resolve?name=C                   a typed name -> its entity, as `query` resolves
 *                                              seeds; when unknown or ambiguous, none and the
 *                                              closest names (api_resolve)
 *   POST /api/expand   {seeds, negative_seeds, accepted, size, variant}   (api_expand)
 *   GET  /api/entity/{eid}/contexts?limit=5&seed=..   example sentences, and the context
 *                                              features tying the entity to the seeds (api_contexts)
 *   GET  /api/entity/{eid}/why?seed=..         "why not X?": where the expansion of these
 *                                              parameters places the entity, the features it
 *                                              shares with the seeds and lacks (api_why,
 *                                              common/serve/why.h)
 *   GET  /api/export?seed=..&format=tsv|json   the expansion as a file (api_export)
 *   GET  /api/classes                          the classes the corpus holds, before any seed
 *                                              (common/model/class_proposals.h; computed on
 *                                              the first call, then cached) (api_classes)
 *   GET  /api/names, POST /api/names/edit      the discovered names under review
 *                                              (common/serve/names_review.h)
 *   GET, POST /api/rebuild                     a dataset and run rebuilt from them
 *                                              (common/serve/rebuild.h)
 *
 * An expansion's answer carries its set's name (common/model/set_name.h): the definition
 * heads its seeds and accepted entities share, with their support in the list; and per listed
 * entity the context features it shares with all of them and with at least one
 * (ties_shared_counts: the words of the page's reason per row).
 *
 * Every failure is a response, never an exit: 400 malformed request, 404 unknown entity id
 * in a path, 422 names that resolve to no entity or to several (with suggestions), seeds
 * that are also negative seeds, fewer than two seeds (the names routes add 409 and 500:
 * names_review.h, rebuild.h); the body is {"error": {"status": N,
 * "message": "..."}} (plus "suggestions" for unknown or ambiguous names).
 *
 * The expansion itself is delegated to a serve_expander: the method for one seed set,
 * whose state must be per call (handlers run on many threads at once). */
#ifndef PROBEXPAN_SERVE_API_H
#define PROBEXPAN_SERVE_API_H

#include <jansson.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "artifacts/index.h"
#include "model/feature_text.h"
#include "model/genus_heads.h"
#include "serve/lexicon.h"
#include "serve/names_review.h"
#include "serve/rebuild.h"
#include "serve/request.h"
#include "serve/ties.h"

/* One seed set for the expander, as rows of the lexicon (= rows of the samples). */
typedef struct {
    const int64_t *seeds, *accepted, *negatives;
    int nseeds, naccepted, nnegatives;
    int size;
    expand_variant variant;
    int64_t explain; /* a row to place in the answer ("why not X?"), or -1 */
} expand_job;

/* The ranked list: rows[i] with its score (what the list is sorted by) and nfigures more
 * figures of the method in figures[i * nfigures + k] (names: the expander's figure_names). */
typedef struct {
    int n;
    int64_t *rows;
    double *score;
    double *figures;
    engine_place place; /* of the job's explain row (kind ENGINE_PLACE_NONE without one) */
} expand_result;

typedef struct {
    void *state;
    int available[VARIANT_COUNT]; /* 1 = the variant can be served */
    expand_variant default_variant;
    int nfigures;
    const char *const *figure_names;
    /* Fills *out (malloc'd arrays); returns 0, or an HTTP status with err (e.g. 422 for a seed
     * set the method cannot use, 503 for a variant this run cannot serve). Thread-safe. */
    int (*run)(void *state, const expand_job *job, expand_result *out, char *err, size_t errlen);
} serve_expander;

/* The answer of GET /api/classes, made once by the first request (the others wait for it). */
typedef struct {
    pthread_mutex_t lock;
    char *body; /* NULL until made */
    size_t len;
} class_cache;
#define CLASS_CACHE_INIT {PTHREAD_MUTEX_INITIALIZER, NULL, 0}
void class_cache_free(class_cache *c);

typedef struct {
    const lexicon *lex;
    serve_expander expander;
    const ties *ties;    /* the pattern model's explanation of a similarity */
    /* A turn to run an expansion (NULL: always): 0, or an HTTP status with err when the expansion
     * is not to run (no turn within the wait allowed, the server stopping, the client gone); each
     * 0 is followed by one expansion_end. Turns bound the expansions at once: more would only
     * share the cores, and keep autocomplete waiting for CPU. */
    int (*expansion_begin)(char *err, size_t errlen);
    void (*expansion_end)(void);
    const corpus_index *index;  /* its rows are the lexicon's */
    const genus_heads *heads;   /* of the index: classes and the set's name */
    const feature_text *text;   /* the words of the index's features */
    class_cache *classes;
    names_review *names;        /* the names file under review, or NULL (not a discovered dataset) */
    rebuild *rebuild;           /* rebuilds from it (NULL without names) */
} serve_ctx;

typedef struct {
    int status;
    char *body;               /* malloc'd */
    size_t len;
    const char *content_type;
    const char *filename;     /* non-NULL: sent as an attachment under this name */
} api_response;

/* {"error": {...}} with the given status. */
void api_error(api_response *r, int status, const char *message);
/* The JSON text of v (consumed) with the given status. */
void api_respond_json(api_response *r, int status, json_t *v);

void api_info(const serve_ctx *c, const query_param *p, int n, api_response *r);
void api_entities(const serve_ctx *c, const query_param *p, int n, api_response *r);
void api_expand(const serve_ctx *c, const char *body, size_t len, api_response *r);
void api_contexts(const serve_ctx *c, int64_t eid, const query_param *p, int n, api_response *r);
void api_why(const serve_ctx *c, int64_t eid, const query_param *p, int n, api_response *r);
void api_export(const serve_ctx *c, const query_param *p, int n, api_response *r);
void api_classes(const serve_ctx *c, const query_param *p, int n, api_response *r);
void api_resolve(const serve_ctx *c, const query_param *p, int n, api_response *r);
void api_names(const serve_ctx *c, const query_param *p, int n, api_response *r);
void api_names_edit(const serve_ctx *c, const char *body, size_t len, api_response *r);
void api_rebuild_status(const serve_ctx *c, const query_param *p, int n, api_response *r);
void api_rebuild_start(const serve_ctx *c, const char *body, size_t len, api_response *r);

#endif
