/* evaluate: MAP@K of expanded or re-ranked lists against a dataset's gt/
 * (docs/design.md §3 Evaluation). Seeds are removed from each list; AP@K per query
 * for K = 10, 20, 50, 100; MAP per class and overall (mean over queries). One
 * input prints a per-class table; several inputs print one side-by-side table
 * (rows: runs, columns: MAP@10/20/50 per dataset) so ablations compare in one
 * command. A `report` artifact (--out) keeps every number; --json prints it.
 * --ap-denominator non-seeds leaves the seeds out of AP's |gt| (common/method/apk.h).
 * --pool DIR adds a folder of pooled judgements (common/dataset/pool.h): members judged 1
 * join their class's ground truth, and the tables gain P@10, P@20 and how many of each
 * list's top 20 nobody judged (neither in gt nor in the pool). --cut-fraction F prints instead
 * how good each ranked list is above its cut (common/method/confidence_cut.h, on the list's
 * kl_score): the entities above it, their precision and the recall of the members the whole
 * list reaches (make bench-cut, docs/cut.md), and the same figures for each list's oracle cut:
 * the best precision any single cut of that list reaches at recall >= 0.5. */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "method/apk.h"
#include "method/confidence_cut.h"
#include "catalog/catalog.h"
#include "base/cli.h"
#include "dataset/dataset.h"
#include "dataset/entitynames.h"
#include "dataset/judged.h"
#include "dataset/pool.h"
#include "base/error.h"
#include "artifacts/expansions.h"
#include "artifacts/report.h"
#include "base/log.h"
#include "format/mpjson.h"


/* --show N --show-top M: lists of N queries (the first query of evenly spaced classes). */
static int show_queries, show_top = 15;

/* Is query q one of the --show queries of this set? */
static int is_shown(const expansion_set *es, int q) {
    if (show_queries <= 0 || es->r[q].query != 0) return 0;
    int nfirst = 0, idx = -1;
    for (int i = 0; i < es->n; i++)
        if (es->r[i].query == 0) {
            if (i == q) idx = nfirst;
            nfirst++;
        }
    int n = show_queries < nfirst ? show_queries : nfirst;
    for (int k = 0; k < n; k++)
        if ((int)((long)k * nfirst / n) == idx) return 1;
    return 0;
}

static void show_list(FILE *f, const expansion_record *r, const int64_t *list, int n, const intmap *members) {
    fprintf(f, "%s, query %d: seeds", r->class_name, r->query + 1);
    for (int s = 0; s < r->nseeds; s++) fprintf(f, "%s %s", s ? "," : "", r->seed_names[s]);
    fprintf(f, "\n");
    for (int i = 0; i < n && i < show_top; i++) {
        const char *name = "?";
        for (int j = 0; j < r->n; j++)
            if (r->eids[j] == list[i]) { name = r->names[j]; break; }
        fprintf(f, "  %3d %c %s\n", i + 1, intmap_get(members, list[i]) >= 0 ? '+' : ' ', name);
    }
}

/* "runs/wiki.tar.gz" -> "wiki"; "data/mini-ese/" -> "mini-ese". */
static char *dataset_label(const char *path) {
    char *copy = xstrdup(path);
    size_t n = strlen(copy);
    while (n > 1 && copy[n - 1] == '/') copy[--n] = 0;
    char *base = xstrdup(basename(copy));
    free(copy);
    static const char *exts[] = {".tar.gz", ".tgz", ".tar.xz", ".tar.bz2", ".tar", ".zip"};
    for (size_t i = 0; i < sizeof exts / sizeof *exts; i++) {
        size_t b = strlen(base), e = strlen(exts[i]);
        if (b > e && !strcmp(base + b - e, exts[i])) {
            base[b - e] = 0;
            break;
        }
    }
    return base;
}

/* --judged FILE: a person's judgements as the ground truth of every class. */
static const char *judged_path;

/* The judged members as eids: an item of digits is an eid; a name or alias
 * resolves among the entities the run lists (seeds and results); a name it
 * does not list still counts as a member (never found: recall is lower). */
