/* smallvocab.h: the hand-written WordPiece vocabulary the tokenizer fuzz targets
 * encode with (no file needed): the five specials, ASCII letters and digits in
 * initial and "##" form, a few words and suffixes, punctuation, and some
 * non-ASCII pieces (accented, Greek final sigma, CJK, emoji) so lowercasing,
 * accent stripping and CJK splitting reach real matches. */
#ifndef PROBEXPAN_SMALLVOCAB_H
#define PROBEXPAN_SMALLVOCAB_H

#include <stdio.h>

#include "text/wordpiece.h"

static inline void small_vocab(wp_vocab *v) {
    static const char *const fixed[] = {
        "[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "new", "york", "visit", "##ed", "##s", "##ing",
        "un", "##aff", "##able", "ohio", "texas", ".", ",", "!", "'", "-", "[", "]", "#", "##", "é", "##é",
        "σ", "##σ", "ς", "##ς", "中", "国", "##国", "😀", "ß", "##ß", "i", "##i̇", "straße", "ﬁ", "##ﬁ"};
    enum { NF = sizeof fixed / sizeof *fixed, NT = NF + 2 * 36 };
    static char buf[2 * 36][4];
    const char *tok[NT];
    int n = 0;
    for (int i = 0; i < NF; i++) tok[n++] = fixed[i];
    for (int i = 0; i < 36; i++) {
        char ch = (char)(i < 26 ? 'a' + i : '0' + i - 26);
        snprintf(buf[2 * i], sizeof buf[2 * i], "%c", ch);
        snprintf(buf[2 * i + 1], sizeof buf[2 * i + 1], "##%c", ch);
        tok[n++] = buf[2 * i];
        tok[n++] = buf[2 * i + 1];
    }
    wp_vocab_from_tokens(v, (char *const *)tok, n);
}

#endif
