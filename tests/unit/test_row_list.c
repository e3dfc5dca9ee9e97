/* test_row_list: a row is found wherever it stands in the list, and never in an empty one. */
#include <stdint.h>

#include "base/row_list.h"
#include "check.h"

static void test_contains(void) {
    int64_t rows[] = {7, -1, INT64_MAX, 0};
    CHECK(row_list_contains(rows, 4, 7));
    CHECK(row_list_contains(rows, 4, 0));
    CHECK(row_list_contains(rows, 4, INT64_MAX));
    CHECK(!row_list_contains(rows, 4, 8));
    CHECK(!row_list_contains(rows, 3, 0)); /* only the first n count */
    CHECK(!row_list_contains(rows, 0, 7));
    CHECK(!row_list_contains(NULL, 0, 7));
}

TEST_MAIN_BEGIN("test_row_list")
RUN(test_contains);
TEST_MAIN_END
