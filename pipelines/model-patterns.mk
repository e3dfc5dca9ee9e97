# model-patterns.mk — the pipeline's entity model with ENCODER=patterns (the default without
# MODEL): the pattern model, no encoder. Each model is estimated from context-feature counts
# (phase 1: model 1 uses every feature, model k > 1 a seeded PATTERN_FRACTION subset) and, in
# phase 3, its feature weights are refined on the contrastive pairs' classes (--pairs; CL_FLAGS
# go there) instead of training an encoder. The tokenizer learns a WordPiece vocabulary from
# the corpus.
#
# PATTERN_PATH=index (the default): pattern-model writes each model as a small patmodel over
# the corpus index (phase1/model-k.mp, phase3/model-k.mp, phase3-single/model.mp; the
# ensembles are patmodels of the kept members) and the stages compute the rows they need from
# the index (--index RUN/index.mp --model FILE): no E x E file is written. PATTERN_PATH=dense:
# pattern-dists writes each model's dense dists instead (phase1/dists-k.mp, ...), the same
# rankings.

## share of the context features each model k > 1 draws (model 1 uses all): 0.8 in the
## transductive batch, 0.95 (query's default) for PROTOCOL=inductive (docs/inductive.md)
PATTERN_FRACTION ?= $(if $(filter inductive,$(PROTOCOL)),0.95,0.8)
## index (rows computed from the corpus index) or dense (pattern-dists writes E x E dists files)
PATTERN_PATH     ?= index
## more options for pattern-dists (PATTERN_PATH=dense; e.g. --estimator prediction)
PATTERN_FLAGS    ?=
ifeq ($(filter $(PATTERN_PATH),index dense),)
$(error PATTERN_PATH must be index or dense, not '$(PATTERN_PATH)')
endif
ifeq ($(PATTERN_PATH)-$(if $(strip $(PATTERN_FLAGS)),flags),index-flags)
$(error PATTERN_FLAGS go to pattern-dists: set PATTERN_PATH=dense with them (the index path takes its model settings from INDEX_FLAGS))
endif
# These distributions lose with the paper's geometric re-ranking and not with the official
# code's (docs/results.md, 0.428 against 0.515 MAP@10), so the pattern model re-ranks with the latter.
RERANK_FLAGS ?= --official

VOCAB_ARGS     = --learn-vocab $(VOCAB_SIZE) --vocab-out $(RUN)/vocab.txt
MAX_WORDPIECES = 512

$(eval $(call stamp,patterns,"FRACTION=$(PATTERN_FRACTION)" "PATH=$(PATTERN_PATH)" "FLAGS=$(PATTERN_FLAGS)"))
# pattern_subset(k): model k's feature subset
pattern_subset = $(if $(filter 1,$(1)),,--feature-fraction $(PATTERN_FRACTION) --random-seed $(call model_seed,$(1)))

ifeq ($(PATTERN_PATH),index)
ROWS        = model
rows_args   = --index $(RUN)/index.mp --model $(1)
SELECT_ARGS = --index $(RUN)/index.mp
PATTERNS    = $(PATTERN_MODEL) $(COMMON) --index $(RUN)/index.mp
PATTERNS_PROGRAM = PATTERN_MODEL
ROWS_SOURCE = $(RUN)/index.mp
else
PATTERNS    = $(PATTERN_DISTS) $(COMMON) --samples $(RUN)/samples.mp $(PATTERN_FLAGS)
PATTERNS_PROGRAM = PATTERN_DISTS
ROWS_SOURCE = $(RUN)/samples.mp
endif
PROGRAM_VARIABLES += $(PATTERNS_PROGRAM)
PHASE1_MODELS = $(foreach k,$(MODEL_NUMBERS),$(RUN)/phase1/$(ROWS)-$(k).mp)
PHASE3_MODELS = $(foreach k,$(MODEL_NUMBERS),$(RUN)/phase3/$(ROWS)-$(k).mp)

$(RUN)/phase1/$(ROWS)-%.mp: $(ROWS_SOURCE) $(RUN)/params-patterns.txt $(call uses,$(PATTERNS_PROGRAM))
	@mkdir -p $(RUN)/phase1
	$(PATTERNS) $(call pattern_subset,$*) --out $@
$(RUN)/phase3/$(ROWS)-%.mp: $(RUN)/phase3/pairs.mp $(ROWS_SOURCE) $(RUN)/params-patterns.txt $(RUN)/params-cl.txt $(call uses,$(PATTERNS_PROGRAM))
	$(PATTERNS) --pairs $< $(call pattern_subset,$*) $(CL_FLAGS) --out $@
$(RUN)/phase3-single/$(ROWS).mp: $(RUN)/phase3-single/pairs.mp $(ROWS_SOURCE) $(RUN)/params-patterns.txt $(RUN)/params-cl.txt $(call uses,$(PATTERNS_PROGRAM))
	$(PATTERNS) --pairs $< $(CL_FLAGS) --out $@
