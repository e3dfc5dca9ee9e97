# make wordnet-heldout: held-out classes over the wordnet-ese dev corpus (examples/wordnet/
# heldout.sh; docs/quality.md "Held-out classes"): the dev archive's sentences and entities with
# classes chosen by a written rule from Debian's wordnet-base (none of the dev classes), in
# $(WORDNET_HELDOUT) (entity2id.txt, sentences.json, gt/, query/, classes.tsv, SOURCES.md).
# WORDNET_HELDOUT_SOURCE: the dataset to hold classes out from; WORDNET_HELDOUT_CLASSES: how
# many classes at most. WORDNET_DIR: example-data.mk.
WORDNET_HELDOUT_SOURCE  ?= ../shared/data/wordnet-ese/wordnet-ese-dev.tar.gz
WORDNET_HELDOUT         ?= $(BUILD)/wordnet-ese-heldout
WORDNET_HELDOUT_CLASSES ?= 20
.PHONY: wordnet-heldout
## held-out classes over the wordnet-ese dev corpus, chosen by rule from WordNet
wordnet-heldout: $(WORDNET_HELDOUT)/classes.tsv
$(WORDNET_HELDOUT)/classes.tsv: $(WORDNET_HELDOUT_SOURCE) examples/wordnet/heldout.sh examples/wordnet/heldout.awk \
                                   examples/wordnet/wordnet.awk
	sh examples/wordnet/heldout.sh --wordnet $(WORDNET_DIR) --max-classes $(WORDNET_HELDOUT_CLASSES) \
	  --data $(WORDNET_HELDOUT_SOURCE) --out $(WORDNET_HELDOUT)
