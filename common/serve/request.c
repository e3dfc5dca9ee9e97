/* request: routes and request parsers of `probexpan serve` (contract in request.h). */
#include "serve/request.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "base/error.h"

const static_file_entry static_files[] = {
    {"/", "index.html", "text/html; charset=utf-8"},
    {"/index.html", "index.html", "text/html; charset=utf-8"},
    {"/app.js", "app.js", "text/javascript; charset=utf-8"},
    {"/style.css", "style.css", "text/css; charset=utf-8"},
    {"/favicon.svg", "favicon.svg", "image/svg+xml"},
};
const int static_file_count = (int)(sizeof static_files / sizeof static_files[0]);

const char *const variant_names[VARIANT_COUNT] = {"full", "noen", "nocl", "noclen"};

int request_fail(int status, char *err, size_t errlen, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return status;
}

/* Quotes at most 60 bytes of s for a message, cut at a character boundary (s is valid UTF-8). */
static const char *excerpt(const char *s, char *buf, size_t cap) {
    size_t n = strlen(s), keep = n > 60 ? 60 : n;
    while (keep < n && keep > 0 && ((unsigned char)s[keep] & 0xC0) == 0x80) keep--;
    snprintf(buf, cap, "%.*s%s", (int)keep, s, keep < n ? "..." : "");
    return buf;
}

static int is_valid_utf8(const char *s, size_t len) {
    const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)s;
    utf8proc_int32_t c;
    while (len > 0) {
        utf8proc_ssize_t k = utf8proc_iterate(p, (utf8proc_ssize_t)len, &c);
        if (k <= 0 || c == 0) return 0;
        p += k;
        len -= (size_t)k;
    }
    return 1;
}

