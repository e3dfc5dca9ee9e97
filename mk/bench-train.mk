# make bench-train: train-mlm and infer throughput (dev/bench/bench-train.sh): the small
# config from scratch on wordnet-ese-dev (training samples/s, s/epoch, inference entities/s
# and samples/s, peak RSS), then BERT-base shapes with F = 11 and random weights on the first
# BENCH_TRAIN_BASE_SENTENCES sentences (cache build rate, cached training rate, inference).
# BENCH_TRAIN_SPE: samples per entity of the measured small-config epoch. A benchmark, not a test.
BENCH_TRAIN_DATA ?= $(CURDIR)/../shared/data/wordnet-ese/wordnet-ese-dev.tar.gz
BENCH_TRAIN_DIR ?= /tmp/probexpan-bench-train
BENCH_TRAIN_THREADS ?= 1
BENCH_TRAIN_SPE ?= 16
BENCH_TRAIN_BASE_SENTENCES ?= 1000
## train-mlm and infer throughput, small config and BERT-base shapes
bench-train: $(BIN)/tokenize $(BIN)/build-samples $(BIN)/train-mlm $(BIN)/infer $(BIN)/inspect
	rm -rf $(BENCH_TRAIN_DIR)
	bash dev/bench/bench-train.sh $(CURDIR)/$(BIN) $(BENCH_TRAIN_DIR) $(BENCH_TRAIN_DATA) $(BENCH_TRAIN_THREADS) $(BENCH_TRAIN_BASE_SENTENCES) $(BENCH_TRAIN_SPE)
