/* sha256: streaming SHA-256 (FIPS 180-4) for artifact and input fingerprints. */
#ifndef PROBEXPAN_SHA256_H
#define PROBEXPAN_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t h[8];
    uint64_t length;      /* bytes hashed so far */
    uint8_t block[64];
    size_t fill;
} sha256_ctx;

void sha256_init(sha256_ctx *c);
void sha256_update(sha256_ctx *c, const void *data, size_t n);
/* Writes 64 lowercase hex digits and a NUL into hex. */
void sha256_final_hex(sha256_ctx *c, char hex[65]);

#endif
