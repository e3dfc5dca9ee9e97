/* row_list: membership in a short list of entity rows (contract in row_list.h). */
#include "base/row_list.h"

int row_list_contains(const int64_t *rows, int n, int64_t r) {
    for (int i = 0; i < n; i++)
        if (rows[i] == r) return 1;
    return 0;
}
