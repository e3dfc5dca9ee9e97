/* report: pack the `report` artifact's object (see report.h, schemas/report.md). */
#include "artifacts/report.h"

#include <stdlib.h>

artifact_writer *report_create(const char *path) { return artifact_create(path, REPORT_KIND, REPORT_SCHEMA); }

const int report_ks[REPORT_NK] = {10, 20, 50, 100};

void report_pack(msgpack_packer *pk, const report_run *rr, int nr) {
    msgpack_pack_map(pk, 2);
    mp_kv_int_array(pk, "ks", report_ks, REPORT_NK);
    mp_str(pk, "runs");
    msgpack_pack_array(pk, (size_t)nr);
    for (int i = 0; i < nr; i++) {
        const report_run *r = &rr[i];
        msgpack_pack_map(pk, 8);
        mp_kv_str(pk, "label", r->label);
        mp_kv_str(pk, "input", r->path);
        mp_kv_str(pk, "kind", r->es.kind);
        mp_kv_str(pk, "gt", r->gt_path);
        mp_kv_str(pk, "dataset", r->dataset);
        mp_str(pk, "queries");
        msgpack_pack_array(pk, (size_t)r->es.n);
        for (int q = 0; q < r->es.n; q++) {
            msgpack_pack_map(pk, 3);
            mp_kv_str(pk, "class", r->es.r[q].class_name);
            mp_kv_int(pk, "query", r->es.r[q].query);
            mp_kv_double_array(pk, "ap", r->ap[q], REPORT_NK);
        }
        mp_str(pk, "classes");
        msgpack_pack_array(pk, (size_t)r->nclass);
        for (int c = 0; c < r->nclass; c++) {
            msgpack_pack_map(pk, 3);
            mp_kv_str(pk, "class", r->class_name[c]);
            mp_kv_int(pk, "queries", r->class_queries[c]);
            mp_kv_double_array(pk, "map", r->class_map[c], REPORT_NK);
        }
        mp_str(pk, "overall");
        msgpack_pack_map(pk, 2);
        mp_kv_int(pk, "queries", r->es.n);
        mp_kv_double_array(pk, "map", r->overall, REPORT_NK);
    }
}

void report_run_free(report_run *r) {
    expansion_set_free(&r->es);
    free(r->label);
    free(r->path);
    free(r->gt_path);
    free(r->dataset);
    free(r->ap);
    free(r->class_name);
    free(r->class_queries);
    free(r->class_map);
}
