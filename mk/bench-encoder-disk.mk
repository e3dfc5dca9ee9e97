# make bench-encoder-disk: the encoder pipeline's run folder on disk (dev/bench/bench-encoder-disk.sh):
# the ablation of ENCODER=transformer with BENCH_ENCDISK_VARS on BENCH_ENCDISK_DATA, its peak size
# and the most dists files at once; with BENCH_ENCDISK_OLD_ROOT (the tree of an earlier commit,
# built) the same for that tree's pipeline first. A benchmark, not a test.
BENCH_ENCDISK_DATA ?= $(CURDIR)/../shared/data/mini-ese.tar.gz
BENCH_ENCDISK_DIR ?= /tmp/probexpan-bench-encoder-disk
BENCH_ENCDISK_VARS ?= ENCODER=transformer K=3 TOPK=2 EPOCHS=1 CL_EPOCHS=1 SPE=2 VOCAB_SIZE=2000 THREADS=1 ENCODER_LAYERS=1 ENCODER_HIDDEN=32 ENCODER_HEADS=2 ENCODER_FFN=64 PAIRS_FLAGS=--pairs-per-set=2
BENCH_ENCDISK_OLD_ROOT ?=
.PHONY: bench-encoder-disk
## the encoder pipeline's peak run folder size and dists files at once (and an earlier tree's)
bench-encoder-disk: all
	mkdir -p $(BENCH_ENCDISK_DIR)
	$(if $(BENCH_ENCDISK_OLD_ROOT),bash dev/bench/bench-encoder-disk.sh $(BENCH_ENCDISK_OLD_ROOT) $(BENCH_ENCDISK_DATA) $(BENCH_ENCDISK_DIR)/before "$(BENCH_ENCDISK_VARS)")
	bash dev/bench/bench-encoder-disk.sh $(CURDIR) $(BENCH_ENCDISK_DATA) $(BENCH_ENCDISK_DIR)/after "$(BENCH_ENCDISK_VARS)"
