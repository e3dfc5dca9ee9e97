# probexpan.mk — the ProbExpan method as make targets (docs/design.md §1, §5).
#
#   make -f pipelines/probexpan.mk DATA=path/to/dataset.tar.gz RUN=runs/x [K=3 TOPK=2 ...] full
#   make -f pipelines/probexpan.mk DATA=x help      # the targets and variables
#
# Every artifact is a file in $(RUN), named by the phase that makes it; every recipe is one
# stage. `make -j2` builds the K models of a phase in parallel, and re-running after changing a
# variable redoes only what depends on it: each artifact also depends on $(RUN)/params-<group>.txt,
# rewritten only when that group's variables change. All runs are recorded in
# $(RUN)/catalog.sqlite.
#
#   text     corpus.mp (tokenize), samples.mp (build-samples); index.mp (index: the corpus
#            index `probexpan query` and `serve` answer any seed set from)
#   phase 1  K entity models -> phase1/dists-k.mp (the pattern model's index path:
#            phase1/model-k.mp; the encoders: phase1/seedrows-k.mp, the query seeds' rows);
#            selection + ensemble -> phase1/ensemble.mp
#   phase 2  expansion of the ensemble (seeds + SIZE_PHASE2), re-ranked -> phase2/ranked.mp
#   phase 3  contrastive pairs from phase 2's ranking -> phase3/pairs.mp; K refined models ->
#            phase3/dists-k.mp; selection + ensemble -> phase3/ensemble.mp
#   phase 4  expansion (seeds + SIZE_FINAL), re-ranked, evaluated -> full/report.mp
#
# PROTOCOL=transductive (the default, the paper's) runs the phases above over every query of the
# dataset at once; PROTOCOL=inductive (the pattern model only) expands, refines and ranks each
# query on its own from the corpus index (query --queries): no dists, no pairs files.
#
# Variants (paper Table 4), each a folder with expansions.mp, ranked.mp, report.mp: noclen (model
# 1, no contrastive phase), noen (model 1 refined on pairs from its own ranking: phase2-single/,
# phase3-single/), nocl (the phase-1 ensemble), full. `ablation` evaluates all four in one table.
#
# The entity model is one included file: model-bert.mk (MODEL=dir, a pretrained BERT: the
# paper), model-transformer.mk (ENCODER=transformer: a small BERT trained from scratch with the
# paper's recipe) or model-patterns.mk (ENCODER=patterns, the default: the pattern model, no
# encoder). Each defines how the text is tokenized and how phase 1 and phase 3 make
# phase1/$(ROWS)-%.mp, phase3/$(ROWS)-%.mp and phase3-single/$(ROWS).mp (ROWS: dists, or model
# for the pattern model's patmodels over the index); the encoders make phase1/dists-1.mp and
# their own select_rules, from the models' seed rows, and keep at most two dists files on disk
# at once (encoder.mk, RELEASE_DISTS below).

PIPELINE_MK := $(lastword $(MAKEFILE_LIST))
PIPELINES := $(dir $(PIPELINE_MK))

## a dataset folder or archive
DATA   ?= $(error set DATA to a dataset folder or archive)
## the run folder: every artifact and the catalog
RUN    ?= runs/$(basename $(basename $(notdir $(DATA))))
## where the stage programs are
BIN    ?= bin
## a pretrained BERT folder (config.json, vocab.txt, model.safetensors); sets ENCODER=bert
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
## the entity model without MODEL: patterns or transformer
ENCODER ?= patterns
ifneq ($(strip $(MODEL)),)
override ENCODER := bert
endif
ifeq ($(filter $(ENCODER),patterns transformer bert),)
$(error ENCODER must be patterns or transformer (or set MODEL for a pretrained BERT), not '$(ENCODER)')
endif
## transductive (every query at once, the paper's) or inductive (each query on its own, from the index)
PROTOCOL ?= transductive
ifeq ($(filter $(PROTOCOL),transductive inductive),)
$(error PROTOCOL must be transductive or inductive, not '$(PROTOCOL)')
endif
ifneq ($(PROTOCOL)-$(ENCODER),inductive-patterns)
ifeq ($(PROTOCOL),inductive)
$(error PROTOCOL=inductive needs the pattern model (the encoders refine by training: use the transductive pipeline))
endif
endif
## size of the WordPiece vocabulary learned from the corpus when MODEL is not set
VOCAB_SIZE ?= 8000
## entity models per phase (the paper's K)
K       ?= 3
## models kept by score-models' selection
TOPK    ?= 2
## base random seed; model k uses RANDOM_SEED*1000+k
RANDOM_SEED ?= 1
## worker threads of every stage (0 = all cores)
THREADS ?= 0
## more options for the contrastive phase's stage (train-cl, or pattern-dists --pairs)
CL_FLAGS  ?=
## more options for build-pairs (e.g. --pairs-per-set=8)
PAIRS_FLAGS ?=
## entities added to the seeds by phase 2's expansion
SIZE_PHASE2 ?= 200
## entities added to the seeds by the final expansion
SIZE_FINAL  ?= 100
## more options for expand
EXPAND_FLAGS ?=
## more options for tokenize (e.g. --embedded-share 0: every mention, as the paper reads a corpus)
TOKENIZE_FLAGS ?=
## more options for the index stage (e.g. --bag 4)
INDEX_FLAGS ?=
## more options for query --queries (PROTOCOL=inductive)
QUERY_FLAGS ?=