/* Non-negative decimal eid of at most 18 digits (no sign, no spaces); -1 otherwise. */
static int64_t parse_eid(const char *s, size_t len) {
    if (len == 0 || len > 18) return -1;
    int64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

int request_route(const char *method, const char *path, route *r, char *err, size_t errlen) {
    int get = !strcmp(method, "GET") || !strcmp(method, "HEAD"), post = !strcmp(method, "POST");
    memset(r, 0, sizeof *r);
    const char *want = "GET";
    static const char entity_prefix[] = "/api/entity/", contexts_suffix[] = "/contexts", why_suffix[] = "/why";
    size_t n = strlen(path), lp = sizeof entity_prefix - 1, ls = sizeof contexts_suffix - 1, lw = sizeof why_suffix - 1;
    if (!strcmp(path, "/api/info")) {
        r->kind = ROUTE_INFO;
    } else if (!strcmp(path, "/api/entities")) {
        r->kind = ROUTE_ENTITIES;
    } else if (!strcmp(path, "/api/expand")) {
        r->kind = ROUTE_EXPAND;
        want = "POST";
    } else if (!strcmp(path, "/api/export")) {
        r->kind = ROUTE_EXPORT;
    } else if (!strcmp(path, "/api/classes")) {
        r->kind = ROUTE_CLASSES;
    } else if (!strcmp(path, "/api/resolve")) {
        r->kind = ROUTE_RESOLVE;
    } else if (!strcmp(path, "/api/names")) {
        r->kind = ROUTE_NAMES;
    } else if (!strcmp(path, "/api/names/edit")) {
        r->kind = ROUTE_NAMES_EDIT;
        want = "POST";
    } else if (!strcmp(path, "/api/rebuild")) {
        r->kind = ROUTE_REBUILD;
        want = post ? "POST" : "GET";
    } else if (n > lp + ls && !strncmp(path, entity_prefix, lp) && !strcmp(path + n - ls, contexts_suffix)) {
        r->kind = ROUTE_CONTEXTS;
        r->eid = parse_eid(path + lp, n - lp - ls);
        if (r->eid < 0) return request_fail(404, err, errlen, "unknown route: the entity id in /api/entity/{eid}/contexts must be digits");
    } else if (n > lp + lw && !strncmp(path, entity_prefix, lp) && !strcmp(path + n - lw, why_suffix)) {
        r->kind = ROUTE_WHY;
        r->eid = parse_eid(path + lp, n - lp - lw);
        if (r->eid < 0) return request_fail(404, err, errlen, "unknown route: the entity id in /api/entity/{eid}/why must be digits");
    } else {
        int i = 0;
        while (i < static_file_count && strcmp(path, static_files[i].url)) i++;
        if (i == static_file_count) {
            char b[80];
            return request_fail(404, err, errlen, "unknown route '%s' (the API is under /api/: info, entities, resolve, expand, entity/{eid}/contexts, entity/{eid}/why, export, classes, names, names/edit, rebuild)",
                        is_valid_utf8(path, strlen(path)) ? excerpt(path, b, sizeof b) : "(not UTF-8)");
        }
        r->kind = ROUTE_STATIC;
        r->static_file = i;
    }
    r->post = post;
    if (!strcmp(want, "POST") ? !post : !get)
        return request_fail(405, err, errlen, "method %s not allowed here: use %s", is_valid_utf8(method, strlen(method)) ? method : "?", want);
    return 0;
}

/* ---- entity lists ---- */

static int add_ref(entity_ref **list, int *n, const char *field, const char *name, int64_t eid, char *err,
                   size_t errlen) {
    if (*n >= REQUEST_MAX_LIST)
        return request_fail(400, err, errlen, "%s: more than %d entities", field, REQUEST_MAX_LIST);
    if (name) {
        size_t len = strlen(name);
        if (!is_valid_utf8(name, len)) return request_fail(400, err, errlen, "%s[%d]: not valid UTF-8", field, *n);
        if (len == 0) return request_fail(400, err, errlen, "%s[%d]: empty name", field, *n);
        if (len > REQUEST_MAX_NAME) return request_fail(400, err, errlen, "%s[%d]: name longer than %d bytes", field, *n, REQUEST_MAX_NAME);
    }
    if (*n == 0) *list = xmalloc(sizeof **list * REQUEST_MAX_LIST);
    (*list)[*n].name = name ? xstrdup(name) : NULL;
    (*list)[*n].eid = name ? -1 : eid;
    (*n)++;
    return 0;
}

static void free_refs(entity_ref *list, int n) {
    for (int i = 0; i < n; i++) free(list[i].name);
    free(list);
}

static int variant_parse(const char *s, expand_variant *v, char *err, size_t errlen) {
    for (int i = 0; i < VARIANT_COUNT; i++)
        if (!strcmp(s, variant_names[i])) { *v = (expand_variant)i; return 0; }
    char b[80];
    return request_fail(400, err, errlen, "variant: expected full, noen, nocl or noclen, found '%s'",
                is_valid_utf8(s, strlen(s)) ? excerpt(s, b, sizeof b) : "(not UTF-8)");
}

/* "none" or "auto" (where to cut, docs/cut.md) into *cut_auto. */
static int cut_parse(const char *s, int *cut_auto, char *err, size_t errlen) {
    if (!strcmp(s, "none") || !strcmp(s, "auto")) {
        *cut_auto = !strcmp(s, "auto");
        return 0;
    }
    char b[80];
    return request_fail(400, err, errlen, "cut: expected none or auto, found '%s'", is_valid_utf8(s, strlen(s)) ? excerpt(s, b, sizeof b) : "(not UTF-8)");
}

static void request_defaults(expand_request *q) {
    memset(q, 0, sizeof *q);
    q->size = REQUEST_DEFAULT_SIZE;
    q->variant = VARIANT_FULL;
    q->format = EXPORT_TSV;
}

/* ---- JSON body ---- */

static int json_list(json_t *v, const char *field, entity_ref **list, int *n, char *err, size_t errlen) {
    if (!json_is_array(v)) return request_fail(400, err, errlen, "%s: expected an array of names or entity ids", field);
    size_t i;
    json_t *e;
    json_array_foreach(v, i, e) {
        int rc;
        if (json_is_string(e)) {
            if (strlen(json_string_value(e)) != json_string_length(e))
                return request_fail(400, err, errlen, "%s[%zu]: NUL character in a name", field, i);
            rc = add_ref(list, n, field, json_string_value(e), -1, err, errlen);
        } else if (json_is_integer(e) && json_integer_value(e) >= 0) {
            rc = add_ref(list, n, field, NULL, json_integer_value(e), err, errlen);
        } else {
            return request_fail(400, err, errlen, "%s[%zu]: expected a name (string) or an entity id (integer >= 0)", field, i);
        }
        if (rc) return rc;
    }
    return 0;
}

int expand_request_from_json(const char *body, size_t len, expand_request *q, char *err, size_t errlen) {
    request_defaults(q);
    if (len > REQUEST_MAX_BODY) return request_fail(413, err, errlen, "body larger than %d bytes", REQUEST_MAX_BODY);
    json_error_t je;
    json_t *root = json_loadb(body, len, JSON_REJECT_DUPLICATES, &je);
    if (!root) return request_fail(400, err, errlen, "malformed JSON at line %d, column %d: %s", je.line, je.column, je.text);
    int rc = 0;
    if (!json_is_object(root)) {
        rc = request_fail(400, err, errlen, "expected a JSON object {\"seeds\": [...], ...}");
        goto done;
    }
    const char *key;
    json_t *v;
    int have_seeds = 0;
    json_object_foreach(root, key, v) {
        if (!strcmp(key, "seeds")) {
            have_seeds = 1;
            rc = json_list(v, "seeds", &q->seeds, &q->nseeds, err, errlen);
        } else if (!strcmp(key, "negative_seeds")) {
            rc = json_list(v, "negative_seeds", &q->negatives, &q->nnegatives, err, errlen);
        } else if (!strcmp(key, "accepted")) {
            rc = json_list(v, "accepted", &q->accepted, &q->naccepted, err, errlen);
        } else if (!strcmp(key, "size")) {
            if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > REQUEST_MAX_SIZE)
                rc = request_fail(400, err, errlen, "size: expected an integer from 1 to %d", REQUEST_MAX_SIZE);
            else q->size = (int)json_integer_value(v);
        } else if (!strcmp(key, "variant")) {
            rc = json_is_string(v) ? variant_parse(json_string_value(v), &q->variant, err, errlen)
                                   : request_fail(400, err, errlen, "variant: expected a string (full, noen, nocl or noclen)");
        } else if (!strcmp(key, "cut")) {
            rc = json_is_string(v) ? cut_parse(json_string_value(v), &q->cut_auto, err, errlen)
                                   : request_fail(400, err, errlen, "cut: expected a string (none or auto)");
        } else {
            char b[80];
            rc = request_fail(400, err, errlen, "unknown key '%s' (expected seeds, negative_seeds, accepted, size, variant, cut)",
                      excerpt(key, b, sizeof b));
        }
        if (rc) goto done;
    }
    if (!have_seeds) rc = request_fail(400, err, errlen, "seeds: missing (an array of names or entity ids)");
done:
    json_decref(root);
    if (rc) expand_request_free(q);
    return rc;
}

