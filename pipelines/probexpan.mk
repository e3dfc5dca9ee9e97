# probexpan.mk — the ProbExpan pipeline as make targets (docs/design.md §1, §3; issue 7).
#
#   make -f pipelines/probexpan.mk DATA=path/to/dataset.tar.gz RUN=runs/x [K=3 TOPK=2 ...] full
#
# Every artifact is a file in $(RUN); every recipe is one stage; `make -j2` trains the K
# models of a phase in parallel and re-running after changing a variable redoes only what
# depends on it (each artifact also depends on $(RUN)/params-<group>.txt, rewritten only
# when that group's variables change). All runs are recorded in $(RUN)/catalog.sqlite.
#
# Phases: 1 K train-mlm models -> 2 infer, score-models (top TOPK), expand (seeds+200),
# rerank -> 3 pairs from phase 2's ranking, K train-cl models -> 4 infer, score-models,
# expand (seeds+100), rerank, evaluate.
# Variants (paper Table 4): noclen (one model, no CL), noen (one model + CL), nocl (K models
# + selection, no CL), full. `ablation` runs all four and prints one MAP table.
# Entity model: MODEL=dir is a pretrained BERT (the paper). Without MODEL, ENCODER chooses:
# patterns (default; issue 9): no encoder, the K models are estimated from the context-feature
# counts of the corpus index in seconds (pattern-model: each model a small patmodel artifact,
# its feature subset), and phase 3 refines their feature weights on the contrastive pairs'
# classes (pattern-model --pairs; CL_FLAGS go there) instead of training an encoder; the stages
# compute the rows they need from the index (--index RUN/index.mp --model FILE), so no E x E
# file is written (PATTERN_PATH=dense: pattern-dists writes each model's dense dists instead,
# the same rankings); transformer: a small BERT trained from scratch with the paper's recipe
# (ENCODER_* below). Both run all four variants; `default` is full.
# Any stage can be swapped: TOKENIZE=... BUILD_SAMPLES=... TRAIN_MLM=... TRAIN_CL=... INFER=...
# SCORE_MODELS=... EXPAND=... RERANK=... EVALUATE=...

