/* annotate: plain text + an entity list -> a dataset folder (docs/design.md §2).
 *
 * Reads documents (files, folders, archives or stdin) in their format (--format; text_reader.h),
 * finds the entities' mentions in their sentences (dataset/text_annotation.h, the first pass,
 * spooling the sentences that have one; dataset/annotation.h the entities) or, with
 * --discover, first discovers the names in the text (discover.h), then drops the entities
 * with fewer than --min-mentions mentions and writes the dataset (annotation.h: entity2id.txt,
 * sentences.json, aliases.txt, names.tsv; dataset/class_lists.h: gt/ and query/ from member
 * lists) through dataset/dataset_write.h: a temporary folder beside --out, renamed into place
 * (or packed as .tar.gz) at the end, so a failure leaves no partial output; an existing --out
 * folder is replaced only when annotate wrote it or it is empty (or with --force). */
#include <stdio.h>
#include <stdlib.h>

#include "base/cli.h"
#include "base/error.h"
#include "base/log.h"
#include "catalog/catalog.h"
#include "dataset/annotation.h"
#include "dataset/class_lists.h"
#include "dataset/dataset_write.h"
#include "dataset/text_annotation.h"
#include "discover/discover.h"
#include "text/text_reader.h"

/* ---------------- options ---------------- */

static const char *opt_entities, *opt_out, *opt_classes, *opt_format = "auto";
static int opt_lines, opt_ids, opt_ignore_case, opt_min_mentions = 1, opt_max_words = 150;
static int opt_queries = 5, opt_seed_pool = 0, opt_discover, opt_force;
static long opt_max_line = 100000000;
static discover_params opt_dp;
static long opt_seed = 1;

/* ---------------- main ---------------- */

