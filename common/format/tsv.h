/* tsv: one field of a tab-separated line — text whose tabs and line breaks become spaces, so a
 * name can never split a row or a line of a TSV file. */
#ifndef PROBEXPAN_TSV_H
#define PROBEXPAN_TSV_H

#include <stdio.h>

void tsv_field(FILE *f, const char *s);

#endif
