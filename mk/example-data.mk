# make example-data: builds the WordNet example dataset from the installed Debian
# package wordnet-base (examples/wordnet/build.sh: wordnet.awk extracts glosses,
# capitalised noun lemmas and 13 instance classes; annotate matches) into
# $(EXAMPLE_DATA) (entity2id.txt, sentences.json, gt/, query/, SOURCES.md).
# WORDNET_DIR: another WordNet 3.0 database folder; EXAMPLE_MIN_MENTIONS,
# EXAMPLE_QUERIES, EXAMPLE_RANDOM_SEED: passed to annotate.
WORDNET_DIR          ?= /usr/share/wordnet
EXAMPLE_DIR          ?= $(BUILD)/example
EXAMPLE_DATA         ?= $(EXAMPLE_DIR)/wordnet-ese
EXAMPLE_MIN_MENTIONS ?= 3
EXAMPLE_QUERIES      ?= 5
EXAMPLE_RANDOM_SEED         ?= 20220711
.PHONY: example-data
## build the WordNet example dataset from Debian's wordnet-base
example-data: $(EXAMPLE_DATA)/sentences.json
$(EXAMPLE_DATA)/sentences.json: $(BIN)/annotate examples/wordnet/build.sh examples/wordnet/wordnet.awk
	@mkdir -p $(EXAMPLE_DIR)
	sh examples/wordnet/build.sh --wordnet $(WORDNET_DIR) --annotate $(BIN)/annotate \
	  --min-mentions $(EXAMPLE_MIN_MENTIONS) --queries $(EXAMPLE_QUERIES) --random-seed $(EXAMPLE_RANDOM_SEED) --out $(EXAMPLE_DATA)