int main(int argc, char **argv) {
    const cli_option opts[] = {
        {"entities", OPT_INPUT, &opt_entities, "FILE",
         "entity list: name[<TAB>alias...] per line (schemas/names.md), or an entity2id.txt (or a dataset folder/archive holding one)", 0, 0},
        {"discover", OPT_FLAG, &opt_discover, NULL, "no entity list: discover the names in the text (capitalised names, acronyms, dictionary heads \"Name , Synonym : ...\") and write them to OUT/names.tsv", 0, 0},
        {"min-count", OPT_INT, &opt_dp.min_count, "N", "with --discover: occurrences a name needs", 1, 1e9},
        {"max-len", OPT_INT, &opt_dp.max_len, "N", "with --discover: longest name in tokens", 1, 32},
        {"min-pmi", OPT_DOUBLE, &opt_dp.min_pmi, "X", "with --discover: concordance (PMI of the weakest split) a multi-word name needs", -1e9, 1e9},
        {"no-heads", OPT_FLAG, &opt_dp.no_heads, NULL, "with --discover: do not read the names before a sentence's first \":\" as a headword and its synonyms (for text whose lines start \"Alice , Bob : ...\" for another reason)", 0, 0},
        {"min-alone", OPT_DOUBLE, &opt_dp.min_alone, "X", "with --discover: share of a name's occurrences that must be a whole run of capitalised words (not a part of a longer one: drops first names, titles, \"River\")", 0, 1},
        {"format", OPT_STRING, &opt_format, "NAME", "layout of the text: auto (detected per document, and logged), plain (wrapped prose: paragraphs between blank lines), lines (one document per line), dictd (headword at column 0, definition indented below: read as \"Headword : definition\"), markdown, html; docs/input-formats.md", 0, 0},
        {"max-line", OPT_LONG, &opt_max_line, "BYTES", "longest line accepted (any format); a longer one is bad input", 1, 1e15},
        {"out", OPT_STRING, &opt_out, "PATH", "output dataset folder, or an archive ending in .tar.gz/.tgz", 0, 0},
        {"lines", OPT_FLAG, &opt_lines, NULL, "one document per line: the same as --format lines", 0, 0},
        {"ids", OPT_FLAG, &opt_ids, NULL, "each line is ID<TAB>text, ID becomes the articleId (the lines format; implied with --format auto)", 0, 0},
        {"ignore-case", OPT_FLAG, &opt_ignore_case, NULL, "match names regardless of case (Unicode case folding)", 0, 0},
        {"min-mentions", OPT_INT, &opt_min_mentions, "N", "drop entities with fewer mentions (and their mentions)", 0, 1e9},
        {"max-words", OPT_INT, &opt_max_words, "N", "drop sentences of more than N words (tokens), as build-samples --max-words", 1, 100000},
        {"classes", OPT_INPUT, &opt_classes, "DIR", "folder of <class>.txt member lists (one name per line) -> gt/, query/", 0, 0},
        {"queries", OPT_INT, &opt_queries, "N", "with --classes: seed sets of 3 per class", 0, 10000},
        {"seed-pool", OPT_INT, &opt_seed_pool, "N", "seeds come from the N most-mentioned members (0 = a third, at least 15)", 0, 1e9},
        {"random-seed", OPT_LONG, &opt_seed, "N", "random seed of the queries' seed sets", 0, 0},
        {"force", OPT_FLAG, &opt_force, NULL, "replace an existing --out folder that annotate did not write", 0, 0},
        {NULL, 0, NULL, NULL, NULL, 0, 0},
    };
    const cli_spec spec = {
        "annotate", "plain text + entity list (or --discover) -> dataset folder (entity2id.txt, sentences.json, gt/, query/)",
        "[options] (--entities FILE | --discover) --out PATH [TEXT...]   (TEXT: files, folders, archives; none or - = stdin)",
        "annotate --entities names.tsv --classes classes/ --min-mentions 3 --out mydata corpus.txt",
        "tokenize (next step), examples/wordnet/build.sh", opts, CLI_ANY_ARGS};
    discover_params_default(&opt_dp);
    int first = cli_parse(&spec, argc, argv);
    if (!opt_entities == !opt_discover) die_usage("give exactly one of --entities and --discover (try 'annotate --help')");
    if (!opt_out) die_usage("--out is required (try 'annotate --help')");
    text_reader_options ro;
    text_reader_options_parse(&ro, opt_format, opt_lines, opt_ids, opt_max_line);
    char *out_parent = dataset_out_check(opt_out, opt_force);
    catalog_begin(out_parent);

    annotation a;
    annotation_init(&a, opt_ignore_case);
    class_lists *classes = NULL;
    if (opt_entities) annotation_load_list(&a, opt_entities);
    if (opt_classes && opt_entities) classes = class_lists_read(opt_classes, &a);

    /* pass 1: the spool is the only file until every input has been read */
    text_annotation *t = text_annotation_new(&a, opt_out, opt_max_words, opt_discover ? &opt_dp : NULL);
    text_annotation_read(t, &ro, argv + first, argc - first);
    if (opt_discover) {
        discovered_name *names;
        int64_t nn = text_annotation_discover(t, &names);
        if (!nn)
            die_input(first < argc ? argv[first] : "stdin", "end of input",
                      "no entity names discovered (a name is a capitalised word or phrase seen at least %d times; "
                      "see --min-count)", opt_dp.min_count);
        log_info("%lld names discovered", (long long)nn);
        annotation_load_discovered(&a, names, nn);
        discovered_names_free(names, nn);
        if (opt_classes) classes = class_lists_read(opt_classes, &a);
        text_annotation_match_kept(t);
    }
    text_annotation_counts read;
    text_annotation_finish(t, &read);

    /* pass 2: the output folder */
    int64_t dropped, kept = annotation_assign_ids(&a, opt_min_mentions, &dropped), sentences, mentions;
    if (kept == 0) {
        int64_t most = 0;
        for (int64_t i = 0; i < a.n; i++) most = a.count[i] > most ? a.count[i] : most;
        die_input(first < argc ? argv[first] : "stdin", NULL,
                  "no entity of %s is mentioned --min-mentions %d times (the most mentioned: %lld): nothing to "
                  "write; lower --min-mentions or check the names", opt_entities, opt_min_mentions, (long long)most);
    }
    dataset_writer *w = dataset_writer_begin(opt_out);
    annotation_write_sentences(&a, w, text_annotation_spool(t), &sentences, &mentions);
    text_annotation_free(t);
    annotation_write_entities(&a, w, kept);
    int nclass = classes ? class_lists_write(classes, &a, w, opt_queries, opt_seed_pool, opt_seed) : 0;
    dataset_writer_commit(w);

    char b1[32], b2[32], b3[32], b4[32], b5[32], b6[32];
    log_info("%s sentences read, %s with a mention, %s over --max-words %d", fmt_count(b1, read.sentences + read.overlong),
             fmt_count(b2, read.with_mention), fmt_count(b3, read.overlong), opt_max_words);
    catalog_metric("documents", (double)read.docs);
    catalog_metric("sentences", (double)sentences);
    catalog_metric("mentions", (double)mentions);
    catalog_metric("entities_kept", (double)kept);
    catalog_metric("entities_dropped", (double)dropped);
    catalog_metric("classes", nclass);
    snprintf(b6, sizeof b6, ", %d classes", nclass);
    log_done("%s documents, %s sentences kept, %s mentions, %s entities kept, %s dropped (< %d mentions)%s",
             fmt_count(b1, read.docs), fmt_count(b2, sentences), fmt_count(b3, mentions), fmt_count(b4, kept),
             fmt_count(b5, dropped), opt_min_mentions, opt_classes ? b6 : "");
    annotation_free(&a);
    free(out_parent);
    return 0;
}
