/* fuzz_names_list: libFuzzer target for the names file under review in `probexpan serve`
 * (common/serve/names_list.h) — no files. The input is a names file, then (after the first
 * "\n@@\n", when there is one) the JSON body of POST /api/names/edit.
 * Contract checked: parsing ends in 0 or -1 with a "line N: ..." message; the text of a parsed
 * list parses again to the same text and the same entity count (what is not edited is written
 * back as read); an edit ends in 0 or in 400/409/422 with a message naming the edit; after an
 * accepted edit the list's text still parses, each entity has a name, no field holds a tab or a
 * line break, and a listing with any query counts at most the list's entities. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "serve/names_list.h"

#define FUZZ_ASSERT(c) do { if (!(c)) abort(); } while (0)

/* The text of l parses, to the same text. */
static void check_round_trip(const names_list *l) {
    size_t len, len2;
    char *text = names_list_text(l, &len), err[256] = "";
    names_list again;
    FUZZ_ASSERT(names_list_parse(text, len, &again, err, sizeof err) == 0);
    FUZZ_ASSERT(again.entities == l->entities);
    char *text2 = names_list_text(&again, &len2);
    FUZZ_ASSERT(len == len2 && !memcmp(text, text2, len));
    for (int64_t i = 0; i < again.n; i++)
        for (int k = 0; k < again.lines[i].nnames; k++)
            FUZZ_ASSERT(again.lines[i].names[k][0] && !strpbrk(again.lines[i].names[k], "\t\n"));
    free(text), free(text2);
    names_list_free(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *in = (const char *)data, *sep = memmem(in, size, "\n@@\n", 4);
    size_t tlen = sep ? (size_t)(sep - in) + 1 : size;
    char err[1024] = "";
    names_list l;
    if (names_list_parse(in, tlen, &l, err, sizeof err)) {
        FUZZ_ASSERT(!strncmp(err, "line ", 5));
        return 0;
    }
    check_round_trip(&l);
    if (sep) {
        names_list copy;
        names_list_copy(&l, &copy);
        int nedits = -1, rc = names_list_edit_json(&copy, sep + 4, size - tlen - 3, &nedits, err, sizeof err);
        FUZZ_ASSERT(rc == 0 || ((rc == 400 || rc == 409 || rc == 422) && err[0]));
        if (rc == 0) {
            FUZZ_ASSERT(nedits >= 1 && copy.entities <= l.entities);
            check_round_trip(&copy);
            int64_t total;
            json_t *j = names_list_json(&copy, "a", 0, 10, &total);
            FUZZ_ASSERT(total <= copy.entities && (int64_t)json_array_size(j) <= total);
            json_decref(j);
        } else if (rc != 400) FUZZ_ASSERT(!strncmp(err, "edits[", 6));
        names_list_free(&copy);
    }
    names_list_free(&l);
    return 0;
}
