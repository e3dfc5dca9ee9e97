# make bench-cut: where to cut (dev/bench/bench-cut.sh, docs/cut.md): precision and recall above
# the cut of every query's list of 200, at the default fraction and leave-one-corpus-out over
# the first two datasets. BENCH_CUT_DATA: the datasets (the fraction is chosen on the first two);
# BENCH_CUT_OUT: runs and rows (reused when present).
BENCH_CUT_DATA ?= ../shared/data/wordnet-ese/wordnet-ese-dev.tar.gz ../shared/data/reuters-ese/reuters-ese-dev.tar.gz \
  ../shared/data/mini-ese.tar.gz $(EXAMPLE_DATA)
BENCH_CUT_OUT ?= build/bench-cut
## where to cut: precision and recall above the cut on wordnet-ese dev, reuters-ese dev, mini-ese and the example
bench-cut: $(BIN)/query $(BIN)/evaluate $(BIN)/index example-data
	bash dev/bench/bench-cut.sh $(CURDIR)/$(BIN) $(BENCH_CUT_OUT) $(abspath $(BENCH_CUT_DATA))
