/* names_list: parse, list, edit and write a names file under review (contract in names_list.h). */
#include "serve/names_list.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "dataset/entitynames.h"
#include "dataset/names_file.h"
#include "serve/request.h"
#include "text/text_source.h"

#define CONTEXTS 2

static void line_free(names_line *x) {
    free(x->raw);
    for (int i = 0; i < x->nnames; i++) free(x->names[i]), free(x->norm[i]);
    free(x->names);
    free(x->norm);
    free(x->comment);
    memset(x, 0, sizeof *x);
}

void names_list_free(names_list *l) {
    for (int64_t i = 0; i < l->n; i++) line_free(&l->lines[i]);
    free(l->lines);
    memset(l, 0, sizeof *l);
}

static void add_name(names_line *x, const char *name) {
    x->names = xrealloc(x->names, sizeof *x->names * (size_t)(x->nnames + 1));
    x->norm = xrealloc(x->norm, sizeof *x->norm * (size_t)(x->nnames + 1));
    x->names[x->nnames] = xstrdup(name);
    x->norm[x->nnames] = name_normalise(name);
    x->nnames++;
}

static names_line *line_push(names_list *l) {
    if (l->n == l->cap) {
        l->cap = l->cap * 2 + 64;
        l->lines = xrealloc(l->lines, sizeof *l->lines * (size_t)l->cap);
    }
    return &l->lines[l->n++];
}

/* names_text_fn: one line into the list, its bytes kept for writing back. */
static void line_add(void *ctx, const char *raw, size_t rawlen, char **fields, int n, const char *comment) {
    names_list *l = ctx;
    names_line *x = line_push(l);
    memset(x, 0, sizeof *x);
    x->raw = xmalloc(rawlen + 1);
    memcpy(x->raw, raw, rawlen);
    x->raw[rawlen] = 0;
    for (int i = 0; i < n; i++) add_name(x, fields[i]);
    if (comment) x->comment = xstrdup(comment);
    l->entities += n > 0;
}

int names_list_parse(const char *text, size_t len, names_list *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    if (!names_text_lines(text, len, line_add, out, err, errlen)) return 0;
    names_list_free(out);
    return -1;
}

void names_list_copy(const names_list *l, names_list *out) {
    size_t len;
    char *text = names_list_text(l, &len), err[128];
    if (names_list_parse(text, len, out, err, sizeof err)) die("names_list: its own text does not parse: %s", err);
    free(text);
}

char *names_list_text(const names_list *l, size_t *len) {
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    if (!f) die_errno("open_memstream");
    for (int64_t i = 0; i < l->n; i++) {
        const names_line *x = &l->lines[i];
        if (x->raw) fputs(x->raw, f);
        else {
            for (int k = 0; k < x->nnames; k++) fprintf(f, "%s%s", k ? "\t" : "", x->names[k]);
            if (x->comment) fprintf(f, "\t%s", x->comment);
            fputc('\n', f);
        }
    }
    if (fclose(f)) die_errno("open_memstream");
    *len = size;
    return buf;
}

/* ---- reading the comment ---- */

static json_t *line_json(const names_line *x) {
    json_t *o = json_object(), *aliases = json_array(), *rules = json_array(), *contexts = json_array();
    json_object_set_new(o, "name", json_string(x->names[0]));
    char rule[64];
    for (int k = 1; k < x->nnames; k++) {
        json_array_append_new(aliases, json_string(x->names[k]));
        names_comment_rule(x->comment, x->names[k], rule, sizeof rule);
        if (rule[0]) json_array_append_new(rules, json_pack("{s:s, s:s}", "alias", x->names[k], "rule", rule));
    }
    json_object_set_new(o, "aliases", aliases);
    int64_t m = names_comment_mentions(x->comment);
    json_object_set_new(o, "mentions", m >= 0 ? json_integer(m) : json_null());
    json_object_set_new(o, "rules", rules);
    const char *c = x->comment ? x->comment + 1 : "";
    size_t first = strcspn(c, "\t"), lead = strspn(c, " ");
    if (lead > first) lead = first;
    size_t n = first - lead;
    while (n && c[lead + n - 1] == ' ') n--;
    json_object_set_new(o, "note", json_stringn(c + lead, n));
    for (const char *p = c[first] ? c + first : NULL; p && json_array_size(contexts) < CONTEXTS; p = strchr(p + 1, '\t')) {
        const char *f = p + 1 + strspn(p + 1, " ");
        size_t k = strcspn(f, "\t");
        while (k && f[k - 1] == ' ') k--;
        if (k) json_array_append_new(contexts, json_stringn(f, k));
    }
    json_object_set_new(o, "contexts", contexts);
    return o;
}

