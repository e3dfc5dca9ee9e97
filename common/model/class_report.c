/* class_report: class proposals as JSON and TSV (contract in class_report.h). */
#include "model/class_report.h"

#include "format/tsv.h"

/* The head word of proposal p and its narrowing word ("" when none), as its most typical
 * member's samples show them. */
static void head_word(const class_proposal *p, const feature_text *t, char (*word)[FEATURE_TEXT]) {
    int64_t f[2] = {p->feature, p->word};
    feature_text_find(t, p->members[0].row, f, p->word >= 0 ? 2 : 1, word);
    if (p->word < 0) word[1][0] = 0;
}

static json_t *utf8_or(const char *s) {
    json_t *v = json_string(s); /* vocabulary tokens are UTF-8; a cut may split one */
    return v ? v : json_string("(not UTF-8)");
}

json_t *class_report_json(const corpus_index *x, const genus_heads *h, const class_proposal *p, int n,
                          const feature_text *t) {
    json_t *list = json_array();
    for (int i = 0; i < n; i++) {
        char word[2][FEATURE_TEXT];
        head_word(&p[i], t, word);
        json_t *members = json_array();
        for (int k = 0; k < p[i].nmembers; k++) {
            const class_member *m = &p[i].members[k];
            json_array_append_new(members, json_pack("{s:I,s:o,s:f,s:i}", "eid", (json_int_t)x->ent.eid[m->row], "name",
                                                     utf8_or(x->ent.name[m->row]), "share", m->share, "count", m->count));
        }
        json_array_append_new(list, json_pack("{s:i,s:o,s:o,s:I,s:I,s:f,s:f,s:f,s:o}", "rank", i + 1, "head", utf8_or(word[0]),
                                              "word", word[1][0] ? utf8_or(word[1]) : json_null(),
                                              "entities", (json_int_t)p[i].entities, "core", (json_int_t)p[i].core, "size",
                                              p[i].size, "coherence", p[i].coherence, "score", p[i].score, "members",
                                              members));
    }
    return json_pack("{s:o,s:I,s:I}", "classes", list, "genus_features", (json_int_t)h->features, "entities",
                     (json_int_t)x->ent.n);
}

void class_report_tsv(FILE *f, const corpus_index *x, const class_proposal *p, int n, const feature_text *t) {
    fprintf(f, "rank\thead\tword\tentities\tcore\tcoherence\tscore\tmember_eids\tmembers\n");
    for (int i = 0; i < n; i++) {
        char word[2][FEATURE_TEXT];
        head_word(&p[i], t, word);
        fprintf(f, "%d\t", i + 1);
        tsv_field(f, word[0]);
        fputc('\t', f);
        tsv_field(f, word[1]);
        fprintf(f, "\t%lld\t%lld\t%.4f\t%.4g\t", (long long)p[i].entities, (long long)p[i].core, p[i].coherence, p[i].score);
        for (int k = 0; k < p[i].nmembers; k++) fprintf(f, "%s%lld", k ? "," : "", (long long)x->ent.eid[p[i].members[k].row]);
        fputc('\t', f);
        for (int k = 0; k < p[i].nmembers; k++) {
            if (k) fputs("; ", f);
            tsv_field(f, x->ent.name[p[i].members[k].row]);
        }
        fputc('\n', f);
    }
}
