/* linked_names: the names a text's link markup pointed at ({IBM}, [[IBM]],
 * [IBM](url), <a>IBM</a>; link_markup.h, read_html.c), counted — evidence for
 * entity discovery that a string is a name, independent of capitalisation
 * ("C", "awk"), given by annotate to discover.h.
 * A name is stored as it was written (its visible text, white space runs made
 * single spaces), at most 256 bytes. */
#ifndef PROBEXPAN_LINKED_NAMES_H
#define PROBEXPAN_LINKED_NAMES_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *name; /* NUL-terminated, owned by the linked_names */
    int64_t count;    /* links to it */
} linked_name;

typedef struct linked_names linked_names;

linked_names *linked_names_new(void);
void linked_names_add(linked_names *l, const char *name, size_t len);
/* Distinct names and links counted so far. */
int64_t linked_names_distinct(const linked_names *l);
int64_t linked_names_links(const linked_names *l);
/* The names by count (descending) then bytewise; *out is malloc'd (free it,
 * not the names), valid while l lives. Returns how many. */
int64_t linked_names_sorted(const linked_names *l, linked_name **out);
void linked_names_free(linked_names *l);

#endif