static void judged_gt(const expansion_set *es, gt_set *gs) {
    judged_list j;
    judged_read(judged_path, &j);
    entity_table t = {0, NULL, NULL};
    intmap row_of_eid;
    intmap_init(&row_of_eid);
    for (int q = 0; q < es->n; q++) {
        const expansion_record *r = &es->r[q];
        for (int i = 0; i < r->nseeds + r->n; i++) {
            int64_t eid = i < r->nseeds ? r->seeds[i] : r->eids[i - r->nseeds];
            if (intmap_put(&row_of_eid, eid, t.n) >= 0) continue;
            t.eid = xrealloc(t.eid, sizeof *t.eid * (size_t)(t.n + 1));
            t.name = xrealloc(t.name, sizeof *t.name * (size_t)(t.n + 1));
            t.eid[t.n] = eid;
            t.name[t.n++] = i < r->nseeds ? r->seed_names[i] : r->names[i - r->nseeds];
        }
    }
    name_index x;
    name_index_init(&x, &t, &row_of_eid);
    gt_class members = {NULL, 0, xmalloc(sizeof(int64_t) * (size_t)(j.n + 1))};
    int64_t unlisted = 0;
    for (int64_t i = 0; i < j.n; i++) {
        if (j.label[i] < 1) continue;
        const char *it = j.item[i];
        int64_t eid;
        char msg[1200];
        if (strspn(it, "0123456789") == strlen(it) && strlen(it) <= 18) eid = strtoll(it, NULL, 10);
        else {
            int64_t row = name_lookup(&x, it, msg, sizeof msg);
            eid = row >= 0 ? t.eid[row] : -1 - i;
            unlisted += row < 0;
        }
        members.members[members.n++] = eid;
    }
    if (unlisted) log_info("%s: %lld judged members are not among the listed entities", judged_path, (long long)unlisted);
    memset(gs, 0, sizeof *gs);
    for (int q = 0; q < es->n; q++) {
        int seen = 0;
        for (int c = 0; c < gs->n && !seen; c++) seen = !strcmp(gs->c[c].class_name, es->r[q].class_name);
        if (seen) continue;
        gs->c = xrealloc(gs->c, sizeof *gs->c * (size_t)(gs->n + 1));
        gt_class *g = &gs->c[gs->n++];
        g->class_name = xstrdup(es->r[q].class_name);
        g->n = members.n;
        g->members = xmalloc(sizeof(int64_t) * (size_t)(members.n + 1));
        memcpy(g->members, members.members, sizeof(int64_t) * (size_t)members.n);
    }
    free(members.members);
    name_index_free(&x);
    intmap_free(&row_of_eid);
    free(t.eid);
    free(t.name);
    judged_free(&j);
}

/* --ap-denominator: "all" (the official protocol: every member, seeds too) or "non-seeds". */
static const char *ap_denominator = "all";
/* --pool DIR: pooled judgements of the dataset's classes. */
static const char *pool_dir;

/* What --pool adds per list: P@10, P@20 and the unjudged names among the first 20. */
enum { POOL_P10, POOL_P20, POOL_UNJUDGED20, POOL_NSTAT };
static const char *const pool_stat_names[POOL_NSTAT] = {"P@10", "P@20", "unjudged@20"};
#define UNJUDGED_TOP 20

/* The pool's judgements win over the class's ground truth: members judged 1 join it, names
 * judged 0 leave it. Fills judged[c] with every entity the pool judged for class c. */
