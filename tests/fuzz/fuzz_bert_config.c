/* fuzz_bert_config: libFuzzer target for config.json loading (bert_config_load,
 * common/nn/bert.h). The input is the file; a loaded config must satisfy what the
 * loader promises (sizes >= 1, heads divide hidden, [MASK] id inside the
 * vocabulary, positive layer-norm epsilon), and bert_create must be able to lay
 * it out: its parameter count, recomputed here in 128 bits, has to fit the
 * size_t offsets bert_create uses (train-mlm --config builds a model from any
 * accepted config). Small configs are built and initialised for real. */
#include <stdint.h>

#include "nn/bert.h"
#include "fuzz.h"
#include "base/rng.h"

/* Floats of every encoder tensor (HF BERT layout), exactly. */
static unsigned __int128 param_count(const bert_config *c) {
    unsigned __int128 H = (unsigned)c->hidden, F = (unsigned)c->ffn;
    unsigned __int128 emb = ((unsigned __int128)(unsigned)c->vocab_size + (unsigned)c->max_pos +
                             (unsigned)c->type_vocab + 2) * H;
    unsigned __int128 layer = 4 * H * H + 2 * H * F + 9 * H + F;
    return emb + (unsigned)c->layers * layer;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static bert_config c;
    const char *path = fuzz_input_file("config.json", data, size);
    FUZZ_OPEN(bert_config_load(&c, path));
    if (fuzz_rc) return 0;
    FUZZ_ASSERT(c.vocab_size >= 1 && c.hidden >= 1 && c.layers >= 1 && c.heads >= 1 && c.ffn >= 1 &&
                c.max_pos >= 1 && c.type_vocab >= 1);
    FUZZ_ASSERT(c.hidden % c.heads == 0);
    FUZZ_ASSERT(c.mask_token_id < c.vocab_size);
    FUZZ_ASSERT(c.ln_eps > 0);
    unsigned __int128 n = param_count(&c);
    FUZZ_ASSERT(n * sizeof(float) < ((unsigned __int128)1 << 63)); /* else bert_create's offsets wrap */
    if (n <= (1u << 16) && c.layers <= 64) {
        bert_model m;
        rng_t r;
        bert_create(&m, &c, 0);
        rng_seed(&r, 1);
        bert_init_random(&m, &r);
        bert_free(&m);
    }
    return 0;
}
