/* report: the `report` artifact of evaluate (schemas/report.md) — MAP@K of one or more
 * evaluated runs, per list (AP@K), per class and overall, for K = 10, 20, 50, 100. The same
 * object is what `evaluate --json` prints. */
#ifndef PROBEXPAN_REPORT_H
#define PROBEXPAN_REPORT_H

#include <msgpack.h>

#include "artifacts/expansions.h"

#define REPORT_KIND "report"
#define REPORT_SCHEMA 1
/* A writer of a report artifact at path (the caller adds params, inputs and the payload). */
artifact_writer *report_create(const char *path);
#define REPORT_NK 4
extern const int report_ks[REPORT_NK];   /* 10, 20, 50, 100 */

/* One evaluated run: an expansions or ranked artifact against a dataset's gt/. */
typedef struct {
    char *label, *path;           /* the run's label and its input artifact */
    char *gt_path, *dataset;      /* the dataset whose gt/ was used, and its short name */
    expansion_set es;             /* the evaluated lists */
    double (*ap)[REPORT_NK];      /* AP@K of each list */
    int nclass;                   /* classes in first-appearance order */
    char **class_name;            /* pointers into es */
    int *class_queries;
    double (*class_map)[REPORT_NK];
    double overall[REPORT_NK];    /* MAP@K over all lists */
} report_run;

/* The report object {ks, runs: [...]} of n runs. */
void report_pack(msgpack_packer *pk, const report_run *runs, int n);
/* Frees what a run owns (its strings, lists and tables). */
void report_run_free(report_run *r);

#endif
