# make bench-quality: the quality suite across genres (dev/bench/bench-quality.sh,
# docs/quality.md) — `query` (default full and --variant noclen) and the transductive pipeline
# (BENCH_QUALITY_VARIANTS of its ablation) on wordnet-ese dev, mini-ese, reuters-ese dev and
# FOLDOC (make foldoc-data), and `query` on the held-out classes over the wordnet-ese dev corpus
# (make wordnet-heldout: from the dev corpus's index, no pipeline rows), scored with the pools of
# dev/bench/quality/pool/ and FOLDOC's hand-judged seed sets (dev/bench/quality/foldoc-judged);
# prints one table. A benchmark, not a
# test: minutes of CPU (docs/quality.md has the measured times). Runs are kept in
# BENCH_QUALITY_OUT and redone only when missing: delete it to measure afresh.
BENCH_QUALITY_DATA     ?= ../shared/data/wordnet-ese/wordnet-ese-dev.tar.gz ../shared/data/mini-ese.tar.gz \
                          ../shared/data/reuters-ese/reuters-ese-dev.tar.gz $(FOLDOC_DATA) $(WORDNET_HELDOUT)
BENCH_QUALITY_OUT      ?= $(BUILD)/bench-quality
BENCH_QUALITY_VARIANTS ?= noclen nocl full
BENCH_QUALITY_THREADS  ?= 1
.PHONY: bench-quality
## the quality suite across genres: query and the transductive pipeline on 4 corpora and held-out classes, one table
bench-quality: all foldoc-data wordnet-heldout
	BENCH_QUALITY_SHARED_INDEX="$(notdir $(WORDNET_HELDOUT))=wordnet-ese-dev" BENCH_QUALITY_VARIANTS="$(BENCH_QUALITY_VARIANTS)" BENCH_QUALITY_THREADS=$(BENCH_QUALITY_THREADS) \
	BENCH_QUALITY_JUDGED="$(notdir $(FOLDOC_DATA))=$(CURDIR)/dev/bench/quality/foldoc-judged" \
	  bash dev/bench/bench-quality.sh $(CURDIR)/$(BIN) $(BENCH_QUALITY_OUT) $(abspath $(BENCH_QUALITY_DATA))