static void add_pool(const report_run *rr, gt_set *gs, intmap *judged) {
    pool_set p;
    pool_read(pool_dir, rr->gt_path, &p);
    int64_t added = 0, removed = 0;
    for (int i = 0; i < p.n; i++) {
        const pool_class *pc = &p.c[i];
        int c = 0;
        while (c < gs->n && strcmp(gs->c[c].class_name, pc->class_name)) c++;
        if (c == gs->n) die_input(pc->path, NULL, "\"%s\" is not a class of %s (no gt/%s.txt)", pc->class_name, rr->gt_path, pc->class_name);
        gt_class *g = &gs->c[c];
        for (int64_t j = 0; j < pc->n; j++) intmap_put(&judged[c], pc->eid[j], pc->member[j]);
        int64_t kept = 0;
        for (int64_t m = 0; m < g->n; m++) {
            int64_t label = intmap_get(&judged[c], g->members[m]);
            if (label == 0) removed++;
            else g->members[kept++] = g->members[m];
            if (label == 1) intmap_put(&judged[c], g->members[m], 2); /* 2: judged 1 and in gt already */
        }
        g->n = kept;
        g->members = xrealloc(g->members, sizeof(int64_t) * (size_t)(g->n + pc->n + 1));
        for (int64_t j = 0; j < pc->n; j++)
            if (intmap_get(&judged[c], pc->eid[j]) == 1) {
                g->members[g->n++] = pc->eid[j];
                added++;
            }
        if (!g->n) die_input(pc->path, NULL, "the pool leaves class \"%s\" without a member", pc->class_name);
    }
    log_info("%s: %lld judged members added to the gt, %lld gt members judged not members", pool_dir, (long long)added, (long long)removed);
    pool_free(&p);
}

/* --cut-fraction F (< 0: not asked): per list, the entities above the cut, the members among
 * them and the members in the whole list (seeds left out); and the same for the list's oracle cut
 * (confidence_cut_oracle at the goal's recall: the best precision any cut of that list reaches). */
static double cut_fraction = -1;
typedef struct {
    int above, hits, reach;
    int oracle_above, oracle_hits;
} cut_stat;
#define CUT_GOAL_PRECISION 0.9
#define CUT_GOAL_RECALL 0.5

static cut_stat list_cut(const expansion_record *r, const int64_t *list, int n, const intmap *members) {
    double *curve = xmalloc(sizeof(double) * (size_t)(n + 1));
    for (int i = 0, k = 0; i < r->n; i++) {
        int seed = 0;
        for (int s = 0; s < r->nseeds && !seed; s++) seed = r->seeds[s] == r->eids[i];
        if (!seed) curve[k++] = r->kl_score[i];
    }
    confidence_cut c;
    confidence_cut_find(&c, curve, n, cut_fraction);
    free(curve);
    unsigned char *member = xmalloc((size_t)n + 1);
    for (int i = 0; i < n; i++) member[i] = intmap_get(members, list[i]) >= 0;
    cut_stat s = {c.above, 0, 0, confidence_cut_oracle(member, n, CUT_GOAL_RECALL), 0};
    for (int i = 0; i < n; i++)
        if (member[i]) {
            s.reach++;
            s.hits += i < s.above;
            s.oracle_hits += i < s.oracle_above;
        }
    free(member);
    return s;
}

/* Precision above a cut of `above` entities holding `hits` members (1 for an empty cut: it claims
 * nothing) and recall of the list's members. */
static double cut_precision(int above, int hits) { return above ? (double)hits / above : 1; }
static double cut_recall(const cut_stat *s, int hits) { return s->reach ? (double)hits / s->reach : 1; }
static int cut_meets_goal(double precision, double recall) {
    return precision >= CUT_GOAL_PRECISION && recall >= CUT_GOAL_RECALL;
}

/* The --cut-fraction table: a row per run and class (and overall), means over the lists; the
 * oracle columns are the same figures for each list's oracle cut. */
