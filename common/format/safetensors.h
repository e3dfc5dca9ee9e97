/* safetensors: reader (mmap) and writer of the safetensors format used for model weights.
 *
 * Format: 8-byte little-endian header length N, N bytes of JSON mapping each tensor name
 * to {"dtype", "shape", "data_offsets": [begin, end]} (offsets relative to the data area
 * after the header) plus an optional "__metadata__" string map, then the packed data.
 *
 * safetensors_open validates everything before any tensor is used: header length inside the file,
 * JSON well-formed, every dtype known (F64 F32 F16 BF16 I64 I32 I16 I8 U8 BOOL), shape ×
 * element size == end − begin, data range inside the file. Any violation exits 3 via
 * die_input(file, tensor name or "header", what was expected). Readers convert F32/F16/
 * BF16 (and F64) to float32; asking for another dtype as float exits 3 naming the tensor. */
#ifndef PROBEXPAN_SAFETENSORS_H
#define PROBEXPAN_SAFETENSORS_H

#include <stddef.h>
#include <stdint.h>

typedef enum { ST_F64, ST_F32, ST_F16, ST_BF16, ST_I64, ST_I32, ST_I16, ST_I8, ST_U8,
               ST_BOOL } safetensors_dtype;

typedef struct {
    char *name;
    safetensors_dtype dtype;
    int ndim;
    int64_t shape[8];
    int64_t numel;
    const uint8_t *data;    /* inside the mapping (may be unaligned) */
    size_t nbytes;
} safetensors_tensor;

typedef struct {
    char *path;
    void *map;
    size_t size;
    int n;
    safetensors_tensor *t;
} safetensors;

/* Maps and validates the file (exit 3 on bad input, exit 1 if it cannot be opened). */
void safetensors_open(safetensors *st, const char *path);
void safetensors_close(safetensors *st);
/* Tensor by exact name, or NULL. */
const safetensors_tensor *safetensors_find(const safetensors *st, const char *name);
/* Element size in bytes and name ("F32", ...) of a dtype. */
size_t safetensors_dtype_size(safetensors_dtype d);
const char *safetensors_dtype_name(safetensors_dtype d);
/* Converts tensor t to float32 into out (t->numel floats); exit 3 if its dtype is not a
 * float type. */
void safetensors_read_f32(const safetensors *st, const safetensors_tensor *t, float *out);
/* Like safetensors_read_f32 after checking that the shape is exactly {d0} (ndim 1) or {d0, d1}
 * (ndim 2): exit 3 naming the tensor otherwise. */
void safetensors_read_f32_shape(const safetensors *st, const safetensors_tensor *t, int ndim, int64_t d0,
                       int64_t d1, float *out);

/* Writer: entries are written in the given order; data is raw little-endian of dtype.
 * The file is written to a temporary name then renamed (never a partial file). */
typedef struct {
    const char *name;
    safetensors_dtype dtype;
    int ndim;
    int64_t shape[8];
    const void *data;
} safetensors_entry;
void safetensors_write(const char *path, const safetensors_entry *e, int n, const char *metadata_json_or_null);

#endif
