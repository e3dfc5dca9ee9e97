# make bench-cl: train-cl's contrastive rate in BERT-base shapes with the frozen-prefix cache
# (dev/bench/bench-cl.sh): mini-ese with a learned WordPiece vocabulary (<= 30,000), random
# weights, F = 11, a synthetic ranking, pairs with the wiki thresholds; prints the
# cache build time and the pairs/s of the contrastive passes. A benchmark, not a test.
BENCH_CL_DATA ?= $(CURDIR)/../shared/data/mini-ese.tar.gz
BENCH_CL_CAP ?= 2
BENCH_CL_THREADS ?= 2
BENCH_CL_DIR ?= /tmp/probexpan-bench-cl
## train-cl's contrastive rate in BERT-base shapes (dev/bench/bench-cl.sh)
bench-cl: $(PROGRAMS) $(BUILD)/tests/test_dists
	rm -rf $(BENCH_CL_DIR)
	bash dev/bench/bench-cl.sh $(CURDIR)/$(BIN) $(CURDIR)/$(BUILD)/tests $(BENCH_CL_DIR) $(BENCH_CL_DATA) $(BENCH_CL_CAP) $(BENCH_CL_THREADS)
