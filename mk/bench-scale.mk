# make bench-scale COPIES=N: the method at N times wordnet-ese dev — builds the N-copy
# corpus (dev/bench/scale_corpus.c: new ids, names and a word permutation per copy;
# queries from copy 0, every copy's members in the ground truth), runs the pipeline on
# it and prints wall time, CPU time, peak RSS and disk per stage, with the load average.
# BENCH_SCALE_DIR: where the corpus and the run go (default /tmp/bench-scale; kept, so a
# second run reuses the corpus). BENCH_SCALE_DATA: the dataset copied.
COPIES ?= 1
BENCH_SCALE_DIR ?= /tmp/bench-scale
BENCH_SCALE_DATA ?= ../shared/data/wordnet-ese/wordnet-ese-dev.tar.gz
$(BUILD)/bench/scale_corpus: dev/bench/scale_corpus.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(LIB) $(LDLIBS)
bench-scale: $(BUILD)/bench/scale_corpus all
	bash dev/bench/bench-scale.sh $(CURDIR)/$(BUILD)/bench/scale_corpus $(CURDIR)/$(BIN) $(BENCH_SCALE_DATA) $(COPIES) $(BENCH_SCALE_DIR)

