/* hashmap: linear-probing tables for string and integer keys (see hashmap.h). */
#include "base/hashmap.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"

uint64_t hash_bytes(const void *p, size_t n) {
    const unsigned char *s = p;
    uint64_t h = 0xcbf29ce484222325ULL;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        h = (h ^ w) * 0x100000001b3ULL;
        h ^= h >> 29;
    }
    for (; i < n; i++) h = (h ^ s[i]) * 0x100000001b3ULL;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h ? h : 1;
}

void strmap_init(strmap *m) { memset(m, 0, sizeof *m); }

void strmap_free(strmap *m) {
    free(m->hash);
    free(m->key);
    free(m->klen);
    free(m->val);
    for (size_t i = 0; i < m->nblocks; i++) free(m->blocks[i]);
    free(m->blocks);
    memset(m, 0, sizeof *m);
}

static size_t str_find(const strmap *m, uint64_t h, const char *key, size_t len) {
    size_t mask = m->cap - 1, i = h & mask;
    while (m->hash[i] && !(m->hash[i] == h && m->klen[i] == len && memcmp(m->key[i], key, len) == 0))
        i = (i + 1) & mask;
    return i;
}

static const char *arena_copy(strmap *m, const char *key, size_t len) {
    if (m->block_used + len + 1 > m->block_cap || !m->nblocks) {
        size_t cap = len + 1 > 65536 ? len + 1 : 65536;
        m->blocks = xrealloc(m->blocks, (m->nblocks + 1) * sizeof *m->blocks);
        m->blocks[m->nblocks++] = xmalloc(cap);
        m->block_cap = cap;
        m->block_used = 0;
    }
    char *dst = m->blocks[m->nblocks - 1] + m->block_used;
    memcpy(dst, key, len);
    dst[len] = 0;
    m->block_used += len + 1;
    return dst;
}

static void str_grow(strmap *m) {
    strmap old = *m;
    m->cap = old.cap ? old.cap * 2 : 64;
    m->hash = xcalloc(m->cap, sizeof *m->hash);
    m->key = xmalloc(m->cap * sizeof *m->key);
    m->klen = xmalloc(m->cap * sizeof *m->klen);
    m->val = xmalloc(m->cap * sizeof *m->val);
    for (size_t i = 0; i < old.cap; i++) {
        if (!old.hash[i]) continue;
        size_t j = str_find(m, old.hash[i], old.key[i], old.klen[i]);
        m->hash[j] = old.hash[i];
        m->key[j] = old.key[i];
        m->klen[j] = old.klen[i];
        m->val[j] = old.val[i];
    }
    free(old.hash);
    free(old.key);
    free(old.klen);
    free(old.val);
}

int64_t strmap_get(const strmap *m, const char *key, size_t len) {
    if (!m->cap) return -1;
    size_t i = str_find(m, hash_bytes(key, len), key, len);
    return m->hash[i] ? m->val[i] : -1;
}

static size_t str_slot(strmap *m, const char *key, size_t len, int *is_new) {
    if ((m->n + 1) * 4 > m->cap * 3) str_grow(m);
    uint64_t h = hash_bytes(key, len);
    size_t i = str_find(m, h, key, len);
    *is_new = !m->hash[i];
    if (*is_new) {
        if (len > UINT32_MAX) die("hash key too long (%zu bytes)", len);
        m->hash[i] = h;
        m->key[i] = arena_copy(m, key, len);
        m->klen[i] = (uint32_t)len;
        m->val[i] = 0;
        m->n++;
    }
    return i;
}

int64_t strmap_put(strmap *m, const char *key, size_t len, int64_t val) {
    int is_new;
    size_t i = str_slot(m, key, len, &is_new);
    if (!is_new) return m->val[i];
    m->val[i] = val;
    return -1;
}

int64_t strmap_add(strmap *m, const char *key, size_t len, int64_t delta) {
    int is_new;
    size_t i = str_slot(m, key, len, &is_new);
    return m->val[i] += delta;
}

void intmap_init(intmap *m) { memset(m, 0, sizeof *m); }

void intmap_free(intmap *m) {
    free(m->key);
    free(m->val);
    free(m->used);
    memset(m, 0, sizeof *m);
}

static size_t int_find(const intmap *m, int64_t key) {
    size_t mask = m->cap - 1, i = hash_bytes(&key, sizeof key) & mask;
    while (m->used[i] && m->key[i] != key) i = (i + 1) & mask;
    return i;
}

int64_t intmap_get(const intmap *m, int64_t key) {
    if (!m->cap) return -1;
    size_t i = int_find(m, key);
    return m->used[i] ? m->val[i] : -1;
}

int64_t intmap_put(intmap *m, int64_t key, int64_t val) {
    if ((m->n + 1) * 4 > m->cap * 3) {
        intmap old = *m;
        m->cap = old.cap ? old.cap * 2 : 64;
        m->key = xmalloc(m->cap * sizeof *m->key);
        m->val = xmalloc(m->cap * sizeof *m->val);
        m->used = xcalloc(m->cap, 1);
        for (size_t i = 0; i < old.cap; i++) {
            if (!old.used[i]) continue;
            size_t j = int_find(m, old.key[i]);
            m->used[j] = 1;
            m->key[j] = old.key[i];
            m->val[j] = old.val[i];
        }
        free(old.key);
        free(old.val);
        free(old.used);
    }
    size_t i = int_find(m, key);
    if (m->used[i]) return m->val[i];
    m->used[i] = 1;
    m->key[i] = key;
    m->val[i] = val;
    m->n++;
    return -1;
}
