/* class_lists: a folder of <class>.txt member lists (one name per line, text after a tab
 * ignored) -> a dataset's gt/ and query/ (docs/design.md §2), for annotate.
 *
 * The names are resolved against the annotation's entities when the lists are read
 * (before the text: unknown names are counted, a repeated member is kept once). When they
 * are written, the members kept (at least min mentions) go to gt/<class>.txt in id order;
 * a class with fewer than 3 is skipped with a warning. query/<class>.txt holds `queries`
 * seed sets of 3 drawn from the class's most-mentioned members (seed_pool of them, 0: a
 * third, at least 15) by a generator seeded with random_seed and the class name; no seed
 * repeats before the pool is used up. */
#ifndef PROBEXPAN_CLASS_LISTS_H
#define PROBEXPAN_CLASS_LISTS_H

#include "dataset/annotation.h"
#include "dataset/dataset_write.h"

typedef struct class_lists class_lists;

/* Reads every <class>.txt of dir (exit 3 when the folder cannot be read or has none). */
class_lists *class_lists_read(const char *dir, const annotation *a);
/* Writes gt/ (and query/ when queries > 0) and frees c; returns the classes written. */
int class_lists_write(class_lists *c, const annotation *a, dataset_writer *w, int queries, int seed_pool,
                      long random_seed);

#endif
