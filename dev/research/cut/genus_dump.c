/* genus_dump INDEX RANKED: exploration for docs/cut.md. Per listed entity of a `ranked` artifact,
 * its genus agreement with the heads its seeds share (common/model/genus_agreement.h: the share
 * of its definitions' heads among the set's; -1 when no definition has it as subject, -2 when
 * the seeds share no head). TSV: class, query (0-based), rank, eid, agreement.
 * Build: cc -O2 -Icommon dev/research/cut/genus_dump.c build/libprobexpan.a $(libs of the Makefile). */
#include <stdio.h>

#include "artifacts/expansions.h"
#include "artifacts/index.h"
#include "model/genus_agreement.h"

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: genus_dump INDEX RANKED\n");
        return 2;
    }
    corpus_index x;
    index_read(&x, argv[1]);
    genus_heads h;
    genus_heads_build(&h, &x.counts);
    expansion_set s;
    expansion_set_read(&s, argv[2]);
    printf("class\tquery\trank\teid\tagreement\n");
    for (int q = 0; q < s.n; q++) {
        const expansion_record *r = &s.r[q];
        int64_t set[64];
        int nset = 0;
        for (int i = 0; i < r->nseeds && nset < 64; i++) {
            int64_t row = intmap_get(&x.row_of_eid, r->seeds[i]);
            if (row >= 0) set[nset++] = row;
        }
        set_head heads[GENUS_AGREEMENT_HEADS];
        int n = genus_heads_of_set(&h, set, nset, NULL, 0, heads, GENUS_AGREEMENT_HEADS), k = 0;
        while (k < n && heads[k].set_holding == heads[0].set_holding) k++;
        for (int i = 0; i < r->n; i++) {
            int64_t row = intmap_get(&x.row_of_eid, r->eids[i]);
            double a = k == 0 ? -2 : row < 0 ? -1 : genus_agreement_of(&h, row, heads, k);
            printf("%s\t%d\t%d\t%lld\t%.4f\n", r->class_name, r->query, i + 1, (long long)r->eids[i], a);
        }
    }
    genus_heads_free(&h);
    expansion_set_free(&s);
    index_free(&x);
    return 0;
}
