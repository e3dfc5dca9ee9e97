/* set_name: the heads an expansion's set shares, in words (contract in set_name.h). */
#include "model/set_name.h"

#include <stdio.h>
#include <string.h>

void set_name_find(set_name *s, const genus_heads *h, const feature_text *t, const int64_t *set, int nset,
                   const int64_t *list, int nlist) {
    memset(s, 0, sizeof *s);
    s->nset = nset;
    s->nlist = nlist;
    s->n = genus_heads_of_set(h, set, nset, list, nlist, s->heads, SET_NAME_HEADS);
    for (int i = 0; i < s->n; i++) /* the words, as the samples of a member holding the head show them */
        for (int k = 0; k < nset && !s->words[i][0]; k++)
            if (genus_heads_count(h, set[k], s->heads[i].feature) > 0)
                feature_text_find(t, set[k], &s->heads[i].feature, 1, &s->words[i]);
}

void set_name_text(const set_name *s, char *buf, size_t len) {
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; i < s->n && at < len; i++) {
        int k = snprintf(buf + at, len - at, "%s%s — %d/%d seeds, %d of the top %d", i ? "; " : "", s->words[i],
                         s->heads[i].set_holding, s->nset, s->heads[i].list_holding, s->nlist);
        if (k < 0) break;
        at += (size_t)k;
    }
}

json_t *set_name_json(const set_name *s) {
    char text[SET_NAME_HEADS * (FEATURE_TEXT + 64)];
    set_name_text(s, text, sizeof text);
    json_t *heads = json_array();
    for (int i = 0; i < s->n; i++) {
        json_t *w = json_string(s->words[i]); /* vocabulary tokens are UTF-8; a cut may split one */
        json_array_append_new(heads, json_pack("{s:o,s:i,s:i,s:i,s:i}", "head", w ? w : json_string("(not UTF-8)"), "seeds",
                                               s->heads[i].set_holding, "of_seeds", s->nset, "listed",
                                               s->heads[i].list_holding, "of_listed", s->nlist));
    }
    json_t *t = json_string(text);
    return json_pack("{s:o,s:o}", "text", t ? t : json_string(""), "heads", heads);
}
