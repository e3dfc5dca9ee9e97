# make bench-discover: entity discovery (annotate --discover), measured two ways.
# On datasets (the wordnet-ese dev sentences, the WordNet example, the reuters-ese
# dev sentences), mention annotations removed: recall of the classes' ground-truth
# members, and the full pipeline's MAP on the discovered dataset next to the curated
# one; on Reuters also precision from hand judgements. On raw text (FOLDOC, the
# Jargon File): precision and merge precision from hand judgements of a fixed
# sample (dev/bench/discover-judged/, rules in its RULES.md), markup fragments, and
# whether "C" is found in FOLDOC. docs/discovery-benchmark.md has the figures.
# BENCH_DISCOVER_DATA, BENCH_DISCOVER_REUTERS: the datasets; BENCH_DISCOVER_OUT: where the runs go.
BENCH_DISCOVER_DATA    ?= ../shared/data/wordnet-ese/wordnet-ese-dev.tar.gz
BENCH_DISCOVER_REUTERS ?= ../shared/data/reuters-ese/reuters-ese-dev.tar.gz
BENCH_DISCOVER_OUT     ?= $(BUILD)/bench-discover
BENCH_DISCOVER_JUDGED  := dev/bench/discover-judged
.PHONY: bench-discover bench-discover-text
## entity discovery (annotate --discover): recall and MAP on wordnet-ese dev, the example and reuters-ese dev; judged precision on FOLDOC, Jargon, Reuters
bench-discover: all example-data bench-discover-text
	bash dev/bench/bench-discover.sh $(CURDIR)/$(BIN) $(BENCH_DISCOVER_DATA) $(BENCH_DISCOVER_OUT)/dev
	bash dev/bench/bench-discover.sh $(CURDIR)/$(BIN) $(CURDIR)/$(EXAMPLE_DATA) $(BENCH_DISCOVER_OUT)/example
	JUDGED=$(BENCH_DISCOVER_JUDGED)/reuters WORDNET_CLASSES=0 bash dev/bench/bench-discover.sh $(CURDIR)/$(BIN) $(BENCH_DISCOVER_REUTERS) $(BENCH_DISCOVER_OUT)/reuters
## entity discovery on raw text only (FOLDOC, the Jargon File): judged precision, merge precision, markup fragments (seconds)
bench-discover-text: all foldoc-text jargon-text
	bash dev/bench/bench-discover-text.sh $(CURDIR)/$(BIN) $(FOLDOC_TEXT) $(BENCH_DISCOVER_OUT)/foldoc $(BENCH_DISCOVER_JUDGED)/foldoc C
	bash dev/bench/bench-discover-text.sh $(CURDIR)/$(BIN) $(JARGON_TEXT) $(BENCH_DISCOVER_OUT)/jargon $(BENCH_DISCOVER_JUDGED)/jargon