PIPELINE_MK := $(lastword $(MAKEFILE_LIST))
DATA   ?= $(error set DATA to a dataset folder or archive)
RUN    ?= runs/$(basename $(basename $(notdir $(DATA))))
BIN    ?= bin
MODEL  ?=
# Paths are one word of plain characters: make splits words on whitespace and gives
# meaning to # $ % : , = ( ), the shell to quotes, globs and the rest. Anything else
# stops the pipeline before a recipe runs (a RUN of "/x/victim dir" would otherwise
# make `rm -rf` see two paths).
path_chars := a b c d e f g h i j k l m n o p q r s t u v w x y z A B C D E F G H I J K L M N O P Q R S T U V W X Y Z 0 1 2 3 4 5 6 7 8 9 . _ - / + @
strip_chars = $(if $(2),$(call strip_chars,$(subst $(firstword $(2)),,$(1)),$(wordlist 2,$(words $(2)),$(2))),$(1))
check_path = $(if $(or $(filter-out 1,$(words $($(1)))),$(call strip_chars,$($(1)),$(path_chars))),$(error $(1)='$($(1))': use a path of letters, digits and . _ - / + @ only (no whitespace, quotes or shell/make characters)))
$(call check_path,RUN)
$(call check_path,DATA)
$(call check_path,BIN)
$(if $(strip $(MODEL)),$(call check_path,MODEL))
ENCODER ?= patterns
ifneq ($(strip $(MODEL)),)
override ENCODER := bert
endif
ifeq ($(filter $(ENCODER),patterns transformer bert),)
$(error ENCODER must be patterns or transformer (or set MODEL for a pretrained BERT), not '$(ENCODER)')
endif
PROTOCOL ?= transductive
ifeq ($(filter $(PROTOCOL),transductive inductive),)
$(error PROTOCOL must be transductive or inductive, not '$(PROTOCOL)')
endif
ifeq ($(PROTOCOL)-$(ENCODER),inductive-transformer)
$(error PROTOCOL=inductive needs the pattern model (the encoders refine by training: use the transductive pipeline))
endif
ifeq ($(PROTOCOL)-$(ENCODER),inductive-bert)
$(error PROTOCOL=inductive needs the pattern model (the encoders refine by training: use the transductive pipeline))
endif
# Pattern models (ENCODER=patterns): model 1 uses every feature, model k > 1 a seeded
# PATTERN_FRACTION subset. PATTERN_PATH: index (rows computed from the corpus index; its
# settings are INDEX_FLAGS) or dense (pattern-dists writes E x E dists files; PATTERN_FLAGS go
# there, e.g. --estimator prediction).
PATTERN_FRACTION ?= 0.8
PATTERN_PATH     ?= index
PATTERN_FLAGS    ?=
ifeq ($(filter $(PATTERN_PATH),index dense),)
$(error PATTERN_PATH must be index or dense, not '$(PATTERN_PATH)')
endif
ifeq ($(PATTERN_PATH)-$(if $(strip $(PATTERN_FLAGS)),flags),index-flags)
$(error PATTERN_FLAGS go to pattern-dists: set PATTERN_PATH=dense with them (the index path takes its model settings from INDEX_FLAGS))
endif
# The corpus index (`index` target; `probexpan query --run $(RUN)` reads it): INDEX_FLAGS go to
# the index stage (e.g. --bag 4).
INDEX_FLAGS      ?=
# PROTOCOL (ENCODER=patterns): transductive (the paper's: the pairs of every query of the dataset
# refine one model per seed, the stage programs) or inductive (each query expanded, refined
# and ranked on its own from the index by `query --queries`; QUERY_FLAGS go there).
QUERY_FLAGS      ?=
# From-scratch encoder (used when MODEL is empty): written to $(RUN)/config.json.
ENCODER_LAYERS ?= 4
ENCODER_HIDDEN ?= 256
ENCODER_HEADS  ?= 4
ENCODER_FFN    ?= 1024
ENCODER_MAXPOS ?= 512
VOCAB_SIZE     ?= 8000
# Training (empty = the stage's default, which depends on MODEL vs config: see README).
K       ?= 3
TOPK    ?= 2
EPOCHS  ?= 5
SPE     ?= 256
BATCH   ?= 128
LR      ?=
F       ?=
ETA     ?= 0.075
SEED    ?= 1
TRAIN_FLAGS ?=
# Contrastive phase.
CL_EPOCHS ?= $(EPOCHS)
PRESET    ?= wiki
CL_FLAGS  ?=
PAIRS_FLAGS ?=
# Expansion.
SIZE_PHASE2 ?= 200
SIZE_FINAL  ?= 100
EXPAND_FLAGS ?=
# The pattern models' distributions lose with the paper's geometric re-ranking and not with
# the official code's (README "Without a pretrained BERT"), so ENCODER=patterns defaults to the latter.
RERANK_FLAGS ?= $(if $(filter patterns,$(ENCODER)),--official)
THREADS ?= 0

TOKENIZE      ?= $(BIN)/tokenize
PATTERN_DISTS ?= $(BIN)/pattern-dists
PATTERN_MODEL ?= $(BIN)/pattern-model
BUILD_SAMPLES ?= $(BIN)/build-samples
# MPIRUN prefixes the stages that split their work across MPI ranks (train-mlm, train-cl and
# infer of the encoder models), e.g. MPIRUN="mpirun -np 8 --hostfile hosts"; empty = one process.
MPIRUN        ?=
TRAIN_MLM     ?= $(MPIRUN) $(BIN)/train-mlm
TRAIN_CL      ?= $(MPIRUN) $(BIN)/train-cl
INFER         ?= $(MPIRUN) $(BIN)/infer
SCORE_MODELS  ?= $(BIN)/score-models
EXPAND        ?= $(BIN)/expand
RERANK        ?= $(BIN)/rerank
EVALUATE      ?= $(BIN)/evaluate
INDEX         ?= $(BIN)/index
QUERY         ?= $(BIN)/query

# ---- one pipeline at a time in a run folder ----
# make is re-run under an exclusive flock(1) of the RUN folder: a second pipeline started on
# the same RUN (another terminal, another `make -j`) says so and waits until the first ends,
# then finds up to date what the first built. Without the lock both would write the same
# artifacts and stamps at once. PROBEXPAN_RUN_LOCK names the folder the inner make holds.
ifneq ($(PROBEXPAN_RUN_LOCK),$(abspath $(RUN)))
LOCKED_GOALS := $(or $(MAKECMDGOALS),default)
.PHONY: $(LOCKED_GOALS) run-lock
$(LOCKED_GOALS): run-lock
	@:
# clean-run alone creates no folder (it would only find one it may not delete), nor does a
# dry run (make -n)
DRY_RUN := $(findstring n,$(firstword -$(MAKEFLAGS)))
run-lock:
	@$(if $(DRY_RUN),,$(if $(filter-out clean-run,$(LOCKED_GOALS)),mkdir -p -- '$(RUN)' &&)) \
	if [ ! -d '$(RUN)' ]; then exec env PROBEXPAN_RUN_LOCK='$(abspath $(RUN))' $(MAKE) --no-print-directory -f $(PIPELINE_MK) $(MAKECMDGOALS); fi; \
	flock -n '$(RUN)' true || echo "probexpan.mk: another pipeline is running in $(RUN): waiting for it to end" >&2; \
	exec env PROBEXPAN_RUN_LOCK='$(abspath $(RUN))' flock '$(RUN)' $(MAKE) --no-print-directory -f $(PIPELINE_MK) $(MAKECMDGOALS)
else
export PROBEXPAN_CATALOG := $(abspath $(RUN))/catalog.sqlite
SEEDS   := $(shell seq 1 $(K))
COMMON  := --threads $(THREADS)
opt      = $(if $(strip $(2)),$(1) $(strip $(2)))

.PHONY: default full noclen noen nocl ablation index phase1 phase2 phase3 phase4 show clean-run FORCE
.DELETE_ON_ERROR:
.SECONDARY:

# ---- the run folder: created by the pipeline, which marks it so clean-run can tell ----
RUN_MARKER := $(RUN)/.probexpan-run
$(RUN_MARKER):
	@if [ -d '$(RUN)' ] && [ -n "$$(ls -A '$(RUN)')" ]; then \
	  echo "probexpan.mk: RUN=$(RUN) holds files this pipeline did not write (no .probexpan-run in it): choose a new or empty folder (for a run of an older version: touch $(RUN_MARKER))" >&2; exit 1; fi
	@mkdir -p '$(RUN)' && : > '$@'

# ---- parameter stamps: a file per variable group, rewritten only when it changes ----
define stamp
$(RUN)/params-$(1).txt: FORCE | $(RUN_MARKER)
	@new=$$@.new.$$$$$$$$; printf '%s\n' $(2) > $$$$new && if cmp -s $$$$new $$@; then rm -f $$$$new; else mv -f $$$$new $$@; fi
endef
FORCE:
$(eval $(call stamp,text,"DATA=$(DATA)" "MODEL=$(MODEL)" "VOCAB_SIZE=$(VOCAB_SIZE)"))
$(eval $(call stamp,encoder,"MODEL=$(MODEL)" "L=$(ENCODER_LAYERS)" "H=$(ENCODER_HIDDEN)" "A=$(ENCODER_HEADS)" "FFN=$(ENCODER_FFN)" "P=$(ENCODER_MAXPOS)" "V=$(VOCAB_SIZE)"))
$(eval $(call stamp,train,"EPOCHS=$(EPOCHS)" "SPE=$(SPE)" "BATCH=$(BATCH)" "LR=$(LR)" "F=$(F)" "ETA=$(ETA)" "FLAGS=$(TRAIN_FLAGS)"))
$(eval $(call stamp,cl,"CL_EPOCHS=$(CL_EPOCHS)" "PRESET=$(PRESET)" "FLAGS=$(CL_FLAGS)" "PAIRS=$(PAIRS_FLAGS)"))
$(eval $(call stamp,patterns,"FRACTION=$(PATTERN_FRACTION)" "FLAGS=$(PATTERN_FLAGS)"))
$(eval $(call stamp,index,"FLAGS=$(INDEX_FLAGS)"))
$(eval $(call stamp,query,"FLAGS=$(QUERY_FLAGS)"))
$(eval $(call stamp,select,"TOPK=$(TOPK)"))
$(eval $(call stamp,phase2,"SIZE=$(SIZE_PHASE2)" "E=$(EXPAND_FLAGS)" "R=$(RERANK_FLAGS)"))
$(eval $(call stamp,final,"SIZE=$(SIZE_FINAL)" "E=$(EXPAND_FLAGS)" "R=$(RERANK_FLAGS)"))

# ---- text: corpus (+ learned vocabulary) and samples ----
ifeq ($(strip $(MODEL)),)
ENCODER_SRC = --config $(RUN)/config.json
VOCAB_ARGS  = --learn-vocab $(VOCAB_SIZE) --vocab-out $(RUN)/vocab.txt
ENCODER_DEP = $(RUN)/config.json
MAX_WORDPIECES = $(ENCODER_MAXPOS)
else
ENCODER_SRC = --model $(MODEL)
VOCAB_ARGS  = --vocab $(MODEL)/vocab.txt
ENCODER_DEP =
MAX_WORDPIECES = 512
endif

