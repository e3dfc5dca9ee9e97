/* mpjson: msgpack -> JSON text. */
#include "format/mpjson.h"

#include <inttypes.h>
#include <math.h>

void mpjson_print_string(FILE *f, const char *s, size_t n) {
    fputc('"', f);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (c < 0x20) fprintf(f, "\\u%04x", c);
            else fputc(c, f);
        }
    }
    fputc('"', f);
}

void mpjson_print_number(FILE *f, double v) {
    if (isfinite(v)) fprintf(f, "%.9g", v);
    else fputs("null", f);
}

void mpjson_print(FILE *f, const msgpack_object *o) {
    switch (o->type) {
    case MSGPACK_OBJECT_NIL: fputs("null", f); break;
    case MSGPACK_OBJECT_BOOLEAN: fputs(o->via.boolean ? "true" : "false", f); break;
    case MSGPACK_OBJECT_POSITIVE_INTEGER: fprintf(f, "%" PRIu64, o->via.u64); break;
    case MSGPACK_OBJECT_NEGATIVE_INTEGER: fprintf(f, "%" PRId64, o->via.i64); break;
    case MSGPACK_OBJECT_FLOAT32:
    case MSGPACK_OBJECT_FLOAT64: mpjson_print_number(f, o->via.f64); break;
    case MSGPACK_OBJECT_STR: mpjson_print_string(f, o->via.str.ptr, o->via.str.size); break;
    case MSGPACK_OBJECT_BIN: fprintf(f, "{\"$bin\":%" PRIu32 "}", o->via.bin.size); break;
    case MSGPACK_OBJECT_EXT: fprintf(f, "{\"$ext\":%d,\"bytes\":%" PRIu32 "}", o->via.ext.type, o->via.ext.size); break;
    case MSGPACK_OBJECT_ARRAY:
        fputc('[', f);
        for (uint32_t i = 0; i < o->via.array.size; i++) {
            if (i) fputc(',', f);
            mpjson_print(f, &o->via.array.ptr[i]);
        }
        fputc(']', f);
        break;
    case MSGPACK_OBJECT_MAP:
        fputc('{', f);
        for (uint32_t i = 0; i < o->via.map.size; i++) {
            const msgpack_object_kv *kv = &o->via.map.ptr[i];
            if (i) fputc(',', f);
            if (kv->key.type == MSGPACK_OBJECT_STR) {
                mpjson_print(f, &kv->key);
            } else { /* JSON keys must be strings: quote the key's JSON text */
                char *buf = NULL;
                size_t len = 0;
                FILE *m = open_memstream(&buf, &len);
                mpjson_print(m, &kv->key);
                fclose(m);
                mpjson_print_string(f, buf, len);
                free(buf);
            }
            fputc(':', f);
            mpjson_print(f, &kv->val);
        }
        fputc('}', f);
        break;
    }
}