static void print_cut(const report_run *rr, int nr, cut_stat *const *cuts, int tsv) {
    const char *hfmt = tsv ? "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n"
                           : "%-16.16s %-18.18s %-22.22s %7s %7s %9s %7s %9s %9s %7s %9s\n";
    printf(hfmt, "run", "dataset", "class", "queries", "above", "precision", "recall", "goal_met", "oracle_p", "oracle_r", "oracle_met");
    for (int i = 0; i < nr; i++)
        for (int c = 0; c <= rr[i].nclass; c++) {
            const char *cls = c < rr[i].nclass ? rr[i].class_name[c] : NULL;
            double above = 0, p = 0, rc = 0, op = 0, orc = 0;
            int n = 0, met = 0, omet = 0;
            for (int q = 0; q < rr[i].es.n; q++) {
                if (cls && strcmp(rr[i].es.r[q].class_name, cls)) continue;
                const cut_stat *s = &cuts[i][q];
                double sp = cut_precision(s->above, s->hits), sr = cut_recall(s, s->hits);
                double sop = cut_precision(s->oracle_above, s->oracle_hits), sor = cut_recall(s, s->oracle_hits);
                above += s->above;
                p += sp;
                rc += sr;
                met += cut_meets_goal(sp, sr);
                op += sop;
                orc += sor;
                omet += cut_meets_goal(sop, sor);
                n++;
            }
            if (!n) continue;
            printf(tsv ? "%s\t%s\t%s\t%d\t%.2f\t%.4f\t%.4f\t%d\t%.4f\t%.4f\t%d\n"
                       : "%-16.16s %-18.18s %-22.22s %7d %7.1f %9.4f %7.4f %9d %9.4f %7.4f %9d\n",
                   rr[i].label, rr[i].dataset, cls ? cls : "overall", n, above / n, p / n, rc / n, met, op / n, orc / n, omet);
        }
}

/* With --pool, *pool_stats gets POOL_NSTAT numbers per list (malloc'd). */
static void evaluate_run(report_run *rr, char **shown_text, size_t *shown_len, double (**pool_stats)[POOL_NSTAT],
                         cut_stat **cuts) {
    gt_set gs;
    if (judged_path) judged_gt(&rr->es, &gs);
    else dataset_read_gt(rr->gt_path, &gs);
    intmap *judged = xcalloc((size_t)gs.n + 1, sizeof *judged);
    for (int c = 0; c < gs.n; c++) intmap_init(&judged[c]);
    if (pool_dir) add_pool(rr, &gs, judged);
    intmap *members = xcalloc((size_t)gs.n, sizeof *members);
    for (int c = 0; c < gs.n; c++) {
        intmap_init(&members[c]);
        for (int64_t i = 0; i < gs.c[c].n; i++) intmap_put(&members[c], gs.c[c].members[i], i);
    }
    int non_seeds = !strcmp(ap_denominator, "non-seeds");
    double (*stats)[POOL_NSTAT] = pool_dir ? xcalloc((size_t)rr->es.n + 1, sizeof *stats) : NULL;
    *cuts = cut_fraction >= 0 ? xcalloc((size_t)rr->es.n + 1, sizeof **cuts) : NULL;
    expansion_set *es = &rr->es;
    rr->ap = xcalloc((size_t)es->n + 1, sizeof *rr->ap);
    rr->class_name = xmalloc(sizeof(char *) * (size_t)(es->n + 1));
    rr->class_queries = xcalloc((size_t)es->n + 1, sizeof(int));
    rr->class_map = xcalloc((size_t)es->n + 1, sizeof *rr->class_map);
    int64_t *list = NULL;
    FILE *shown = show_queries > 0 ? open_memstream(shown_text, shown_len) : NULL;
    for (int q = 0; q < es->n; q++) {
        const expansion_record *r = &es->r[q];
        int c = 0;
        while (c < gs.n && strcmp(gs.c[c].class_name, r->class_name)) c++;
        if (c == gs.n)
            die_input(rr->gt_path, "gt/", "no gt/%s.txt for class \"%s\" of %s", r->class_name, r->class_name, rr->path);
        list = xrealloc(list, sizeof(int64_t) * (size_t)(r->n + 1));
        int n = 0;
        for (int i = 0; i < r->n; i++) {
            int seed = 0;
            for (int s = 0; s < r->nseeds && !seed; s++) seed = r->seeds[s] == r->eids[i];
            if (!seed) list[n++] = r->eids[i];
        }
        int64_t ngt = gs.c[c].n - (non_seeds ? seeds_in_gt(r->seeds, r->nseeds, &members[c]) : 0);
        if (ngt < 1)
            die_input(rr->gt_path, "gt/", "every member of class \"%s\" is a seed of its query %d: nothing is left to find (--ap-denominator non-seeds)",
                      r->class_name, r->query + 1);
        for (int k = 0; k < REPORT_NK; k++) rr->ap[q][k] = ap_at_k(list, n, &members[c], ngt, report_ks[k]);
        if (stats) {
            stats[q][POOL_P10] = precision_at_k(list, n, &members[c], 10);
            stats[q][POOL_P20] = precision_at_k(list, n, &members[c], 20);
            for (int i = 0; i < n && i < UNJUDGED_TOP; i++)
                stats[q][POOL_UNJUDGED20] += intmap_get(&members[c], list[i]) < 0 && intmap_get(&judged[c], list[i]) < 0;
        }
        if (*cuts) {
            if (!r->kl_score) die_input(rr->path, NULL, "--cut-fraction: a `%s` artifact has no kl_score; give a ranked one (query --out, rerank)", es->kind);
            (*cuts)[q] = list_cut(r, list, n, &members[c]);
        }
        if (shown && is_shown(es, q)) show_list(shown, r, list, n, &members[c]);
        int rc = 0;
        while (rc < rr->nclass && strcmp(rr->class_name[rc], r->class_name)) rc++;
        if (rc == rr->nclass) rr->class_name[rr->nclass++] = r->class_name;
        rr->class_queries[rc]++;
        for (int k = 0; k < REPORT_NK; k++) {
            rr->class_map[rc][k] += rr->ap[q][k];
            rr->overall[k] += rr->ap[q][k] / es->n;
        }
    }
    for (int c = 0; c < rr->nclass; c++)
        for (int k = 0; k < REPORT_NK; k++) rr->class_map[c][k] /= rr->class_queries[c];
    if (shown) fclose(shown);
    free(list);
    for (int c = 0; c < gs.n; c++) {
        intmap_free(&members[c]);
        intmap_free(&judged[c]);
    }
    free(members);
    free(judged);
    gt_set_free(&gs);
    *pool_stats = stats;
}

