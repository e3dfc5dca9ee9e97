/* mention_matcher: token trie in a hash table with greedy longest match (see mention_matcher.h). */
#include "text/mention_matcher.h"

#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "base/error.h"
#include "base/hashmap.h"

struct mention_matcher {
    int ignore_case;
    strmap edges;      /* key: 4-byte parent node id + token bytes -> child node id */
    int32_t *value;    /* per node: entity value or -1; node 0 is the root */
    int64_t nnodes, cap, nnames;
    char *key;         /* scratch key buffer */
    size_t keycap;
};

mention_matcher *matcher_new(int ignore_case) {
    mention_matcher *m = xcalloc(1, sizeof *m);
    m->ignore_case = ignore_case;
    strmap_init(&m->edges);
    m->cap = 1024;
    m->value = xmalloc(sizeof *m->value * (size_t)m->cap);
    m->value[0] = -1;
    m->nnodes = 1;
    m->keycap = 256;
    m->key = xmalloc(m->keycap);
    return m;
}

void matcher_free(mention_matcher *m) {
    if (!m) return;
    strmap_free(&m->edges);
    free(m->value);
    free(m->key);
    free(m);
}

int64_t matcher_size(const mention_matcher *m) { return m->nnames; }

/* Case-folded copy of tok (malloc'd) when folding is on and needed, else NULL. */
static char *fold(const mention_matcher *m, const char *tok) {
    if (!m->ignore_case) return NULL;
    int ascii_lower = 1;
    for (const char *p = tok; *p; p++)
        if ((unsigned char)*p >= 0x80 || (*p >= 'A' && *p <= 'Z')) { ascii_lower = 0; break; }
    if (ascii_lower) return NULL;
    utf8proc_uint8_t *out = NULL;
    utf8proc_ssize_t r = utf8proc_map((const utf8proc_uint8_t *)tok, 0, &out,
                                      UTF8PROC_NULLTERM | UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_CASEFOLD);
    if (r < 0) return xstrdup(tok); /* invalid UTF-8 cannot reach here (validated input); keep as is */
    return (char *)out;
}

/* Builds the edge key (parent, token) in m->key; returns its length. */
static size_t make_key(char **key, size_t *cap, int32_t parent, const char *tok) {
    size_t tl = strlen(tok);
    if (tl + 4 > *cap) {
        *cap = (tl + 4) * 2;
        *key = xrealloc(*key, *cap);
    }
    memcpy(*key, &parent, 4);
    memcpy(*key + 4, tok, tl);
    return tl + 4;
}

/* Node reached from `node` by token `tok`, or -1. */
static int32_t child(const mention_matcher *m, int32_t node, const char *tok) {
    char *f = fold(m, tok);
    const char *t = f ? f : tok;
    size_t tl = strlen(t);
    char stackbuf[512], *key = tl + 4 <= sizeof stackbuf ? stackbuf : xmalloc(tl + 4);
    memcpy(key, &node, 4);
    memcpy(key + 4, t, tl);
    int64_t next = strmap_get(&m->edges, key, tl + 4);
    if (key != stackbuf) free(key);
    free(f);
    return (int32_t)next;
}

int32_t matcher_add(mention_matcher *m, char *const *tokens, int n, int32_t value) {
    if (n < 1 || value < 0) die("matcher_add: empty name or negative value");
    int32_t node = 0;
    for (int i = 0; i < n; i++) {
        char *f = fold(m, tokens[i]);
        size_t kl = make_key(&m->key, &m->keycap, node, f ? f : tokens[i]);
        free(f);
        int64_t next = strmap_get(&m->edges, m->key, kl);
        if (next < 0) {
            if (m->nnodes == INT32_MAX) die("mention_matcher: too many name tokens");
            if (m->nnodes == m->cap) {
                m->cap *= 2;
                m->value = xrealloc(m->value, sizeof *m->value * (size_t)m->cap);
            }
            next = m->nnodes++;
            m->value[next] = -1;
            strmap_put(&m->edges, m->key, kl, next);
        }
        node = (int32_t)next;
    }
    if (m->value[node] >= 0) return m->value[node] == value ? -1 : m->value[node];
    m->value[node] = value;
    m->nnames++;
    return -1;
}

int matcher_longest(const mention_matcher *m, char *const *tokens, int n, int pos, int32_t *value) {
    int32_t node = 0;
    int best = 0;
    for (int i = pos; i < n; i++) {
        node = child(m, node, tokens[i]);
        if (node < 0) break;
        if (m->value[node] >= 0) {
            best = i - pos + 1;
            *value = m->value[node];
        }
    }
    return best;
}

int32_t matcher_get(const mention_matcher *m, char *const *tokens, int n) {
    int32_t node = 0;
    for (int i = 0; i < n && node >= 0; i++) node = child(m, node, tokens[i]);
    return n > 0 && node >= 0 ? m->value[node] : -1;
}
