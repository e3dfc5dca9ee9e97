/* fuzz_wordpiece: libFuzzer target for the WordPiece tokenizer (common/text/wordpiece.h)
 * on arbitrary bytes, valid UTF-8 or not: must never crash. Every input is
 * encoded in all four flag modes with smallvocab.h, split by wp_basic_words,
 * and its words feed wp_learn, whose vocabulary then encodes the input again.
 * Checked: wp_encode fails exactly on invalid UTF-8 (against an independent
 * validator below) and leaves the output unchanged then; ids lie in the
 * vocabulary; --whole-words gives one id; words are non-empty valid UTF-8
 * without NUL; a learned vocabulary starts with the five specials, has distinct
 * tokens and at most the requested size. */
#include <stdint.h>

#include "fuzz.h"
#include "base/hashmap.h"
#include "smallvocab.h"
#include "text/wordpiece.h"

/* Offset of the first byte that does not start a well-formed UTF-8 sequence
 * (RFC 3629: no overlongs, surrogates or code points above U+10FFFF), or -1. */
static long utf8_bad_at(const uint8_t *s, size_t n) {
    for (size_t i = 0; i < n;) {
        uint8_t c = s[i];
        size_t k;
        uint32_t cp, min;
        if (c < 0x80) { i++; continue; }
        else if ((c & 0xE0) == 0xC0) k = 2, cp = c & 0x1F, min = 0x80;
        else if ((c & 0xF0) == 0xE0) k = 3, cp = c & 0x0F, min = 0x800;
        else if ((c & 0xF8) == 0xF0) k = 4, cp = c & 0x07, min = 0x10000;
        else return (long)i;
        if (n - i < k) return (long)i;
        for (size_t j = 1; j < k; j++) {
            if ((s[i + j] & 0xC0) != 0x80) return (long)i;
            cp = cp << 6 | (s[i + j] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return (long)i;
        i += k;
    }
    return -1;
}

static void check_ids(const wp_vocab *v, const wp_ids *ids, size_t from) {
    for (size_t i = from; i < ids->n; i++) FUZZ_ASSERT(ids->id[i] >= 0 && ids->id[i] < v->n);
}

static void count_word(void *ctx, const char *w, size_t len) {
    FUZZ_ASSERT(len > 0);
    FUZZ_ASSERT(strlen(w) == len);
    FUZZ_ASSERT(utf8_bad_at((const uint8_t *)w, len) < 0);
    strmap_add(ctx, w, len, 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static wp_vocab small;
    static wp_ids ids;
    if (!small.n) small_vocab(&small);
    const char *text = (const char *)data;
    long bad = utf8_bad_at(data, size);
    FUZZ_ASSERT(wp_utf8_invalid_at(text, size) == bad);
    strmap words;
    strmap_init(&words);
    for (int flags = 0; flags < 4; flags++) {
        ids.n = 0;
        wp_ids_push(&ids, small.sp.cls);
        size_t bad_byte = (size_t)-1;
        int64_t unk = 0;
        long n = wp_encode(&small, text, size, flags, &ids, &bad_byte, &unk);
        if (bad >= 0) {
            FUZZ_ASSERT(n == -1 && bad_byte == (size_t)bad && ids.n == 1);
            continue;
        }
        FUZZ_ASSERT(n >= 0 && (size_t)n == ids.n - 1 && unk >= 0 && unk <= n);
        if (flags & WP_WHOLE_WORDS) FUZZ_ASSERT(n == 1);
        check_ids(&small, &ids, 1);
        size_t bb = (size_t)-1;
        FUZZ_ASSERT(wp_basic_words(text, size, flags & WP_PLAIN_SPECIALS, count_word, &words, &bb) == 0);
    }
    if (bad < 0 && words.n) {
        int32_t target = 5 + (int32_t)(size % 64);
        wp_vocab learned;
        wp_learn(&learned, &words, target);
        FUZZ_ASSERT(learned.n >= 5 && learned.n <= target);
        FUZZ_ASSERT(learned.sp.pad == 0 && learned.sp.unk == 1 && learned.sp.cls == 2 && learned.sp.sep == 3 &&
                    learned.sp.mask == 4);
        for (int32_t i = 0; i < learned.n; i++)
            FUZZ_ASSERT(wp_vocab_id(&learned, learned.tok[i], strlen(learned.tok[i])) == i);
        ids.n = 0;
        FUZZ_ASSERT(wp_encode(&learned, text, size, 0, &ids, NULL, NULL) >= 0);
        check_ids(&learned, &ids, 0);
        wp_vocab_free(&learned);
    }
    strmap_free(&words);
    return 0;
}