/* Mean of the --pool numbers over the lists of class `cls` (NULL: every list). */
static void pool_means(const report_run *r, const double (*stats)[POOL_NSTAT], const char *cls, double mean[POOL_NSTAT]) {
    int n = 0;
    memset(mean, 0, sizeof(double) * POOL_NSTAT);
    for (int q = 0; q < r->es.n; q++) {
        if (cls && strcmp(r->es.r[q].class_name, cls)) continue;
        for (int s = 0; s < POOL_NSTAT; s++) mean[s] += stats[q][s];
        n++;
    }
    for (int s = 0; s < POOL_NSTAT; s++) mean[s] /= n ? n : 1;
}

/* One class's (or, cls NULL, the overall) --pool columns. */
static void print_pool_columns(const report_run *r, const double (*stats)[POOL_NSTAT], const char *cls, const char *fmt) {
    double mean[POOL_NSTAT];
    pool_means(r, stats, cls, mean);
    for (int s = 0; s < POOL_NSTAT; s++) printf(fmt, mean[s]);
}

static void print_single(const report_run *r, const double (*stats)[POOL_NSTAT]) {
    printf("%-24s %7s %8s %8s %8s %8s", "class", "queries", "MAP@10", "MAP@20", "MAP@50", "MAP@100");
    for (int s = 0; s < POOL_NSTAT && stats; s++) printf(" %11s", pool_stat_names[s]);
    putchar('\n');
    for (int c = 0; c <= r->nclass; c++) {
        const double *m = c < r->nclass ? r->class_map[c] : r->overall;
        printf("%-24.24s %7d", c < r->nclass ? r->class_name[c] : "overall", c < r->nclass ? r->class_queries[c] : r->es.n);
        for (int k = 0; k < REPORT_NK; k++) printf(" %8.4f", m[k]);
        if (stats) print_pool_columns(r, stats, c < r->nclass ? r->class_name[c] : NULL, " %11.4f");
        putchar('\n');
    }
}

