# make bench-patterns: the pattern model (pattern-dists) on wordnet-ese dev — wall
# time, entities/s and peak RSS for both estimators with 1 and 2 threads.
# BENCH_PATTERNS_DATA: the dataset (default ../shared/data/wordnet-ese/wordnet-ese-dev.tar.gz).
BENCH_PATTERNS_DATA ?= ../shared/data/wordnet-ese/wordnet-ese-dev.tar.gz
## pattern-dists on wordnet-ese dev: time, entities/s, peak RSS
bench-patterns: $(BIN)/pattern-dists $(BIN)/tokenize $(BIN)/build-samples $(BIN)/catalog
	bash dev/bench/bench-patterns.sh $(CURDIR)/$(BIN) $(BENCH_PATTERNS_DATA)
