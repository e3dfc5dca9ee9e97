/* fuzz_safetensors: libFuzzer target for the safetensors reader (safetensors_open,
 * safetensors_find, safetensors_read_f32, safetensors_read_f32_shape; common/format/safetensors.h). The input is
 * the file. Every tensor of an accepted file is looked up by name and read:
 * float dtypes convert, the others must be refused with exit 3, as must a
 * wrong expected shape. */
#include <stdint.h>

#include "fuzz.h"
#include "format/safetensors.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static safetensors st;
    static float *buf;
    const char *path = fuzz_input_file("model.safetensors", data, size);
    FUZZ_OPEN(safetensors_open(&st, path));
    if (fuzz_rc) {
        st.map = NULL; /* FUZZ_OPEN unmapped it; safetensors_close frees the rest */
        safetensors_close(&st);
        return 0;
    }
    for (int i = 0; i < st.n; i++) {
        const safetensors_tensor *t = &st.t[i];
        FUZZ_ASSERT(safetensors_find(&st, t->name) != NULL);
        FUZZ_ASSERT(t->ndim >= 0 && t->ndim <= 8 && t->numel >= 0);
        FUZZ_ASSERT(t->data >= (const uint8_t *)st.map && t->data + t->nbytes <= (const uint8_t *)st.map + st.size);
        FUZZ_ASSERT((size_t)t->numel * safetensors_dtype_size(t->dtype) == t->nbytes);
        int is_float = t->dtype == ST_F32 || t->dtype == ST_F64 || t->dtype == ST_F16 || t->dtype == ST_BF16;
        buf = realloc(buf, (size_t)t->numel * sizeof *buf + 1);
        FUZZ_TRY(safetensors_read_f32(&st, t, buf));
        /* a float tensor reads unless it holds NaN or infinity (refused as bad input) */
        FUZZ_ASSERT(is_float ? fuzz_rc == 0 || fuzz_rc == EXIT_BADINPUT : fuzz_rc == EXIT_BADINPUT);
        FUZZ_TRY(safetensors_read_f32_shape(&st, t, 2, t->shape[0] + 1, 1, buf));
        FUZZ_ASSERT(fuzz_rc == EXIT_BADINPUT);
    }
    safetensors_close(&st);
    return 0;
}