/* --format tsv: one row per run and class (and "overall"), every MAP@K. */
static void print_tsv(const report_run *rr, int nr, double (*const *stats)[POOL_NSTAT]) {
    printf("run\tdataset\tclass\tqueries");
    for (int k = 0; k < REPORT_NK; k++) printf("\tMAP@%d", report_ks[k]);
    for (int s = 0; s < POOL_NSTAT && pool_dir; s++) printf("\t%s", pool_stat_names[s]);
    putchar('\n');
    for (int i = 0; i < nr; i++) {
        const report_run *r = &rr[i];
        for (int c = 0; c <= r->nclass; c++) {
            const double *m = c < r->nclass ? r->class_map[c] : r->overall;
            printf("%s\t%s\t%s\t%d", r->label, r->dataset, c < r->nclass ? r->class_name[c] : "overall",
                   c < r->nclass ? r->class_queries[c] : r->es.n);
            for (int k = 0; k < REPORT_NK; k++) printf("\t%.6f", m[k]);
            if (stats[i]) print_pool_columns(r, stats[i], c < r->nclass ? r->class_name[c] : NULL, "\t%.6f");
            putchar('\n');
        }
    }
}

/* Rows: distinct labels; column groups: distinct datasets; MAP@10/20/50 each. */
static void print_side_by_side(const report_run *rr, int nr) {
    const char **labels = xmalloc(sizeof(char *) * (size_t)nr), **sets = xmalloc(sizeof(char *) * (size_t)nr);
    int nl = 0, ns = 0;
    for (int i = 0; i < nr; i++) {
        int a = 0, b = 0;
        while (a < nl && strcmp(labels[a], rr[i].label)) a++;
        if (a == nl) labels[nl++] = rr[i].label;
        while (b < ns && strcmp(sets[b], rr[i].dataset)) b++;
        if (b == ns) sets[ns++] = rr[i].dataset;
    }
    printf("%-24s", "");
    for (int s = 0; s < ns; s++) printf(" | %-26.26s", sets[s]);
    printf("\n%-24s", "run");
    for (int s = 0; s < ns; s++) printf(" | %8s %8s %8s", "MAP@10", "MAP@20", "MAP@50");
    putchar('\n');
    for (int l = 0; l < nl; l++) {
        printf("%-24.24s", labels[l]);
        for (int s = 0; s < ns; s++) {
            const report_run *hit = NULL;
            for (int i = 0; i < nr && !hit; i++)
                if (!strcmp(rr[i].label, labels[l]) && !strcmp(rr[i].dataset, sets[s])) hit = &rr[i];
            if (hit) printf(" | %8.4f %8.4f %8.4f", hit->overall[0], hit->overall[1], hit->overall[2]);
            else printf(" | %8s %8s %8s", "-", "-", "-");
        }
        putchar('\n');
    }
    free(labels);
    free(sets);
}

/* A run's path and label from its argument: LABEL=FILE, or FILE labelled by its name without
 * ".mp" (a file whose name holds '=' is a FILE). */
static void run_label(report_run *r, const char *arg) {
    const char *sep = strchr(arg, '=');
    struct stat st;
    int labelled = sep && stat(arg, &st) != 0;
    r->path = xstrdup(labelled ? sep + 1 : arg);
    if (labelled) r->label = xasprintf("%.*s", (int)(sep - arg), arg);
    else {
        size_t n = strlen(arg);
        r->label = n > 3 && !strcmp(arg + n - 3, ".mp") ? xasprintf("%.*s", (int)(n - 3), arg) : xstrdup(arg);
    }
}

