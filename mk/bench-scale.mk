# make bench-scale COPIES=N: the method at N times wordnet-ese dev — builds the N-copy
# corpus (dev/bench/scale_corpus.c: new ids, names and a word permutation per copy;
# queries from copy 0, every copy's members in the ground truth), builds the corpus index
# (the pipeline's `index` target) and runs the ablation as `query` runs (4 variants x the
# queries), printing wall time, CPU time, peak RSS and disk per stage with the load average,
# and MAP per variant. BENCH_SCALE_PATH=stages runs the pipeline's `ablation` instead (its
# stage programs reading the index), BENCH_SCALE_PATH=dense the same on dense `dists` files
# (COPIES <= 2), every query. BENCH_SCALE_QUERIES=Q (index path): the first Q queries of each
# class (default 0 = all); VARIANTS: the variants (default noclen noen nocl full).
# BENCH_SCALE_DIR: where the corpus and the run go (default /tmp/bench-scale; the corpus is
# kept, so a second run reuses it). BENCH_SCALE_DATA: the dataset copied.
COPIES ?= 1
BENCH_SCALE_DIR ?= /tmp/bench-scale
BENCH_SCALE_DATA ?= ../shared/data/wordnet-ese/wordnet-ese-dev.tar.gz
$(BUILD)/bench/scale_corpus: dev/bench/scale_corpus.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(LIB) $(LDLIBS)
## the method at COPIES times wordnet-ese dev: wall, CPU, RSS, disk per stage, MAP per variant
bench-scale: $(BUILD)/bench/scale_corpus all
	bash dev/bench/bench-scale.sh $(CURDIR)/$(BUILD)/bench/scale_corpus $(CURDIR)/$(BIN) $(BENCH_SCALE_DATA) $(COPIES) $(BENCH_SCALE_DIR)

# make bench-dists-forms DISTS_RUN=DIR: how a `dists` artifact may be stored — for
# DIR/phase1/dists-1.mp (a pattern model's or an encoder's) expand + rerank + evaluate on the
# one-matrix form (the log derived on read), on top-k rows plus the remaining mass for each
# k of DISTS_TOPK and, with OLD_BIN=a build of git 1a64ebe, on the former two-matrix form;
# prints MAP, the overlap of the top 50 with the first form's and the size, for the default
# candidate order and logz (DISTS_RERANK_FLAGS: --official as the pattern pipeline; empty for
# an encoder).
DISTS_RUN ?= $(error set DISTS_RUN to a run folder holding phase1/dists-1.mp)
DISTS_DATA ?= ../shared/data/wordnet-ese/wordnet-ese-dev.tar.gz
DISTS_TOPK ?= 32 128 512
DISTS_RERANK_FLAGS ?= --official
OLD_BIN ?=
$(BUILD)/bench/reduce_dists: dev/bench/reduce_dists.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(LIB) $(LDLIBS)
## how a dists artifact may be stored (DISTS_RUN=DIR): size and MAP per form
bench-dists-forms: $(BUILD)/bench/reduce_dists all
	RERANK_FLAGS="$(DISTS_RERANK_FLAGS)" OLD_BIN="$(OLD_BIN)" bash dev/bench/bench-dists-forms.sh $(CURDIR)/$(BUILD)/bench/reduce_dists $(CURDIR)/$(BIN) $(DISTS_DATA) $(DISTS_RUN)/phase1/dists-1.mp $(DISTS_TOPK)
# built with everything: tests/stage/scale-corpus.sh runs it
all: $(BUILD)/bench/scale_corpus