## prefix of the stages that split their work across MPI ranks (train-mlm, train-cl and infer
## of the encoder models), e.g. "mpirun -np 8 --hostfile hosts"; empty = one process
MPIRUN        ?=

## the programs of the stages; point one at another binary to swap the stage
TOKENIZE      ?= $(BIN)/tokenize
PATTERN_DISTS ?= $(BIN)/pattern-dists
PATTERN_MODEL ?= $(BIN)/pattern-model
BUILD_SAMPLES ?= $(BIN)/build-samples
BUILD_PAIRS   ?= $(BIN)/build-pairs
TRAIN_MLM     ?= $(MPIRUN) $(BIN)/train-mlm
TRAIN_CL      ?= $(MPIRUN) $(BIN)/train-cl
INFER         ?= $(MPIRUN) $(BIN)/infer
SCORE_MODELS  ?= $(BIN)/score-models
EXPAND        ?= $(BIN)/expand
RERANK        ?= $(BIN)/rerank
EVALUATE      ?= $(BIN)/evaluate
INDEX         ?= $(BIN)/index
QUERY         ?= $(BIN)/query
## inspect, whose JSON names the models score-models kept (the encoders)
INSPECT       ?= $(BIN)/inspect
# the programs whose digests are stamps (program_stamp below); the model's file adds its own
PROGRAM_VARIABLES = TOKENIZE BUILD_SAMPLES INDEX SCORE_MODELS EXPAND RERANK EVALUATE QUERY BUILD_PAIRS

# ---- one pipeline at a time in a run folder ----
# make is re-run under an exclusive flock(1) of the RUN folder: a second pipeline started on
# the same RUN (another terminal, another `make -j`) says so and waits until the first ends,
# then finds up to date what the first built. Without the lock both would write the same
# artifacts and stamps at once. PROBEXPAN_RUN_LOCK names the folder the inner make holds;
# `help` alone needs no lock.
ifneq ($(PROBEXPAN_RUN_LOCK),$(abspath $(RUN)))
ifneq ($(filter-out help,$(or $(MAKECMDGOALS),default)),)
RUN_UNLOCKED := 1
endif
endif
ifdef RUN_UNLOCKED
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
MODEL_NUMBERS := $(shell seq 1 $(K))
COMMON  := --threads $(THREADS)
opt      = $(if $(strip $(2)),$(1) $(strip $(2)))
# model_seed(k): the seed of model k, as a shell expression
model_seed = $$(( $(RANDOM_SEED) * 1000 + $(1) ))

.PHONY: default full noclen noen nocl ablation index phase1 phase2 phase3 phase4 show clean-run help FORCE
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
# program_stamp(VARIABLE): a stage's program is a parameter too: params-program-VARIABLE.txt
# holds the SHA-256 of the file the variable runs (its last word, found on PATH if need be): so
# an upgraded program re-runs its stages and their dependants, and a rebuild that yields the
# same bytes re-runs nothing. uses(VARIABLE) is that stamp, a prerequisite of the stage.
program_digest = $(firstword $(shell p=$$(command -v '$(lastword $(1))' 2>/dev/null) && sha256sum < "$$p" 2>/dev/null) missing)
program_stamp  = $(call stamp,program-$(1),"sha256=$(call program_digest,$($(1)))")
uses           = $(RUN)/params-program-$(1).txt

