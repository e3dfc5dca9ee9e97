/* linked_names: counts of the names link markup pointed at (see linked_names.h). */
#include "text/linked_names.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/hashmap.h"

#define NAME_MAX_BYTES 256

struct linked_names {
    strmap counts;
    int64_t links;
};

linked_names *linked_names_new(void) {
    linked_names *l = xcalloc(1, sizeof *l);
    strmap_init(&l->counts);
    return l;
}

void linked_names_add(linked_names *l, const char *name, size_t len) {
    if (!len || len > NAME_MAX_BYTES) return;
    strmap_add(&l->counts, name, len, 1);
    l->links++;
}

int64_t linked_names_distinct(const linked_names *l) { return (int64_t)l->counts.n; }
int64_t linked_names_links(const linked_names *l) { return l->links; }

static int by_count(const void *a, const void *b) {
    const linked_name *x = a, *y = b;
    if (x->count != y->count) return x->count > y->count ? -1 : 1;
    return strcmp(x->name, y->name);
}

int64_t linked_names_sorted(const linked_names *l, linked_name **out) {
    linked_name *v = xmalloc((l->counts.n + 1) * sizeof *v);
    int64_t n = 0;
    for (size_t i = 0; i < l->counts.cap; i++) {
        if (!l->counts.hash[i]) continue;
        v[n].name = l->counts.key[i]; /* the map's arena keeps keys NUL-terminated */
        v[n++].count = l->counts.val[i];
    }
    qsort(v, (size_t)n, sizeof *v, by_count);
    *out = v;
    return n;
}

void linked_names_free(linked_names *l) {
    if (!l) return;
    strmap_free(&l->counts);
    free(l);
}