static int line_matches(const names_line *x, const char *qnorm) {
    for (int k = 0; k < x->nnames; k++)
        if (strstr(x->norm[k], qnorm)) return 1;
    return 0;
}

json_t *names_list_json(const names_list *l, const char *q, int64_t offset, int limit, int64_t *total) {
    char *qnorm = q && q[0] ? name_normalise(q) : NULL;
    json_t *list = json_array();
    *total = 0;
    for (int64_t i = 0; i < l->n; i++) {
        const names_line *x = &l->lines[i];
        if (!x->nnames || (qnorm && !line_matches(x, qnorm))) continue;
        if (*total >= offset && *total < offset + limit) json_array_append_new(list, line_json(x));
        (*total)++;
    }
    free(qnorm);
    return list;
}

/* ---- edits ---- */

static int64_t find_entity(const names_list *l, const char *name) {
    for (int64_t i = 0; i < l->n; i++)
        if (l->lines[i].nnames && !strcmp(l->lines[i].names[0], name)) return i;
    return -1;
}

/* The entity other than `self` having norm as a name or alias, or -1. */
static int64_t find_other_norm(const names_list *l, const char *norm, int64_t self) {
    for (int64_t i = 0; i < l->n; i++)
        for (int k = 0; i != self && k < l->lines[i].nnames; k++)
            if (!strcmp(l->lines[i].norm[k], norm)) return i;
    return -1;
}

static void line_touch(names_line *x) {
    free(x->raw);
    x->raw = NULL;
}

static void line_remove(names_list *l, int64_t i) {
    line_free(&l->lines[i]);
    memmove(&l->lines[i], &l->lines[i + 1], sizeof *l->lines * (size_t)(l->n - i - 1));
    l->n--;
    l->entities--;
}

/* A string member of an edit that names an entity or a new name: 0, or 400 with err. */
static int edit_name(json_t *e, int i, const char *key, const char **out, char *err, size_t errlen) {
    json_t *v = json_object_get(e, key);
    if (!v) return request_fail(400, err, errlen, "edits[%d].%s: missing", i, key);
    if (!json_is_string(v)) return request_fail(400, err, errlen, "edits[%d].%s: expected a string", i, key);
    const char *s = json_string_value(v);
    size_t len = json_string_length(v);
    if (len != strlen(s)) return request_fail(400, err, errlen, "edits[%d].%s: a NUL byte", i, key);
    if (!len || s[0] == ' ' || s[len - 1] == ' ') return request_fail(400, err, errlen, "edits[%d].%s: empty, or starts or ends with a space", i, key);
    if (len > NAMES_LIST_MAX_NAME) return request_fail(400, err, errlen, "edits[%d].%s: longer than %d bytes", i, key, NAMES_LIST_MAX_NAME);
    if (strpbrk(s, "\t\n\r")) return request_fail(400, err, errlen, "edits[%d].%s: a tab or line break", i, key);
    if (s[0] == '#') return request_fail(400, err, errlen, "edits[%d].%s: a name cannot start with '#'", i, key);
    *out = s;
    return 0;
}

static int unknown_entity(int i, const char *key, const char *name, char *err, size_t errlen) {
    return request_fail(422, err, errlen, "edits[%d].%s: no entity named \"%.200s\" in the names file", i, key, name);
}

static int apply_rename(names_list *l, int i, const char *name, const char *to, char *err, size_t errlen) {
    int64_t e = find_entity(l, name);
    if (e < 0) return unknown_entity(i, "name", name, err, errlen);
    names_line *x = &l->lines[e];
    if (!strcmp(name, to)) return request_fail(422, err, errlen, "edits[%d].to: the same as the name", i);
    char *norm = name_normalise(to);
    int64_t other = find_other_norm(l, norm, e);
    if (other >= 0) {
        free(norm);
        return request_fail(409, err, errlen, "edits[%d].to: \"%.200s\" is already a name or alias of \"%.200s\"", i, to,
                    l->lines[other].names[0]);
    }
    for (int k = 1; k < x->nnames; k++) /* the new name was an alias: it leaves the aliases */
        if (!strcmp(x->norm[k], norm)) {
            free(x->names[k]), free(x->norm[k]);
            memmove(&x->names[k], &x->names[k + 1], sizeof *x->names * (size_t)(x->nnames - k - 1));
            memmove(&x->norm[k], &x->norm[k + 1], sizeof *x->norm * (size_t)(x->nnames - k - 1));
            x->nnames--;
            break;
        }
    free(norm);
    char *old = x->names[0], *oldnorm = x->norm[0];
    x->names[0] = xstrdup(to);
    x->norm[0] = name_normalise(to);
    if (strcmp(oldnorm, x->norm[0])) { /* the old name becomes the first alias (a change of case only: no alias) */
        x->names = xrealloc(x->names, sizeof *x->names * (size_t)(x->nnames + 1));
        x->norm = xrealloc(x->norm, sizeof *x->norm * (size_t)(x->nnames + 1));
        memmove(&x->names[2], &x->names[1], sizeof *x->names * (size_t)(x->nnames - 1));
        memmove(&x->norm[2], &x->norm[1], sizeof *x->norm * (size_t)(x->nnames - 1));
        x->names[1] = old, x->norm[1] = oldnorm;
        x->nnames++;
    } else free(old), free(oldnorm);
    line_touch(x);
    return 0;
}

