# make bench-text: tokenize and build-samples on ../shared/data/wordnet-ese/wordnet-ese-dev.tar.gz
# (input MB/s, sentences/s, peak RSS vs output size). A benchmark, not a test.
# BENCH_TEXT_DATA=path/to/dataset BENCH_TEXT_VOCAB=N (size of the learned vocabulary).
BENCH_TEXT_DATA ?= $(CURDIR)/../shared/data/wordnet-ese/wordnet-ese-dev.tar.gz
BENCH_TEXT_VOCAB ?= 30522
## tokenize and build-samples on wordnet-ese dev: MB/s, sentences/s, peak RSS
bench-text: $(BIN)/tokenize $(BIN)/build-samples
	bash dev/bench/bench-text.sh $(CURDIR)/$(BIN) $(BENCH_TEXT_DATA) $(BENCH_TEXT_VOCAB)