/* ---- query strings ---- */

const char *request_param_get(const query_param *p, int n, const char *key) {
    const char *v = NULL;
    for (int i = 0; i < n; i++)
        if (!strcmp(p[i].key, key)) v = p[i].value ? p[i].value : "";
    return v;
}

int request_params_check(const query_param *p, int n, const char *const *allowed, char *err, size_t errlen) {
    for (int i = 0; i < n; i++) {
        if (!is_valid_utf8(p[i].key, strlen(p[i].key)) || (p[i].value && !is_valid_utf8(p[i].value, strlen(p[i].value))))
            return request_fail(400, err, errlen, "query string: parameter %d is not valid UTF-8", i + 1);
        int k = 0;
        while (allowed[k] && strcmp(allowed[k], p[i].key)) k++;
        if (!allowed[k]) {
            char b[80], list[256] = "";
            for (k = 0; allowed[k]; k++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "", allowed[k]);
            return request_fail(400, err, errlen, "unknown parameter '%s' (expected %s)", excerpt(p[i].key, b, sizeof b), list);
        }
    }
    return 0;
}

int request_param_int(const query_param *p, int n, const char *key, int dflt, int min, int max, int *out, char *err,
              size_t errlen) {
    const char *s = request_param_get(p, n, key);
    *out = dflt;
    if (!s) return 0;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < min || v > max || *s == ' ' || *s == '+')
        return request_fail(400, err, errlen, "%s: expected an integer from %d to %d", key, min, max);
    *out = (int)v;
    return 0;
}

