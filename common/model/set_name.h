/* set_name: what an expansion believes its set is — the genus heads shared by the seeds and
 * accepted entities (genus_heads_of_set), with their support among the seeds and in the
 * ranked list, and their words (feature_text.h):
 *   "these look like: composer — 3/3 seeds, 41 of the top 50"
 * Shown above the page's list, in the JSON of `query` and of the API, on `query`'s standard
 * error beside its TSV, and as the last line ("# ...") of the API's TSV export. */
#ifndef PROBEXPAN_SET_NAME_H
#define PROBEXPAN_SET_NAME_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "model/feature_text.h"
#include "model/genus_heads.h"

#define SET_NAME_HEADS 3 /* heads reported, best first */

typedef struct {
    int n;                                   /* heads found: 0..SET_NAME_HEADS */
    set_head heads[SET_NAME_HEADS];
    char words[SET_NAME_HEADS][FEATURE_TEXT];
    int nset, nlist;                         /* the set's members; the list's entities */
} set_name;

/* The name of set[0..nset) (seeds and accepted entities, index rows) over its ranked list
 * list[0..nlist). */
void set_name_find(set_name *s, const genus_heads *h, const feature_text *t, const int64_t *set, int nset,
                   const int64_t *list, int nlist);

/* {"text": "composer — 3/3 seeds, 41 of the top 50", "heads": [{"head", "seeds", "of_seeds",
 * "listed", "of_listed"}]}; text "" and heads [] when the set shares no head. */
json_t *set_name_json(const set_name *s);

/* The sentence of set_name_json's "text" into buf (cut to len). */
void set_name_text(const set_name *s, char *buf, size_t len);

#endif
