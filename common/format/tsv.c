/* tsv: a TSV field (contract in tsv.h). */
#include "format/tsv.h"

void tsv_field(FILE *f, const char *s) {
    for (; *s; s++) fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
}