/* A query-string entity reference: digits only = an eid, anything else a name. */
static int param_ref(entity_ref **list, int *n, const char *field, const char *value, char *err, size_t errlen) {
    if (!value) value = "";
    int64_t eid = parse_eid(value, strlen(value));
    return eid >= 0 ? add_ref(list, n, field, NULL, eid, err, errlen) : add_ref(list, n, field, value, -1, err, errlen);
}

/* The expansion's keys of a query string, the keys `allowed` (format parsed when allowed). */
static int expansion_params(const query_param *p, int n, const char *const *allowed, expand_request *q, char *err,
                            size_t errlen) {
    request_defaults(q);
    int rc = request_params_check(p, n, allowed, err, errlen);
    for (int i = 0; !rc && i < n; i++) {
        if (!strcmp(p[i].key, "seed")) rc = param_ref(&q->seeds, &q->nseeds, "seed", p[i].value, err, errlen);
        else if (!strcmp(p[i].key, "negative")) rc = param_ref(&q->negatives, &q->nnegatives, "negative", p[i].value, err, errlen);
        else if (!strcmp(p[i].key, "accepted")) rc = param_ref(&q->accepted, &q->naccepted, "accepted", p[i].value, err, errlen);
    }
    if (!rc) rc = request_param_int(p, n, "size", REQUEST_DEFAULT_SIZE, 1, REQUEST_MAX_SIZE, &q->size, err, errlen);
    const char *v = request_param_get(p, n, "variant"), *f = request_param_get(p, n, "format");
    if (!rc && v) rc = variant_parse(v, &q->variant, err, errlen);
    if (!rc && f) {
        if (!strcmp(f, "tsv")) q->format = EXPORT_TSV;
        else if (!strcmp(f, "json")) q->format = EXPORT_JSON;
        else rc = request_fail(400, err, errlen, "format: expected tsv or json");
    }
    const char *cut = request_param_get(p, n, "cut");
    if (!rc && cut) rc = cut_parse(cut, &q->cut_auto, err, errlen);
    if (!rc && q->nseeds == 0) rc = request_fail(400, err, errlen, "seed: missing (repeat seed=NAME or seed=EID for each seed)");
    if (rc) expand_request_free(q);
    return rc;
}

int expand_request_from_params(const query_param *p, int n, expand_request *q, char *err, size_t errlen) {
    static const char *const allowed[] = {"seed", "negative", "accepted", "size", "variant", "format", "cut", NULL};
    return expansion_params(p, n, allowed, q, err, errlen);
}

int why_request_from_params(const query_param *p, int n, expand_request *q, int *features, char *err, size_t errlen) {
    static const char *const allowed[] = {"seed", "negative", "accepted", "size", "variant", "features", NULL};
    int rc = expansion_params(p, n, allowed, q, err, errlen);
    if (!rc && (rc = request_param_int(p, n, "features", REQUEST_DEFAULT_FEATURES, 0, REQUEST_MAX_FEATURES, features, err, errlen)))
        expand_request_free(q);
    return rc;
}


void expand_request_free(expand_request *q) {
    free_refs(q->seeds, q->nseeds);
    free_refs(q->negatives, q->nnegatives);
    free_refs(q->accepted, q->naccepted);
    q->seeds = q->negatives = q->accepted = NULL;
    q->nseeds = q->nnegatives = q->naccepted = 0;
}

int contexts_request_from_params(const query_param *p, int n, int max_limit, contexts_request *q, char *err,
                                 size_t errlen) {
    static const char *const allowed[] = {"limit", "features", "seed", NULL};
    memset(q, 0, sizeof *q);
    int rc = request_params_check(p, n, allowed, err, errlen);
    for (int i = 0; !rc && i < n; i++)
        if (!strcmp(p[i].key, "seed")) rc = param_ref(&q->seeds, &q->nseeds, "seed", p[i].value, err, errlen);
    if (!rc) rc = request_param_int(p, n, "limit", 5, 1, max_limit, &q->limit, err, errlen);
    if (!rc) rc = request_param_int(p, n, "features", REQUEST_DEFAULT_FEATURES, 0, REQUEST_MAX_FEATURES, &q->features, err, errlen);
    if (rc) contexts_request_free(q);
    return rc;
}

void contexts_request_free(contexts_request *q) {
    free_refs(q->seeds, q->nseeds);
    q->seeds = NULL;
    q->nseeds = 0;
}