$(RUN)/corpus.mp: $(RUN)/params-text.txt
	$(TOKENIZE) $(COMMON) $(DATA) $(VOCAB_ARGS) --out $@
$(RUN)/samples.mp: $(RUN)/corpus.mp $(RUN)/params-encoder.txt
	$(BUILD_SAMPLES) $(COMMON) --corpus $< --max-wordpieces $(MAX_WORDPIECES) --out $@
$(RUN)/config.json: $(RUN)/params-encoder.txt $(RUN)/corpus.mp
	printf '{"model_type":"bert","architectures":["BertModel"],"hidden_act":"gelu","vocab_size":%d,"hidden_size":%d,"num_hidden_layers":%d,"num_attention_heads":%d,"intermediate_size":%d,"max_position_embeddings":%d,"type_vocab_size":2,"layer_norm_eps":1e-12,"initializer_range":0.02,"pad_token_id":0}\n' \
	  $$(wc -l < $(RUN)/vocab.txt) $(ENCODER_HIDDEN) $(ENCODER_LAYERS) $(ENCODER_HEADS) $(ENCODER_FFN) $(ENCODER_MAXPOS) > $@.new.$$$$ && mv -f $@.new.$$$$ $@

# ---- the corpus index (pattern model): what `query` and `serve` answer any seed set from ----
$(RUN)/index.mp: $(RUN)/samples.mp $(RUN)/params-index.txt
	$(INDEX) $(COMMON) --samples $< $(INDEX_FLAGS) --out $@
index: $(RUN)/index.mp

TRAIN_ARGS = $(COMMON) --samples $(RUN)/samples.mp $(ENCODER_SRC) --batch $(BATCH) \
  --samples-per-entity $(SPE) --smoothing $(ETA) $(call opt,--lr,$(LR)) $(call opt,--frozen-layers,$(F)) $(TRAIN_FLAGS)

# ROWS: what a model is stored as (dists, or model = a patmodel over the index); rows_args(file):
# how score-models' inputs and expand/rerank read it
ROWS = dists
rows_args = --dists $(1)
SELECT_ARGS =
ifeq ($(ENCODER),patterns)
pattern_subset = $(if $(filter 1,$(1)),,--feature-fraction $(PATTERN_FRACTION) --seed $$(( $(SEED) * 1000 + $(1) )))
ifeq ($(PATTERN_PATH),index)
# ---- phases 1 and 3 without an encoder, from the corpus index: K pattern models, each a small
# patmodel (its feature subset; in phase 3 also its feature weights refined on the pairs'
# classes, pattern-model --pairs); the stages compute rows on demand: no E x E file ----
ROWS = model
rows_args = --index $(RUN)/index.mp --model $(1)
SELECT_ARGS = --index $(RUN)/index.mp
$(RUN)/model-mlm-%.mp: $(RUN)/index.mp $(RUN)/params-patterns.txt
	$(PATTERN_MODEL) $(COMMON) --index $< $(call pattern_subset,$*) --out $@
$(RUN)/model-cl-%.mp: $(RUN)/pairs.mp $(RUN)/index.mp $(RUN)/params-patterns.txt $(RUN)/params-cl.txt
	$(PATTERN_MODEL) $(COMMON) --index $(RUN)/index.mp --pairs $< $(call pattern_subset,$*) $(CL_FLAGS) --out $@
$(RUN)/model-noen-cl.mp: $(RUN)/pairs-single.mp $(RUN)/index.mp $(RUN)/params-patterns.txt $(RUN)/params-cl.txt
	$(PATTERN_MODEL) $(COMMON) --index $(RUN)/index.mp --pairs $< $(CL_FLAGS) --out $@
else
# ---- phases 1 and 3 without an encoder, dense: K pattern models, straight to their
# distributions; phase 3 refines each one's feature weights on the pairs' classes
# (pattern-dists --pairs) ----
$(RUN)/dists-mlm-%.mp: $(RUN)/samples.mp $(RUN)/params-patterns.txt
	$(PATTERN_DISTS) $(COMMON) --samples $< $(call pattern_subset,$*) $(PATTERN_FLAGS) --out $@
$(RUN)/dists-cl-%.mp: $(RUN)/pairs.mp $(RUN)/samples.mp $(RUN)/params-patterns.txt $(RUN)/params-cl.txt
	$(PATTERN_DISTS) $(COMMON) --samples $(RUN)/samples.mp --pairs $< $(call pattern_subset,$*) $(PATTERN_FLAGS) $(CL_FLAGS) --out $@
