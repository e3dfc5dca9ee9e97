/* request: the parsers of `probexpan serve`'s HTTP requests, kept apart from the socket
 * code so they can be unit-tested and fuzzed (tests/fuzz/fuzz_serve_request.c).
 *
 * Nothing here touches a file: a URL maps to an API route or to one of a fixed list of
 * static files by exact string comparison, so no request can name a path. Every function
 * either fills its output or returns an HTTP status (400 bad request, 404 unknown route,
 * 405 wrong method) with the problem written into err (a sentence for the JSON error);
 * none of them exits or aborts on any input.
 *
 * Entity references in requests are names/aliases (JSON strings, query-string values) or
 * eids (JSON integers, or query-string values of digits only); they are resolved later
 * against the entity table (common/serve/lexicon.h). Lists in a query string repeat their
 * key (`seed=Ohio&seed=Texas`), so names containing commas stay intact. */
#ifndef PROBEXPAN_SERVE_REQUEST_H
#define PROBEXPAN_SERVE_REQUEST_H

#include <stddef.h>
#include <stdint.h>

#define REQUEST_MAX_BODY 65536    /* bytes of a POST body; larger -> 413 */
#define REQUEST_MAX_LIST 256      /* entities per list (seeds, negative_seeds, accepted) */
#define REQUEST_MAX_NAME 512      /* bytes of one entity name */
#define REQUEST_MAX_SIZE 1000     /* entities an expansion may return */
#define REQUEST_DEFAULT_SIZE 50
#define REQUEST_ERR 256           /* room for an error message */
#define REQUEST_MAX_FEATURES 100  /* context features a contexts or why request may list */
#define REQUEST_DEFAULT_FEATURES 10

typedef enum {
    ROUTE_STATIC,   /* a file of the web page (static_file) */
    ROUTE_INFO,     /* GET /api/info */
    ROUTE_ENTITIES, /* GET /api/entities */
    ROUTE_EXPAND,   /* POST /api/expand */
    ROUTE_CONTEXTS, /* GET /api/entity/{eid}/contexts */
    ROUTE_EXPORT,   /* GET /api/export */
    ROUTE_CLASSES,  /* GET /api/classes */
    ROUTE_RESOLVE,  /* GET /api/resolve */
    ROUTE_WHY,      /* GET /api/entity/{eid}/why */
    ROUTE_NAMES,    /* GET /api/names */
    ROUTE_NAMES_EDIT, /* POST /api/names/edit */
    ROUTE_REBUILD,  /* GET /api/rebuild (status), POST /api/rebuild (start): route.post says which */
} route_kind;

typedef struct {
    route_kind kind;
    int static_file; /* ROUTE_STATIC: index into the web page's file list */
    int64_t eid;     /* ROUTE_CONTEXTS, ROUTE_WHY */
    int post;        /* the method is POST */
} route;

/* The web page's files: URL path -> file name in the web folder, MIME type. */
typedef struct {
    const char *url, *file, *mime;
} static_file_entry;
extern const static_file_entry static_files[];
extern const int static_file_count;

/* Routes method + URL path (without the query string). 0, or 404/405 with err. */
int request_route(const char *method, const char *path, route *r, char *err, size_t errlen);

/* One query-string pair, already percent-decoded (libmicrohttpd does that). */
typedef struct {
    const char *key, *value; /* value may be NULL ("?flag") */
} query_param;

typedef struct {
    char *name;   /* NULL when the reference is an eid */
    int64_t eid;
} entity_ref;

typedef enum { VARIANT_FULL, VARIANT_NOEN, VARIANT_NOCL, VARIANT_NOCLEN } expand_variant;
#define VARIANT_COUNT 4
extern const char *const variant_names[VARIANT_COUNT]; /* "full", "noen", "nocl", "noclen" */

typedef enum { EXPORT_TSV, EXPORT_JSON } export_format;

typedef struct {
    entity_ref *seeds, *negatives, *accepted;
    int nseeds, nnegatives, naccepted;
    int size;               /* 1..REQUEST_MAX_SIZE, default REQUEST_DEFAULT_SIZE */
    expand_variant variant; /* default VARIANT_FULL */
    export_format format;   /* /api/export only; default EXPORT_TSV */
    int cut_auto;           /* "cut": "auto": only the entities above the cut (docs/cut.md); default 0 ("none") */
} expand_request;

/* POST /api/expand body: a JSON object {"seeds": [name|eid, ...], "negative_seeds": [...],
 * "accepted": [...], "size": int, "variant": "full|noen|nocl|noclen", "cut": "none|auto"}; only "seeds" is
 * required, unknown keys are refused (a typo must not pass silently). 0, or 400 with err.
 * The body need not be NUL-terminated. */
int expand_request_from_json(const char *body, size_t len, expand_request *q, char *err, size_t errlen);
/* GET /api/export: the same fields as query-string keys seed, negative, accepted (each
 * repeated), size, variant, format=tsv|json, cut=none|auto. 0, or 400 with err. */
int expand_request_from_params(const query_param *p, int n, expand_request *q, char *err, size_t errlen);
void expand_request_free(expand_request *q);
/* GET /api/entity/{eid}/why: the expansion's keys of expand_request_from_params but format,
 * and features (0..REQUEST_MAX_FEATURES, default REQUEST_DEFAULT_FEATURES: shared and missing
 * features listed). 0,
 * or 400 with err. */
int why_request_from_params(const query_param *p, int n, expand_request *q, int *features, char *err, size_t errlen);

/* GET /api/entity/{eid}/contexts: limit (sentences, 1..max_limit, default 5), features
 * (0..REQUEST_MAX_FEATURES, default REQUEST_DEFAULT_FEATURES) and seed (repeated, names or eids as in
 * expand_request_from_params; none: no features are explained). 0, or 400 with err. */
typedef struct {
    int limit, features;
    entity_ref *seeds;
    int nseeds;
} contexts_request;
int contexts_request_from_params(const query_param *p, int n, int max_limit, contexts_request *q, char *err,
                                 size_t errlen);
void contexts_request_free(contexts_request *q);

/* Writes the message into err and returns status (a parser's refusal in one call). */
int request_fail(int status, char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Integer query parameter `key` (absent: dflt) within [min, max]. 0, or 400 with err. */
int request_param_int(const query_param *p, int n, const char *key, int dflt, int min, int max, int *out, char *err,
              size_t errlen);
/* Value of `key` (the last one when repeated), or NULL. */
const char *request_param_get(const query_param *p, int n, const char *key);
/* 0 when every key is one of the NULL-terminated `allowed` and every key and value is valid
 * UTF-8, else 400 naming the problem. Call it before using any value. */
int request_params_check(const query_param *p, int n, const char *const *allowed, char *err, size_t errlen);

#endif