static int apply_merge(names_list *l, int i, const char *name, const char *into, char *err, size_t errlen) {
    int64_t s = find_entity(l, name), t = find_entity(l, into);
    if (s < 0) return unknown_entity(i, "name", name, err, errlen);
    if (t < 0) return unknown_entity(i, "into", into, err, errlen);
    if (s == t) return request_fail(422, err, errlen, "edits[%d].into: the same entity as the name", i);
    names_line *src = &l->lines[s], *dst = &l->lines[t];
    for (int k = 0; k < src->nnames; k++) {
        int dup = 0;
        for (int j = 0; j < dst->nnames && !dup; j++) dup = !strcmp(dst->norm[j], src->norm[k]);
        if (!dup) add_name(dst, src->names[k]);
    }
    int64_t a = names_comment_mentions(dst->comment), b = names_comment_mentions(src->comment);
    if (a >= 0 && b >= 0) {
        char *c = names_comment_with_mentions(dst->comment, a + b);
        free(dst->comment);
        dst->comment = c;
    }
    line_touch(dst);
    line_remove(l, s);
    return 0;
}

static int apply_edit(names_list *l, json_t *e, int i, char *err, size_t errlen) {
    if (!json_is_object(e)) return request_fail(400, err, errlen, "edits[%d]: expected an object", i);
    json_t *op = json_object_get(e, "op");
    const char *o = json_is_string(op) ? json_string_value(op) : "";
    const char *allowed = !strcmp(o, "delete") ? "" : !strcmp(o, "rename") ? "to" : !strcmp(o, "merge") ? "into" : NULL;
    if (!allowed) return request_fail(400, err, errlen, "edits[%d].op: expected \"delete\", \"rename\" or \"merge\"", i);
    const char *key;
    json_t *v;
    json_object_foreach(e, key, v) {
        (void)v;
        if (strcmp(key, "op") && strcmp(key, "name") && strcmp(key, allowed))
            return request_fail(400, err, errlen, "edits[%d]: unknown key \"%.60s\" for op %s", i, utf8_invalid_offset(key, strlen(key)) < 0 ? key : "?", o);
    }
    const char *name, *other = NULL;
    int rc = edit_name(e, i, "name", &name, err, errlen);
    if (!rc && allowed[0]) rc = edit_name(e, i, allowed, &other, err, errlen);
    if (rc) return rc;
    if (!strcmp(o, "rename")) return apply_rename(l, i, name, other, err, errlen);
    if (!strcmp(o, "merge")) return apply_merge(l, i, name, other, err, errlen);
    int64_t d = find_entity(l, name);
    if (d < 0) return unknown_entity(i, "name", name, err, errlen);
    line_remove(l, d);
    return 0;
}

int names_list_edit_json(names_list *l, const char *body, size_t len, int *nedits, char *err, size_t errlen) {
    json_error_t je;
    json_t *root = json_loadb(body, len, JSON_REJECT_DUPLICATES, &je);
    if (!root) return request_fail(400, err, errlen, "malformed JSON at position %d: %s", je.position, je.text);
    int rc = 0;
    json_t *edits = json_object_get(root, "edits");
    if (!json_is_object(root)) rc = request_fail(400, err, errlen, "expected a JSON object {\"edits\": [...]}");
    else if (json_object_size(root) != 1 || !edits) rc = request_fail(400, err, errlen, "expected exactly one key, \"edits\"");
    else if (!json_is_array(edits) || !json_array_size(edits)) rc = request_fail(400, err, errlen, "edits: expected a non-empty array");
    else if (json_array_size(edits) > NAMES_LIST_MAX_EDITS) rc = request_fail(400, err, errlen, "edits: more than %d", NAMES_LIST_MAX_EDITS);
    for (size_t i = 0; i < json_array_size(edits) && !rc; i++) rc = apply_edit(l, json_array_get(edits, i), (int)i, err, errlen);
    if (!rc) *nedits = (int)json_array_size(edits);
    json_decref(root);
    return rc;
}