$(RUN)/dists-noen-cl.mp: $(RUN)/pairs-single.mp $(RUN)/samples.mp $(RUN)/params-patterns.txt $(RUN)/params-cl.txt
	$(PATTERN_DISTS) $(COMMON) --samples $(RUN)/samples.mp --pairs $< $(PATTERN_FLAGS) $(CL_FLAGS) --out $@
endif
else
# ---- phase 1: K masked-entity models ----
$(RUN)/mlm-%/final/model.safetensors: $(RUN)/samples.mp $(ENCODER_DEP) $(RUN)/params-train.txt
	$(TRAIN_MLM) $(TRAIN_ARGS) --epochs $(EPOCHS) --seed $$(( $(SEED) * 1000 + $* )) --cache $(RUN)/prefix-cache.mp --out $(RUN)/mlm-$*
endif

# ---- inference: one dists per model ----
$(RUN)/dists-%.mp: $(RUN)/%/final/model.safetensors $(RUN)/samples.mp
	$(INFER) $(COMMON) --model $(RUN)/$*/final --samples $(RUN)/samples.mp --out $@

# ---- selection + ensemble (of patmodels: a patmodel of the kept members) ----
$(RUN)/ensemble-mlm.mp: $(foreach k,$(SEEDS),$(RUN)/$(ROWS)-mlm-$(k).mp) $(RUN)/params-select.txt
	$(SCORE_MODELS) $(COMMON) $(SELECT_ARGS) --queries $(DATA) --top $(TOPK) --ensemble $@ --out $(RUN)/scores-mlm.mp $(filter %.mp,$^)
$(RUN)/ensemble-cl.mp: $(foreach k,$(SEEDS),$(RUN)/$(ROWS)-cl-$(k).mp) $(RUN)/params-select.txt
	$(SCORE_MODELS) $(COMMON) $(SELECT_ARGS) --queries $(DATA) --top $(TOPK) --ensemble $@ --out $(RUN)/scores-cl.mp $(filter %.mp,$^)

# ---- expansion + re-ranking: $(RUN)/<name>/expansions.mp from a model's rows ----
# expand_rules(name, dists or patmodel, size, stamp group)
define expand_rules
$(RUN)/$(1)/expansions.mp: $(2) $(RUN)/params-$(4).txt
	@mkdir -p $(RUN)/$(1)
	$(EXPAND) $(COMMON) $(call rows_args,$(2)) --queries $(DATA) --size $(3) $(EXPAND_FLAGS) --out $$@
$(RUN)/$(1)/ranked.mp: $(RUN)/$(1)/expansions.mp
	$(RERANK) $(COMMON) $(call rows_args,$(2)) $(RERANK_FLAGS) --out $$@ $$<
$(RUN)/$(1)/report.mp: $(RUN)/$(1)/ranked.mp
	$(EVALUATE) $(COMMON) --gt $(DATA) --out $$@ $(1)=$$<
endef
# phase 2 (before contrastive training): seeds + 200
$(eval $(call expand_rules,phase2,$(RUN)/ensemble-mlm.mp,$(SIZE_PHASE2),phase2))
$(eval $(call expand_rules,phase2-single,$(RUN)/$(ROWS)-mlm-1.mp,$(SIZE_PHASE2),phase2))
# final rankings of the four variants: seeds + 100
ifeq ($(PROTOCOL),inductive)
# each query expanded and refined on its own, from the index (query --queries): no dists
define query_rules
$(RUN)/$(1)/ranked.mp: $(RUN)/index.mp $(RUN)/params-patterns.txt $(RUN)/params-cl.txt $(RUN)/params-select.txt $(RUN)/params-final.txt $(RUN)/params-query.txt
	@mkdir -p $(RUN)/$(1)
	$(QUERY) $(COMMON) --index $$< --queries $(DATA) --variant $(1) --size $(SIZE_FINAL) --phase2-size $(SIZE_PHASE2) \
	  --models $(K) --top $(TOPK) --feature-fraction $(PATTERN_FRACTION) --subset-seed $(SEED) $(CL_FLAGS) $(QUERY_FLAGS) --out $$@
$(RUN)/$(1)/report.mp: $(RUN)/$(1)/ranked.mp
	$(EVALUATE) $(COMMON) --gt $(DATA) --out $$@ $(1)=$$<
