/* safetensors: validated mmap reader with float conversion, and an atomic writer. */
#include "format/safetensors.h"

#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/half.h"
#include "base/outfile.h"
#include "base/paths.h"

static const char *const dtype_names[] = {"F64", "F32", "F16", "BF16", "I64",
                                          "I32", "I16", "I8",  "U8",   "BOOL"};
static const size_t dtype_sizes[] = {8, 4, 2, 2, 8, 4, 2, 1, 1, 1};

size_t safetensors_dtype_size(safetensors_dtype d) { return dtype_sizes[d]; }
const char *safetensors_dtype_name(safetensors_dtype d) { return dtype_names[d]; }

static int dtype_parse(const char *s) {
    for (int i = 0; i < (int)(sizeof dtype_names / sizeof *dtype_names); i++)
        if (!strcmp(s, dtype_names[i])) return i;
    return -1;
}

void safetensors_open(safetensors *st, const char *path) {
    memset(st, 0, sizeof *st);
    st->path = xstrdup(path);
    int fd = paths_open_input(path);
    if (fd < 0) die_errno("cannot open %s", path);
    struct stat sb;
    if (fstat(fd, &sb) < 0) die_errno("cannot stat %s", path);
    st->size = (size_t)sb.st_size;
    if (st->size < 8) die_input(path, "header", "file of %zu bytes is shorter than the 8-byte header length", st->size);
    st->map = mmap(NULL, st->size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (st->map == MAP_FAILED) die_errno("cannot map %s", path);
    const uint8_t *base = st->map;
    uint64_t hlen = 0;
    for (int i = 7; i >= 0; i--) hlen = hlen << 8 | base[i];
    if (hlen > st->size - 8)
        die_input(path, "header", "header length %llu exceeds the file size %zu",
                  (unsigned long long)hlen, st->size);
    json_error_t jerr;
    json_t *root = json_loadb((const char *)base + 8, (size_t)hlen, JSON_REJECT_DUPLICATES, &jerr);
    if (!root || !json_is_object(root))
        die_input(path, "header", "expected a JSON object (%s at byte %d)", jerr.text,
                  jerr.position + 8);
    const uint8_t *data = base + 8 + hlen;
    size_t data_size = st->size - 8 - (size_t)hlen;
    st->t = xcalloc(json_object_size(root) + 1, sizeof *st->t);
    const char *key;
    json_t *val;
    json_object_foreach(root, key, val) {
        if (!strcmp(key, "__metadata__")) continue;
        safetensors_tensor *t = &st->t[st->n];
        json_t *dt = json_object_get(val, "dtype"), *sh = json_object_get(val, "shape"),
               *of = json_object_get(val, "data_offsets");
        if (!json_is_string(dt) || !json_is_array(sh) || !json_is_array(of) ||
            json_array_size(of) != 2)
            die_input(path, key, "expected {\"dtype\", \"shape\", \"data_offsets\": [begin, end]}");
        int d = dtype_parse(json_string_value(dt));
        if (d < 0) die_input(path, key, "unknown dtype \"%s\"", json_string_value(dt));
        if (json_array_size(sh) > 8) die_input(path, key, "more than 8 dimensions");
        t->dtype = (safetensors_dtype)d;
        t->ndim = (int)json_array_size(sh);
        t->numel = 1;
        for (int i = 0; i < t->ndim; i++) {
            json_t *x = json_array_get(sh, i);
            if (!json_is_integer(x) || json_integer_value(x) < 0 ||
                json_integer_value(x) > (1LL << 40))
                die_input(path, key, "shape entry %d is not a non-negative integer", i);
            t->shape[i] = json_integer_value(x);
            if (t->shape[i] && t->numel > (1LL << 40) / t->shape[i])
                die_input(path, key, "tensor too large");
            t->numel *= t->shape[i];
        }
        json_t *b = json_array_get(of, 0), *e = json_array_get(of, 1);
        if (!json_is_integer(b) || !json_is_integer(e) || json_integer_value(b) < 0 ||
            json_integer_value(e) < json_integer_value(b))
            die_input(path, key, "data_offsets must be integers 0 <= begin <= end");
        uint64_t ob = (uint64_t)json_integer_value(b), oe = (uint64_t)json_integer_value(e);
        if (oe > data_size)
            die_input(path, key, "data_offsets [%llu, %llu] point outside the %zu data bytes of the file",
                      (unsigned long long)ob, (unsigned long long)oe, data_size);
        t->nbytes = (size_t)(oe - ob);
        if ((uint64_t)t->numel * dtype_sizes[d] != t->nbytes)
            die_input(path, key, "shape × %s size = %llu bytes but data_offsets span %zu",
                      dtype_names[d], (unsigned long long)((uint64_t)t->numel * dtype_sizes[d]),
                      t->nbytes);
        t->data = data + ob;
        t->name = xstrdup(key);
        st->n++;
    }
    json_decref(root);
}

void safetensors_close(safetensors *st) {
    for (int i = 0; i < st->n; i++) free(st->t[i].name);
    free(st->t);
    if (st->map && st->map != MAP_FAILED) munmap(st->map, st->size);
    free(st->path);
    memset(st, 0, sizeof *st);
}

const safetensors_tensor *safetensors_find(const safetensors *st, const char *name) {
    for (int i = 0; i < st->n; i++)
        if (!strcmp(st->t[i].name, name)) return &st->t[i];
    return NULL;
}

void safetensors_read_f32(const safetensors *st, const safetensors_tensor *t, float *out) {
    const uint8_t *p = t->data;
    size_t n = (size_t)t->numel;
    switch (t->dtype) {
    case ST_F32: memcpy(out, p, n * 4); break;
    case ST_F64:
        for (size_t i = 0; i < n; i++) {
            double d;
            memcpy(&d, p + 8 * i, 8);
            out[i] = (float)d;
        }
        break;
    case ST_F16:
    case ST_BF16:
        for (size_t i = 0; i < n; i++) {
            uint16_t h;
            memcpy(&h, p + 2 * i, 2);
            out[i] = t->dtype == ST_F16 ? f16_to_f32(h) : bf16_to_f32(h);
        }
        break;
    default:
        die_input(st->path, t->name, "dtype %s where a float tensor (F32, F16, BF16) was expected",
                  dtype_names[t->dtype]);
    }
    for (size_t i = 0; i < n; i++)
        if (!isfinite(out[i]))
            die_input(st->path, t->name, "element %zu is %g: tensor values must be finite numbers", i, (double)out[i]);
}

void safetensors_read_f32_shape(const safetensors *st, const safetensors_tensor *t, int ndim, int64_t d0,
                       int64_t d1, float *out) {
    if (t->ndim != ndim || t->shape[0] != d0 || (ndim == 2 && t->shape[1] != d1)) {
        char got[128] = "[", *q = got + 1;
        for (int i = 0; i < t->ndim && q < got + 100; i++)
            q += sprintf(q, "%s%lld", i ? ", " : "", (long long)t->shape[i]);
        strcpy(q, "]");
        if (ndim == 2)
            die_input(st->path, t->name, "shape %s, expected [%lld, %lld]", got, (long long)d0,
                      (long long)d1);
        die_input(st->path, t->name, "shape %s, expected [%lld]", got, (long long)d0);
    }
    safetensors_read_f32(st, t, out);
}

void safetensors_write(const char *path, const safetensors_entry *e, int n, const char *metadata_json_or_null) {
    json_t *root = json_object();
    json_t *meta = metadata_json_or_null ? json_loads(metadata_json_or_null, 0, NULL) : NULL;
    if (!meta) {
        meta = json_object();
        json_object_set_new(meta, "format", json_string("pt"));
    }
    json_object_set_new(root, "__metadata__", meta);
    uint64_t off = 0;
    size_t *nb = xmalloc((size_t)(n ? n : 1) * sizeof *nb);
    for (int i = 0; i < n; i++) {
        json_t *t = json_object(), *sh = json_array();
        uint64_t numel = 1;
        for (int d = 0; d < e[i].ndim; d++) {
            json_array_append_new(sh, json_integer(e[i].shape[d]));
            numel *= (uint64_t)e[i].shape[d];
        }
        for (uint64_t k = 0; e[i].dtype == ST_F32 && k < numel; k++)
            if (!isfinite(((const float *)e[i].data)[k]))
                die("refusing to write %s: tensor %s element %llu is %g (training diverged? try a lower learning rate)",
                    path, e[i].name, (unsigned long long)k, (double)((const float *)e[i].data)[k]);
        nb[i] = (size_t)(numel * dtype_sizes[e[i].dtype]);
        json_object_set_new(t, "dtype", json_string(dtype_names[e[i].dtype]));
        json_object_set_new(t, "shape", sh);
        json_t *of = json_array();
        json_array_append_new(of, json_integer((json_int_t)off));
        json_array_append_new(of, json_integer((json_int_t)(off + nb[i])));
        json_object_set_new(t, "data_offsets", of);
        json_object_set_new(root, e[i].name, t);
        off += nb[i];
    }
    /* keep insertion order so the data area follows the header's order */
    char *hdr = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(root);
    size_t hl = strlen(hdr), padded = (hl + 7) / 8 * 8;
    outfile *o = outfile_open(path);
    FILE *f = outfile_stream(o);
    uint8_t len8[8];
    for (int i = 0; i < 8; i++) len8[i] = (uint8_t)((uint64_t)padded >> (8 * i));
    int ok = fwrite(len8, 1, 8, f) == 8 && fwrite(hdr, 1, hl, f) == hl;
    for (size_t i = hl; ok && i < padded; i++) ok = fputc(' ', f) != EOF;
    for (int i = 0; ok && i < n; i++) ok = fwrite(e[i].data, 1, nb[i], f) == nb[i];
    if (!ok) die_errno("cannot write %s", outfile_temp(o));
    outfile_commit(o);
    free(hdr);
    free(nb);
}
