/* scores: write the `scores` artifact (see scores.h, schemas/scores.md). */
#include "artifacts/scores.h"

#include <math.h>

#include "format/artifact.h"

artifact_writer *scores_create(const char *path) { return artifact_create(path, SCORES_KIND, SCORES_SCHEMA); }

void scores_pack(artifact_writer *w, const char **classes, int nc, const scores_model *m, int k, int top) {
    msgpack_packer *pk = artifact_payload(w);
    msgpack_pack_map(pk, 3);
    mp_kv_int(pk, "top", top);
    mp_str(pk, "classes");
    msgpack_pack_array(pk, (size_t)nc);
    for (int c = 0; c < nc; c++) mp_str(pk, classes[c]);
    mp_str(pk, "models");
    msgpack_pack_array(pk, (size_t)k);
    for (int i = 0; i < k; i++) {
        msgpack_pack_map(pk, 5);
        mp_kv_str(pk, "path", m[i].path);
        mp_str(pk, "class_scores");
        msgpack_pack_array(pk, (size_t)nc);
        for (int c = 0; c < nc; c++) {
            if (isnan(m[i].class_score[c])) msgpack_pack_nil(pk);
            else msgpack_pack_double(pk, m[i].class_score[c]);
        }
        mp_kv_double(pk, "score", m[i].score);
        mp_kv_int(pk, "rank", m[i].rank);
        mp_str(pk, "selected");
        if (m[i].selected) msgpack_pack_true(pk);
        else msgpack_pack_false(pk);
    }
}
