/* vocab_ids: test sentences written as space-separated tokens of a small hand-made vocabulary
 * (the tests of the definition and running-text readers, common/model/). */
#ifndef PROBEXPAN_TEST_VOCAB_IDS_H
#define PROBEXPAN_TEST_VOCAB_IDS_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ids (in vocab[0..nv)) of the space-separated tokens of text into ids; *mask = the position of
 * the first "[MASK]" (id 4), -1 without one. A token outside the vocabulary is reported and
 * becomes id 1 ([UNK]). */
static inline int vocab_ids(const char *const *vocab, int32_t nv, const char *text, int32_t *ids, int *mask) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", text);
    int n = 0;
    *mask = -1;
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        int32_t id = -1;
        for (int32_t i = 0; i < nv && id < 0; i++)
            if (!strcmp(vocab[i], t)) id = i;
        if (id < 0) {
            fprintf(stderr, "  test vocabulary lacks '%s'\n", t);
            id = 1;
        }
        if (id == 4 && *mask < 0) *mask = n;
        ids[n++] = id;
    }
    return n;
}

#endif
