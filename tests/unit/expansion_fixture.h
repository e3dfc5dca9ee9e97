/* expansion_fixture.h: the 6-entity mean_prob matrix shared by test_windowsearch
 * and test_rerank. Seeds 0 and 1 favour 2 (0.20) over 3 (0.15) as a candidate, but
 * 2 predicts itself and 4, 5 while 3 predicts the seeds; 5 is 4 made asymmetric. */
#ifndef PROBEXPAN_EXPANSION_FIXTURE_H
#define PROBEXPAN_EXPANSION_FIXTURE_H

#include "format/artifact.h"

static float M6[6][6] = {
    {0.30f, 0.25f, 0.20f, 0.15f, 0.05f, 0.05f},
    {0.25f, 0.30f, 0.20f, 0.15f, 0.05f, 0.05f},
    {0.02f, 0.02f, 0.50f, 0.02f, 0.22f, 0.22f},
    {0.25f, 0.25f, 0.05f, 0.35f, 0.05f, 0.05f},
    {0.05f, 0.05f, 0.30f, 0.05f, 0.50f, 0.05f},
    {0.08f, 0.04f, 0.30f, 0.04f, 0.04f, 0.50f},
};
static const row_matrix P6 = {.rows = 6, .cols = 6, .stride = 6, .data = &M6[0][0]};

#endif