# ---- the entity model: VOCAB_ARGS, MAX_WORDPIECES, MODEL_DEPS, PHASE1_MODELS, PHASE3_MODELS
# and the rules for phase1/$(ROWS)-%.mp, phase3/$(ROWS)-%.mp, phase3-single/$(ROWS).mp. ROWS is
# what a model is stored as (dists; the pattern model's index path: model, a patmodel over the
# index), rows_args(file) how expand and rerank read it, SELECT_ARGS what score-models adds ----
ROWS        = dists
rows_args   = --dists $(1)
SELECT_ARGS =
include $(PIPELINES)model-$(ENCODER).mk

## more options for rerank (the pattern model defaults to --official)
RERANK_FLAGS ?=

# the dataset's contents are a parameter of every stage: a dataset rebuilt in place (a folder's
# files, or the archive) re-runs the run from tokenize on (their names, sizes and times)
data_files = $(if $(wildcard $(DATA)/.),$(wildcard $(DATA)/entity2id.txt $(DATA)/sentences.json $(DATA)/query/*.txt $(DATA)/gt/*.txt),$(DATA))
data_state = $(firstword $(shell stat -L -c '%n %s %Y' $(data_files) 2>/dev/null | sha256sum))
$(eval $(call stamp,text,"DATA=$(DATA)" "DATA_STATE=$(data_state)" "MODEL=$(MODEL)" "VOCAB_SIZE=$(VOCAB_SIZE)" "FLAGS=$(TOKENIZE_FLAGS)"))
$(eval $(call stamp,samples,"MAX_WORDPIECES=$(MAX_WORDPIECES)"))
$(eval $(call stamp,select,"TOPK=$(TOPK)"))
$(eval $(call stamp,pairs,"FLAGS=$(PAIRS_FLAGS)"))
$(eval $(call stamp,index,"FLAGS=$(INDEX_FLAGS)"))
$(eval $(call stamp,cl,"FLAGS=$(CL_FLAGS)"))
$(eval $(call stamp,query,"FLAGS=$(QUERY_FLAGS)"))
$(eval $(call stamp,phase2,"SIZE=$(SIZE_PHASE2)" "E=$(EXPAND_FLAGS)" "R=$(RERANK_FLAGS)"))
$(eval $(call stamp,final,"SIZE=$(SIZE_FINAL)" "E=$(EXPAND_FLAGS)" "R=$(RERANK_FLAGS)"))
$(foreach v,$(PROGRAM_VARIABLES),$(eval $(call program_stamp,$(v))))

# ---- text: the corpus and one masked sample per (entity, sentence) ----
$(RUN)/corpus.mp: $(RUN)/params-text.txt $(call uses,TOKENIZE)
	$(TOKENIZE) $(COMMON) $(DATA) $(VOCAB_ARGS) $(TOKENIZE_FLAGS) --out $@
$(RUN)/samples.mp: $(RUN)/corpus.mp $(RUN)/params-samples.txt $(call uses,BUILD_SAMPLES)
	$(BUILD_SAMPLES) $(COMMON) --corpus $< --max-wordpieces $(MAX_WORDPIECES) --out $@

# ---- the corpus index (pattern model): what `query` and `serve` answer any seed set from ----
$(RUN)/index.mp: $(RUN)/samples.mp $(RUN)/params-index.txt $(call uses,INDEX)
	$(INDEX) $(COMMON) --samples $< $(INDEX_FLAGS) --out $@

# ---- phases 1 and 3: selection + ensemble of the K models' distributions (the model's file
# may define its own select_rules: the encoders score seed rows and infer the ensemble) ----
ifndef select_rules
# select_rules(phase)
define select_rules
$(RUN)/$(1)/ensemble.mp: $(foreach k,$(MODEL_NUMBERS),$(RUN)/$(1)/$(ROWS)-$(k).mp) $(RUN)/params-select.txt $(call uses,SCORE_MODELS)
	$(SCORE_MODELS) $(COMMON) $(SELECT_ARGS) --queries $(DATA) --top $(TOPK) --ensemble $$@ --out $(RUN)/$(1)/scores.mp $$(filter %.mp,$$^)
endef
endif
$(eval $(call select_rules,phase1))
$(eval $(call select_rules,phase3))

# ---- phases 2 and 4: expansion + re-ranking: $(RUN)/<name>/expansions.mp from a model's rows ----
# expand_rules(name, dists or patmodel, size, stamp group); users_of_FILE: the names reading FILE
define expand_rules
users_of_$(2) += $(1)
$(RUN)/$(1)/expansions.mp: $(2) $(RUN)/params-$(4).txt $(call uses,EXPAND)
	@mkdir -p $(RUN)/$(1)
	$(EXPAND) $(COMMON) $(call rows_args,$(2)) --queries $(DATA) --size $(3) $(EXPAND_FLAGS) --out $$@
$(RUN)/$(1)/ranked.mp: $(RUN)/$(1)/expansions.mp $(call uses,RERANK)
	$(RERANK) $(COMMON) $(call rows_args,$(2)) $(RERANK_FLAGS) --out $$@ $$<
	$$(call release,$(2))
$(RUN)/$(1)/report.mp: $(RUN)/$(1)/ranked.mp $(call uses,EVALUATE)
	$(EVALUATE) $(COMMON) --gt $(DATA) --out $$@ $(1)=$$<
endef
# phase 2: seeds + SIZE_PHASE2, from the ensemble (and, for noen, from model 1 alone)
$(eval $(call expand_rules,phase2,$(RUN)/phase1/ensemble.mp,$(SIZE_PHASE2),phase2))
$(eval $(call expand_rules,phase2-single,$(RUN)/phase1/$(ROWS)-1.mp,$(SIZE_PHASE2),phase2))
# phase 4: the final rankings of the four variants, seeds + SIZE_FINAL
ifeq ($(PROTOCOL),inductive)
# each query expanded and refined on its own, from the index (query --queries): no dists
define query_rules
$(RUN)/$(1)/ranked.mp: $(RUN)/index.mp $(RUN)/params-patterns.txt $(RUN)/params-cl.txt $(RUN)/params-select.txt $(RUN)/params-final.txt $(RUN)/params-query.txt $(call uses,QUERY)
	@mkdir -p $(RUN)/$(1)
	$(QUERY) $(COMMON) --index $$< --queries $(DATA) --variant $(1) --size $(SIZE_FINAL) --phase2-size $(SIZE_PHASE2) \
	  --models $(K) --top $(TOPK) --feature-fraction $(PATTERN_FRACTION) --random-seed $(RANDOM_SEED) $(CL_FLAGS) $(QUERY_FLAGS) --out $$@
$(RUN)/$(1)/report.mp: $(RUN)/$(1)/ranked.mp $(call uses,EVALUATE)
	$(EVALUATE) $(COMMON) --gt $(DATA) --out $$@ $(1)=$$<
endef
$(foreach v,noclen nocl noen full,$(eval $(call query_rules,$(v))))
else
$(eval $(call expand_rules,noclen,$(RUN)/phase1/$(ROWS)-1.mp,$(SIZE_FINAL),final))
$(eval $(call expand_rules,nocl,$(RUN)/phase1/ensemble.mp,$(SIZE_FINAL),final))
$(eval $(call expand_rules,noen,$(RUN)/phase3-single/$(ROWS).mp,$(SIZE_FINAL),final))
$(eval $(call expand_rules,full,$(RUN)/phase3/ensemble.mp,$(SIZE_FINAL),final))
endif

# ---- phase 3: contrastive pairs from a phase-2 ranking ----
# pairs_rule(phase-2 ranking folder, phase-3 folder)
define pairs_rule
$(RUN)/$(2)/pairs.mp: $(RUN)/$(1)/ranked.mp $(RUN)/samples.mp $(RUN)/params-pairs.txt $(call uses,BUILD_PAIRS)
	@mkdir -p $(RUN)/$(2)
	$(BUILD_PAIRS) $(COMMON) --ranked $$< --queries $(DATA) --samples $(RUN)/samples.mp $(PAIRS_FLAGS) --out $$@
endef
$(eval $(call pairs_rule,phase2,phase3))
$(eval $(call pairs_rule,phase2-single,phase3-single))

# ---- named targets ----
## the variants `ablation` evaluates
VARIANTS ?= noclen noen nocl full
## phase 1: the K entity models
phase1: $(PHASE1_MODELS)
## phase 2: the expansion of the phase-1 ensemble, re-ranked
phase2: $(RUN)/phase2/ranked.mp
## phase 3: the K models refined on the contrastive pairs
phase3: $(PHASE3_MODELS)
## phase 4 = full: ProbExpan, evaluated
phase4 full: $(RUN)/full/report.mp
## ProbExpan without ensemble: model 1, refined on pairs from its own ranking
noen: $(RUN)/noen/report.mp
## ProbExpan without contrastive phase and ensemble: model 1
noclen: $(RUN)/noclen/report.mp
## ProbExpan without contrastive phase: the phase-1 ensemble
nocl: $(RUN)/nocl/report.mp
## the default variant (full)
default: $(RUN)/full/report.mp
## every variant of VARIANTS, evaluated in one table (ablation.mp)
ablation: $(foreach v,$(VARIANTS),$(RUN)/$(v)/ranked.mp)
	$(EVALUATE) $(COMMON) --gt $(DATA) --out $(RUN)/ablation.mp $(foreach v,$(VARIANTS),ProbExpan-$(v)=$(RUN)/$(v)/ranked.mp)
## the variant `show` prints
SHOW ?= full
## the MAP table of variant SHOW and the top lists of three queries, for a person
show: $(RUN)/$(SHOW)/ranked.mp
	$(EVALUATE) --quiet --gt $(DATA) --show 3 --show-top 15 ProbExpan-$(SHOW)=$<
# ---- at most two dists on disk (RELEASE_DISTS, set by the encoders' file): a dists is deleted
# by the last re-ranking that reads it among those the goals ask for, and phase 3's dists wait
# until phase 1's are gone. Goals other than the named ones (a file) keep every dists. ----
goal_folders_full     = phase2 full
goal_folders_default  = $(goal_folders_full)
goal_folders_phase4   = $(goal_folders_full)
goal_folders_noen     = phase2-single noen
goal_folders_noclen   = noclen
goal_folders_nocl     = nocl
goal_folders_phase2   = phase2
goal_folders_ablation = $(foreach v,$(VARIANTS),$(goal_folders_$(v)))
goal_folders_show     = $(goal_folders_$(SHOW))
RANKING_GOALS = full default phase4 noen noclen nocl phase2 ablation show
OTHER_GOALS   = $(filter-out $(RANKING_GOALS) phase1 phase3 index help clean-run,$(or $(MAKECMDGOALS),default))
# the folders whose rankings the goals make (KEEP: unknown, nothing is deleted)
WANTED_FOLDERS := $(if $(OTHER_GOALS),KEEP,$(sort $(foreach g,$(or $(MAKECMDGOALS),default),$(goal_folders_$(g)))))
# release(dists): deletes it when every wanted ranking that reads it exists
release = $(if $(and $(RELEASE_DISTS),$(filter-out KEEP,$(WANTED_FOLDERS))),@for f in $(foreach u,$(filter $(users_of_$(1)),$(WANTED_FOLDERS)),$(RUN)/$(u)/ranked.mp); do [ -e $$f ] || exit 0; done; rm -f -- $(1) && echo "probexpan.mk: deleted $(1): the rankings asked for that read it are made")
ifdef RELEASE_DISTS
PHASE1_DISTS_USERS := $(filter $(users_of_$(RUN)/phase1/$(ROWS)-1.mp) $(users_of_$(RUN)/phase1/ensemble.mp),$(WANTED_FOLDERS))
$(RUN)/phase3/ensemble.mp $(RUN)/phase3-single/$(ROWS).mp: | $(foreach u,$(PHASE1_DISTS_USERS),$(RUN)/$(u)/ranked.mp)
endif

## the corpus index that `probexpan query --run RUN` reads
index: $(RUN)/index.mp
## remove the run folder, only when the pipeline created it (its marker is there) and it is no symlink
clean-run:
	@if [ ! -e '$(RUN)' ]; then echo "clean-run: $(RUN) does not exist"; \
	elif [ -d '$(RUN)' ] && [ ! -L '$(RUN)' ] && [ -f '$(RUN_MARKER)' ]; then rm -rf -- '$(RUN)' && echo "clean-run: removed $(RUN)"; \
	else echo "clean-run: refusing to delete $(RUN): this pipeline did not create it (no .probexpan-run in it)" >&2; exit 1; fi
## this list
help:
	@awk -f $(PIPELINES)../mk/help.awk $(PIPELINES)probexpan.mk $(PIPELINES)encoder.mk $(wildcard $(PIPELINES)model-*.mk)
endif
