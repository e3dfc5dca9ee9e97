/* pattern_samples: the pattern model's view of a samples artifact. */
#include "model/pattern_samples.h"

#include <stdlib.h>

#include "base/error.h"

void pattern_genus_vocab(const samples *s, genus_vocab *v) {
    int32_t n = samples_vocab_size(s);
    const char **tokens = xmalloc(sizeof(char *) * ((size_t)n + 1));
    for (int32_t i = 0; i < n; i++) tokens[i] = samples_vocab_token(s, i);
    genus_vocab_init(v, tokens, n);
    free(tokens);
}

void pattern_sample_read(const samples *s, const genus_vocab *v, int64_t j, int32_t *ids, pattern_sample *out) {
    int len = samples_tokens(s, j, ids), p = samples_mask_pos(s, j);
    out->entity = samples_entity(s, j);
    for (int i = 0; i < PATTERN_SIDE; i++) {
        out->left[i] = p - 1 - i >= 0 ? ids[p - 1 - i] : PATTERN_OUTSIDE;
        out->right[i] = p + 1 + i < len ? ids[p + 1 + i] : PATTERN_OUTSIDE;
    }
    out->ngenus = definition_genus(v, ids, len, p, out->genus);
}

pattern_sample *pattern_samples_read(const samples *s) {
    int64_t S = samples_count(s);
    pattern_sample *ps = xmalloc(sizeof(pattern_sample) * (size_t)(S + 1));
    int32_t *ids = xmalloc(sizeof(int32_t) * (size_t)samples_max_length(s));
    genus_vocab v;
    pattern_genus_vocab(s, &v);
    for (int64_t j = 0; j < S; j++) pattern_sample_read(s, &v, j, ids, &ps[j]);
    genus_vocab_free(&v);
    free(ids);
    return ps;
}