endef
$(foreach v,noclen nocl noen full,$(eval $(call query_rules,$(v))))
else
$(eval $(call expand_rules,noclen,$(RUN)/$(ROWS)-mlm-1.mp,$(SIZE_FINAL),final))
$(eval $(call expand_rules,nocl,$(RUN)/ensemble-mlm.mp,$(SIZE_FINAL),final))
$(eval $(call expand_rules,noen,$(RUN)/$(ROWS)-noen-cl.mp,$(SIZE_FINAL),final))
$(eval $(call expand_rules,full,$(RUN)/ensemble-cl.mp,$(SIZE_FINAL),final))
endif

# ---- phase 3: pairs from a phase-2 ranking, contrastive models ----
$(RUN)/pairs.mp: $(RUN)/phase2/ranked.mp $(RUN)/samples.mp $(RUN)/params-cl.txt
	$(BUILD_SAMPLES) $(COMMON) --contrastive --ranked $< --queries $(DATA) --samples $(RUN)/samples.mp $(PAIRS_FLAGS) --out $@
$(RUN)/pairs-single.mp: $(RUN)/phase2-single/ranked.mp $(RUN)/samples.mp $(RUN)/params-cl.txt
	$(BUILD_SAMPLES) $(COMMON) --contrastive --ranked $< --queries $(DATA) --samples $(RUN)/samples.mp $(PAIRS_FLAGS) --out $@
CL_ARGS = $(TRAIN_ARGS) --epochs $(CL_EPOCHS) --preset $(PRESET) $(CL_FLAGS)
$(RUN)/cl-%/final/model.safetensors: $(RUN)/pairs.mp $(RUN)/samples.mp $(ENCODER_DEP) $(RUN)/params-train.txt $(RUN)/params-cl.txt
	$(TRAIN_CL) $(CL_ARGS) --pairs $< --seed $$(( $(SEED) * 1000 + $* )) --cache $(RUN)/prefix-cache.mp --out $(RUN)/cl-$*
$(RUN)/noen-cl/final/model.safetensors: $(RUN)/pairs-single.mp $(RUN)/samples.mp $(ENCODER_DEP) $(RUN)/params-train.txt $(RUN)/params-cl.txt
	$(TRAIN_CL) $(CL_ARGS) --pairs $< --seed $$(( $(SEED) * 1000 + 1 )) --cache $(RUN)/prefix-cache.mp --out $(RUN)/noen-cl

# ---- named targets ----
ifeq ($(ENCODER),patterns)
phase1: $(foreach k,$(SEEDS),$(RUN)/$(ROWS)-mlm-$(k).mp)
phase3: $(foreach k,$(SEEDS),$(RUN)/$(ROWS)-cl-$(k).mp)
else
phase1: $(foreach k,$(SEEDS),$(RUN)/mlm-$(k)/final/model.safetensors)
phase3: $(foreach k,$(SEEDS),$(RUN)/cl-$(k)/final/model.safetensors)
endif
DEFAULT_VARIANT = full
VARIANTS ?= noclen noen nocl full
phase4 full: $(RUN)/full/report.mp
noen: $(RUN)/noen/report.mp
phase2: $(RUN)/phase2/ranked.mp
noclen: $(RUN)/noclen/report.mp
nocl: $(RUN)/nocl/report.mp
default: $(RUN)/$(DEFAULT_VARIANT)/report.mp
ablation: $(foreach v,$(VARIANTS),$(RUN)/$(v)/ranked.mp)
	$(EVALUATE) $(COMMON) --gt $(DATA) --out $(RUN)/ablation.mp $(foreach v,$(VARIANTS),ProbExpan-$(v)=$(RUN)/$(v)/ranked.mp)
# show: the MAP table of one variant and the top lists of three queries, for a person
SHOW ?= $(DEFAULT_VARIANT)
show: $(RUN)/$(SHOW)/ranked.mp
	$(EVALUATE) --quiet --gt $(DATA) --show 3 --show-top 15 ProbExpan-$(SHOW)=$<
# deletes RUN only when the pipeline created it (its marker is there) and it is no symlink
clean-run:
	@if [ ! -e '$(RUN)' ]; then echo "clean-run: $(RUN) does not exist"; \
	elif [ -d '$(RUN)' ] && [ ! -L '$(RUN)' ] && [ -f '$(RUN_MARKER)' ]; then rm -rf -- '$(RUN)' && echo "clean-run: removed $(RUN)"; \
	else echo "clean-run: refusing to delete $(RUN): this pipeline did not create it (no .probexpan-run in it)" >&2; exit 1; fi
endif
