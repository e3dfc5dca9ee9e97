/* lebin: little-endian integer columns in msgpack bins. */
#include "format/lebin.h"

#include "base/error.h"

void mp_pack_le_bin(msgpack_packer *pk, const char *key, const void *v, int64_t n, int width) {
    size_t bytes = (size_t)n * (size_t)width;
    uint8_t *buf = xmalloc(bytes + 1);
    for (int64_t i = 0; i < n; i++) {
        uint64_t x = 0;
        if (width == 8) x = (uint64_t)((const int64_t *)v)[i];
        else if (width == 4) x = (uint32_t)((const int32_t *)v)[i];
        else x = ((const uint8_t *)v)[i];
        for (int b = 0; b < width; b++) buf[(size_t)i * width + b] = (uint8_t)(x >> (8 * b));
    }
    mp_str(pk, key);
    msgpack_pack_bin(pk, bytes);
    msgpack_pack_bin_body(pk, buf, bytes);
    free(buf);
}

void mp_read_le_bin(artifact_reader *ar, const msgpack_object *m, const char *key, int64_t n,
                        int width, void *out) {
    const msgpack_object *o = mp_get(ar, m, key, 1);
    if (o->type != MSGPACK_OBJECT_BIN) artifact_bad(ar, "'%s': expected a bin", key);
    /* by division: n * width can wrap around for a huge n read from the file */
    if (n < 0 || o->via.bin.size % (uint32_t)width != 0 || (uint64_t)n != o->via.bin.size / (uint32_t)width)
        artifact_bad(ar, "'%s': %u bytes, expected %lld values of %d bytes", key, o->via.bin.size,
                     (long long)n, width);
    const uint8_t *p = (const uint8_t *)o->via.bin.ptr;
    for (int64_t i = 0; i < n; i++) {
        uint64_t x = 0;
        for (int b = 0; b < width; b++) x |= (uint64_t)p[(size_t)i * width + b] << (8 * b);
        if (width == 8) ((int64_t *)out)[i] = (int64_t)x;
        else if (width == 4) ((int32_t *)out)[i] = (int32_t)(uint32_t)x;
        else ((uint8_t *)out)[i] = (uint8_t)x;
    }
}
