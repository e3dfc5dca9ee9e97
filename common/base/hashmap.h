/* hashmap: open-addressing hash tables for the two keys the text stages need —
 * byte strings -> int64 (vocabularies, entity names) and int64 -> int64 (eids ->
 * row index). Keys are copied (strings into an internal arena); no deletion.
 * Lookups return -1 when absent, so stored values must be >= 0. */
#ifndef PROBEXPAN_HASHMAP_H
#define PROBEXPAN_HASHMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t *hash;      /* 0 = empty slot */
    const char **key;    /* points into the arena */
    uint32_t *klen;
    int64_t *val;
    size_t cap, n;
    char **blocks;       /* arena blocks holding key bytes */
    size_t nblocks, block_used, block_cap;
} strmap;

void strmap_init(strmap *m);
void strmap_free(strmap *m);
/* Value of key (len bytes) or -1. */
int64_t strmap_get(const strmap *m, const char *key, size_t len);
/* Inserts key -> val when absent; returns the value already stored, or -1 when
 * the key was new. */
int64_t strmap_put(strmap *m, const char *key, size_t len, int64_t val);
/* Adds delta to the key's value (inserting 0 first); returns the new value. */
int64_t strmap_add(strmap *m, const char *key, size_t len, int64_t delta);
/* Iteration: slots 0..cap-1; a slot is used when hash[i] != 0. */

typedef struct {
    int64_t *key;
    int64_t *val;
    unsigned char *used;
    size_t cap, n;
} intmap;

void intmap_init(intmap *m);
void intmap_free(intmap *m);
int64_t intmap_get(const intmap *m, int64_t key);
/* Same contract as strmap_put. */
int64_t intmap_put(intmap *m, int64_t key, int64_t val);

/* 64-bit FNV-1a-style hash mixed with a final avalanche; never 0. */
uint64_t hash_bytes(const void *p, size_t n);

#endif
