/* fuzz_vocab: libFuzzer target for vocab.txt loading (wp_vocab_load,
 * common/text/wordpiece.h). The input is the vocabulary file; a loaded vocabulary
 * then encodes every one of its own lines and a few fixed probes in all four
 * flag modes (specials may be missing, tokens may repeat or be empty): every
 * id must lie in the vocabulary, and a line that is a token maps to an id
 * holding that token. */
#include <stdint.h>

#include "fuzz.h"
#include "text/wordpiece.h"

static void encode_all(const wp_vocab *v, const char *s, size_t len, wp_ids *ids) {
    for (int flags = 0; flags < 4; flags++) {
        ids->n = 0;
        if (wp_encode(v, s, len, flags, ids, NULL, NULL) < 0) return;
        for (size_t i = 0; i < ids->n; i++) FUZZ_ASSERT(ids->id[i] >= 0 && ids->id[i] < v->n);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const char *const probes[] = {"[CLS] unaffable [MASK] [SEP] [PAD] [UNK]", "Hello, World!", "中国 Straße ÉTÉ",
                                         "##", ""};
    static wp_vocab v;
    static wp_ids ids;
    const char *path = fuzz_input_file("vocab.txt", data, size);
    memset(&v, 0, sizeof v);
    FUZZ_OPEN(wp_vocab_load(&v, path));
    if (fuzz_rc == 0) {
        FUZZ_ASSERT(v.sp.unk >= 0 && v.sp.unk < v.n);
        for (int32_t i = 0; i < v.n; i++) {
            int32_t id = wp_vocab_id(&v, v.tok[i], strlen(v.tok[i]));
            FUZZ_ASSERT(id >= 0 && id < v.n && !strcmp(v.tok[id], v.tok[i]));
            encode_all(&v, v.tok[i], strlen(v.tok[i]), &ids);
        }
        for (size_t k = 0; k < sizeof probes / sizeof *probes; k++) encode_all(&v, probes[k], strlen(probes[k]), &ids);
    }
    wp_vocab_free(&v); /* complete even after a trapped error (no [UNK]) */
    return 0;
}
