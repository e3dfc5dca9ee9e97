/* order_text.h: a list reordered by a ranking rule (order[i]: the position in rows of the i-th
 * entry) as its rows, comma-separated ("0,6,3,1"), for the tests of the rules that move
 * entities to a list's end (test_located_pairs, test_noun_slots). */
#ifndef PROBEXPAN_ORDER_TEXT_H
#define PROBEXPAN_ORDER_TEXT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *order_text(const int64_t *rows, const int *order, int n) {
    static char out[128];
    out[0] = 0;
    for (int i = 0; i < n; i++) snprintf(out + strlen(out), sizeof out - strlen(out), "%s%lld", i ? "," : "", (long long)rows[order[i]]);
    return out;
}

#endif
