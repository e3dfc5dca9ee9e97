/* lebin: integer columns as msgpack bin fields of little-endian values — compact and
 * portable storage for the long id/offset/count arrays of an artifact payload map. */
#ifndef PROBEXPAN_LEBIN_H
#define PROBEXPAN_LEBIN_H

#include <stdint.h>

#include "format/artifact.h"

/* Packs key, then a bin of the n values of v (int64_t, int32_t or uint8_t for width 8, 4, 1). */
void mp_pack_le_bin(msgpack_packer *pk, const char *key, const void *v, int64_t n, int width);
/* Decodes bin field `key` of map m, which must hold exactly n values of `width` bytes, into
 * out (exit 3 naming the file, byte and key otherwise). */
void mp_read_le_bin(artifact_reader *ar, const msgpack_object *m, const char *key, int64_t n, int width, void *out);

#endif
