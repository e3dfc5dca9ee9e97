# make bench-discover: entity discovery (annotate --discover) on the text of the
# wordnet-ese dev sentences and of the WordNet example, mention annotations
# removed: candidates, recall of the 13 classes' ground-truth members, and the
# full pipeline's MAP on the discovered dataset next to the curated one.
# BENCH_DISCOVER_DATA: the first dataset; BENCH_DISCOVER_OUT: where the runs go.
BENCH_DISCOVER_DATA ?= ../shared/data/wordnet-ese/wordnet-ese-dev.tar.gz
BENCH_DISCOVER_OUT  ?= $(BUILD)/bench-discover
.PHONY: bench-discover
## entity discovery (annotate --discover) on wordnet-ese dev and the example: recall, MAP
bench-discover: all example-data
	bash dev/bench/bench-discover.sh $(CURDIR)/$(BIN) $(BENCH_DISCOVER_DATA) $(BENCH_DISCOVER_OUT)/dev
	bash dev/bench/bench-discover.sh $(CURDIR)/$(BIN) $(CURDIR)/$(EXAMPLE_DATA) $(BENCH_DISCOVER_OUT)/example
