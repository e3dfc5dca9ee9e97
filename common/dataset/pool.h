/* pool: pooled relevance judgements of a dataset's classes, as TREC pools them — the
 * names a person judged among the top-ranked entities of some runs, kept beside the
 * dataset so that a later run's new names are judged once and counted by everyone.
 *
 * A pool is a folder of <class>.tsv files (dev/bench/quality/pool/<dataset>/), one
 * judgement a line:
 *
 *   name<TAB>1|0<TAB>reason
 *
 * name: an entity name, alias or eid of the dataset (resolved as entitynames.h does, against
 * entity2id.txt and aliases.txt); 1 = a member of the class, 0 = judged not a member; the
 * reason is free text (may be omitted). Blank lines and '#' comments are skipped; fields are
 * trimmed (the names-file rules, names_file.h). Files not ending in ".tsv" are ignored.
 * Bad input dies with exit 3 naming the file and line: a name that resolves to no entity (or
 * to several), a label other than 0 or 1, one entity judged both 1 and 0 in one file. A
 * folder without any .tsv file is bad input too (a wrong path would otherwise score
 * silently without the pool). An entity judged twice alike is kept once. */
#ifndef PROBEXPAN_POOL_H
#define PROBEXPAN_POOL_H

#include <stdint.h>

typedef struct {
    char *class_name;  /* the file's name without ".tsv" */
    char *path;        /* the file, for messages */
    int64_t n;
    int64_t *eid;      /* the judged entities, each once, in file order */
    int *member;       /* 1 = member, 0 = judged not a member */
} pool_class;

typedef struct {
    int n;
    pool_class *c;     /* sorted by class name */
} pool_set;

/* Reads the pool folder `dir`, resolving names against the dataset `dataset_path`
 * (a folder or archive with entity2id.txt and, optionally, aliases.txt). */
void pool_read(const char *dir, const char *dataset_path, pool_set *p);
void pool_free(pool_set *p);

#endif
