# make foldoc-data: a ProbExpan/CGExpan dataset from FOLDOC, Debian's dict-foldoc
# (make foldoc-text), its entities discovered (annotate --discover), its classes a silver
# standard from FOLDOC's own category tags, as mk/example-data.mk builds the WordNet example.
# FOLDOC_FORMAT: how the dictd text reaches annotate — "dictd" (the default) passes
# build/text/foldoc.txt as it is with `annotate --format dictd` (docs/input-formats.md);
# "lines" has dev/bench/quality/foldoc/foldoc.awk rewrite each entry as one
# "Headword : definition" line, markup stripped, for `annotate --lines` (kept for comparison,
# docs/quality.md). Either way foldoc.awk writes the class lists (the headwords of
# <language>, <company>, <operating system>, <person>, <processor>, <computer>, <body> and
# protocol entries). FOLDOC_MIN_MENTIONS, FOLDOC_QUERIES, FOLDOC_RANDOM_SEED: to annotate.
FOLDOC_DIR          ?= $(BUILD)/foldoc
FOLDOC_DATA         ?= $(FOLDOC_DIR)/foldoc-ese
FOLDOC_FORMAT       ?= dictd
FOLDOC_MIN_MENTIONS ?= 3
FOLDOC_QUERIES      ?= 5
FOLDOC_RANDOM_SEED  ?= 20230119
FOLDOC_AWK          := dev/bench/quality/foldoc/foldoc.awk
ifeq ($(FOLDOC_FORMAT),lines)
FOLDOC_INPUT        := $(FOLDOC_DIR)/foldoc-lines.txt
FOLDOC_FORMAT_FLAGS := --lines
else ifeq ($(FOLDOC_FORMAT),dictd)
FOLDOC_INPUT        := $(FOLDOC_TEXT)
FOLDOC_FORMAT_FLAGS := --format dictd
else
$(error FOLDOC_FORMAT must be lines or dictd, not '$(FOLDOC_FORMAT)')
endif
.PHONY: foldoc-data
## build the FOLDOC dataset (discovered entities, silver classes from its category tags)
foldoc-data: $(FOLDOC_DATA)/sentences.json
$(FOLDOC_DIR)/classes/.done: $(FOLDOC_TEXT) $(FOLDOC_AWK)
	@rm -rf $(FOLDOC_DIR)/classes && mkdir -p $(FOLDOC_DIR)/classes
	awk -v classes=$(FOLDOC_DIR)/classes -f $(FOLDOC_AWK) $(FOLDOC_TEXT)
	touch $@
$(FOLDOC_DIR)/foldoc-lines.txt: $(FOLDOC_TEXT) $(FOLDOC_AWK)
	@mkdir -p $(FOLDOC_DIR)
	awk -v lines=1 -f $(FOLDOC_AWK) $(FOLDOC_TEXT) > $@.tmp && mv $@.tmp $@
# the reading in use: a stamp named after it, so that changing FOLDOC_FORMAT rebuilds the dataset
$(FOLDOC_DIR)/format.$(FOLDOC_FORMAT):
	@mkdir -p $(FOLDOC_DIR) && rm -f $(FOLDOC_DIR)/format.* && touch $@
$(FOLDOC_DATA)/sentences.json: $(BIN)/annotate $(FOLDOC_INPUT) $(FOLDOC_DIR)/classes/.done $(FOLDOC_DIR)/format.$(FOLDOC_FORMAT) \
                               dev/bench/quality/foldoc/SOURCES.md
	$(BIN)/annotate --quiet --discover $(FOLDOC_FORMAT_FLAGS) --classes $(FOLDOC_DIR)/classes \
	  --min-mentions $(FOLDOC_MIN_MENTIONS) --queries $(FOLDOC_QUERIES) --random-seed $(FOLDOC_RANDOM_SEED) \
	  --out $(FOLDOC_DATA) $(FOLDOC_INPUT)
	cp dev/bench/quality/foldoc/SOURCES.md $(FOLDOC_DATA)/SOURCES.md