/* The report artifact: the runs and their ground truths as inputs, the report object packed in sb. */
static void write_report(const char *out, const report_run *rr, int nr, const msgpack_sbuffer *sb) {
    artifact_writer *w = report_create(out);
    artifact_param_options(w);
    for (int i = 0; i < nr; i++) artifact_add_input(w, rr[i].path);
    for (int i = 0; i < nr; i++) {
        int seen = 0;
        for (int j = 0; j < i && !seen; j++) seen = !strcmp(rr[j].gt_path, rr[i].gt_path);
        if (!seen) artifact_add_input(w, rr[i].gt_path);
    }
    msgpack_packer *pk = artifact_payload(w);
    pk->callback(pk->data, sb->data, sb->size); /* the report object, already packed */
    artifact_commit(w);
}

int main(int argc, char **argv) {
    const char *gt = NULL, *out = NULL;
    int json = 0, per_class = 0;
    const char *format = "table";
    const cli_option opts[] = {
        {"gt", OPT_INPUT, &gt, "DATASET", "dataset folder/archive with gt/*.txt (default: the dataset each input's queries came from)", 0, 0},
        {"out", OPT_OUTPUT, &out, "FILE", "write a report artifact with every number", 0, 0},
        {"json", OPT_FLAG, &json, NULL, "print the report as JSON on stdout instead of the tables (= --format json)", 0, 0},
        {"format", OPT_STRING, &format, "table|tsv|json", "stdout: tables for a person, tsv (a row per run and class, every MAP@K) or the report as JSON", 0, 0},
        {"judged", OPT_INPUT, &judged_path, "FILE", "score against your own judgements instead of gt/: ITEM<TAB>LABEL per line, ITEM an eid or a name, LABEL >= 1 = member (every class of the input)", 0, 0},
        {"ap-denominator", OPT_STRING, &ap_denominator, "all|non-seeds",
         "AP@K = (sum of P@i over the hits i <= K) / min(|G|, K), the seeds removed from the list; all: G = every member (the official protocol: a class of 7 with 3 seeds scores at most 4/7 at K = 10); non-seeds: G = the members that are not seeds of the query", 0, 0},
        {"pool", OPT_INPUT, &pool_dir, "DIR",
         "pooled judgements: DIR/<class>.tsv, lines name<TAB>1|0<TAB>reason; names judged 1 join the class's gt, names judged 0 leave it; adds P@10, P@20 and unjudged@20 (top-20 names neither in gt nor judged) to the per-run tables and --format tsv", 0, 0},
        {"per-class", OPT_FLAG, &per_class, NULL, "with several inputs: also each run's per-class table", 0, 0},
        {"show", OPT_INT, &show_queries, "N", "also print the lists of N queries (first query of evenly spaced classes), '+' = in the ground truth", 0, 100000},
        {"show-top", OPT_INT, &show_top, "M", "entities printed per list with --show", 1, 100000},
        CONFIDENCE_CUT_CLI_OPTION(cut_fraction, "; when given (the default -1 is: not given), prints instead, per class, the entities above the cut, their precision, the recall of the members the list reaches and the lists with precision >= 0.9 and recall >= 0.5, then the same for the best cut of each list chosen knowing the answers (oracle_*: the highest precision at recall >= 0.5) (ranked inputs; table or tsv)"),
        {NULL, 0, NULL, NULL, NULL, 0, 0},
    };
    const cli_spec spec = {"evaluate", "MAP@10/20/50/100 of ranked entity lists against the ground truth",
                           "[options] [LABEL=]RANKED...",
                           "evaluate --gt data.tar.gz noclen=runs/noclen/ranked.mp full=runs/full/ranked.mp",
                           "rerank, expand", opts, CLI_ANY_ARGS};
    int first = cli_parse(&spec, argc, argv);
    int nr = argc - first;
    int tsv = !strcmp(format, "tsv");
    if (!strcmp(format, "json")) json = 1;
    else if (!tsv && strcmp(format, "table")) die_usage("--format: expected table, tsv or json, found '%s'", format);
    if (nr < 1) die_usage("expected one or more ranked or expansions artifacts (try --help)");
    if (strcmp(ap_denominator, "all") && strcmp(ap_denominator, "non-seeds"))
        die_usage("--ap-denominator: expected all or non-seeds, found '%s'", ap_denominator);
    if (cut_fraction >= 0 && json) die_usage("--cut-fraction prints a table or tsv, not json");
    if (pool_dir && judged_path) die_usage("--pool adds to a dataset's gt/: it does not go with --judged");
    const char *eq = out ? NULL : strchr(argv[first], '=');
    catalog_begin_beside(out ? out : eq ? eq + 1 : argv[first]);

    report_run *rr = xcalloc((size_t)nr, sizeof *rr);
    char **shown = xcalloc((size_t)nr, sizeof *shown);
    size_t *shown_len = xcalloc((size_t)nr, sizeof *shown_len);
    double (**pool_stats)[POOL_NSTAT] = xcalloc((size_t)nr, sizeof *pool_stats);
    cut_stat **cuts = xcalloc((size_t)nr, sizeof *cuts);
    for (int i = 0; i < nr; i++) {
        report_run *r = &rr[i];
        run_label(r, argv[first + i]);
        expansion_set_read(&r->es, r->path);
        r->gt_path = judged_path ? xstrdup(judged_path) : gt ? xstrdup(gt) : r->es.queries ? xstrdup(r->es.queries) : NULL;
        if (!r->gt_path)
            die_input(r->path, "header params", "records no dataset for its queries (made with --seeds?): give --gt DATASET");
        r->dataset = dataset_label(r->gt_path);
        for (int j = 0; j < i; j++)
            if (!strcmp(rr[j].label, r->label) && !strcmp(rr[j].dataset, r->dataset))
                die_usage("two inputs labelled '%s' on dataset '%s': name them LABEL=FILE", r->label, r->dataset);
        evaluate_run(r, &shown[i], &shown_len[i], &pool_stats[i], &cuts[i]);
    }

    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer spk;
    msgpack_packer_init(&spk, &sb, msgpack_sbuffer_write);
    report_pack(&spk, rr, nr);
    if (cut_fraction >= 0) {
        print_cut(rr, nr, cuts, tsv);
    } else if (json) {
        msgpack_unpacked u;
        msgpack_unpacked_init(&u);
        size_t off = 0;
        if (msgpack_unpack_next(&u, sb.data, sb.size, &off) != MSGPACK_UNPACK_SUCCESS) die("internal: report unpack");
        mpjson_print(stdout, &u.data);
        putchar('\n');
        msgpack_unpacked_destroy(&u);
    } else if (tsv) {
        print_tsv(rr, nr, pool_stats);
    } else if (nr == 1) {
        print_single(&rr[0], pool_stats[0]);
    } else {
        print_side_by_side(rr, nr);
        for (int i = 0; i < nr && per_class; i++) {
            printf("\n%s on %s:\n", rr[i].label, rr[i].dataset);
            print_single(&rr[i], pool_stats[i]);
        }
    }
    for (int i = 0; i < nr && !json && !tsv && cut_fraction < 0; i++)
        if (shown_len[i]) printf("\n%s%s:\n%s", nr > 1 ? rr[i].label : "top entities (+ = in the ground truth)",
                                 nr > 1 ? " (+ = in the ground truth)" : "", shown[i]);
    fflush(stdout);
    if (out) write_report(out, rr, nr, &sb);
    msgpack_sbuffer_destroy(&sb);
    if (nr == 1)
        for (int k = 0; k < REPORT_NK; k++) {
            char key[16];
            snprintf(key, sizeof key, "MAP@%d", report_ks[k]);
            catalog_metric(key, rr[0].overall[k]);
        }
    int queries = 0;
    for (int i = 0; i < nr; i++) {
        queries += rr[i].es.n;
        report_run_free(&rr[i]);
        free(shown[i]);
        free(pool_stats[i]);
        free(cuts[i]);
    }
    free(rr);
    free(shown);
    free(shown_len);
    free(pool_stats);
    free(cuts);
    log_done("%d runs, %d queries evaluated", nr, queries);
    return 0;
}
