# encoder.mk — the paper's entity model, a BERT encoder with an entity head, for the pipeline
# (included by model-bert.mk and model-transformer.mk, which set ENCODER_SRC and MODEL_DEPS).
# Phase 1 trains K models on masked-entity prediction (train-mlm), phase 3 K models with the
# contrastive loss as well (train-cl). Model selection reads only the query seeds' rows, so
# infer --rows-of writes each model's seed rows (a small dists-rows), score-models scores them,
# and one infer over the kept models writes their ensemble straight from the weights:
#   phase1/model-k/  phase1/seedrows-k.mp  phase1/scores.mp  phase1/ensemble.mp  (same in phase3/)
#   phase1/dists-1.mp                                (model 1 alone: noclen, noen's phase 2)
#   phase3-single/model/  phase3-single/dists.mp     (noen: pairs from model 1's own ranking)
#
# At most two dists files (4·V_e² bytes each) are on disk at once: no model's own dists is
# written for selection, and a dists is deleted once every ranking the goals ask for that reads
# it is made (RELEASE_DISTS in probexpan.mk); phase 3's dists wait for phase 1's to go. A later
# goal that needs a deleted dists has infer write it again.

## training epochs of phase 1 (masked-entity prediction)
EPOCHS  ?= 5
## samples per entity per epoch
SPE     ?= 256
## training batch (samples)
BATCH   ?= 128
## learning rate (empty: the stage's default for MODEL or the from-scratch config)
LR      ?=
## frozen bottom layers (empty: the stage's default)
F       ?=
## label smoothing of the masked-entity prediction (the paper's eta)
ETA     ?= 0.075
## more options for train-mlm and train-cl
TRAIN_FLAGS ?=
## training epochs of phase 3 (contrastive)
CL_EPOCHS ?= $(EPOCHS)
## train-cl's preset of the contrastive thresholds (wiki or apr)
PRESET    ?= wiki

$(eval $(call stamp,train,"EPOCHS=$(EPOCHS)" "SPE=$(SPE)" "BATCH=$(BATCH)" "LR=$(LR)" "F=$(F)" "ETA=$(ETA)" "FLAGS=$(TRAIN_FLAGS)"))
$(eval $(call stamp,cl-train,"CL_EPOCHS=$(CL_EPOCHS)" "PRESET=$(PRESET)"))

PROGRAM_VARIABLES += TRAIN_MLM TRAIN_CL INFER
PHASE1_MODELS = $(foreach k,$(MODEL_NUMBERS),$(RUN)/phase1/model-$(k)/final/model.safetensors)
PHASE3_MODELS = $(foreach k,$(MODEL_NUMBERS),$(RUN)/phase3/model-$(k)/final/model.safetensors)

TRAIN_ARGS = $(COMMON) --samples $(RUN)/samples.mp $(ENCODER_SRC) --batch $(BATCH) \
  --samples-per-entity $(SPE) --smoothing $(ETA) $(call opt,--lr,$(LR)) $(call opt,--frozen-layers,$(F)) $(TRAIN_FLAGS)
CL_ARGS = $(TRAIN_ARGS) --epochs $(CL_EPOCHS) --preset $(PRESET) $(CL_FLAGS)
CL_DEPS = $(RUN)/samples.mp $(MODEL_DEPS) $(RUN)/params-train.txt $(RUN)/params-cl.txt $(RUN)/params-cl-train.txt $(call uses,TRAIN_CL)

# ---- phase 1: K masked-entity models ----
$(RUN)/phase1/model-%/final/model.safetensors: $(RUN)/samples.mp $(MODEL_DEPS) $(RUN)/params-train.txt $(call uses,TRAIN_MLM)
	@mkdir -p $(RUN)/phase1
	$(TRAIN_MLM) $(TRAIN_ARGS) --epochs $(EPOCHS) --random-seed $(call model_seed,$*) --cache $(RUN)/prefix-cache.mp --out $(RUN)/phase1/model-$*

# ---- phase 3: K contrastive models, and model 1's for noen ----
$(RUN)/phase3/model-%/final/model.safetensors: $(RUN)/phase3/pairs.mp $(CL_DEPS)
	$(TRAIN_CL) $(CL_ARGS) --pairs $< --random-seed $(call model_seed,$*) --cache $(RUN)/prefix-cache.mp --out $(RUN)/phase3/model-$*
$(RUN)/phase3-single/model/final/model.safetensors: $(RUN)/phase3-single/pairs.mp $(CL_DEPS)
	$(TRAIN_CL) $(CL_ARGS) --pairs $< --random-seed $(call model_seed,1) --cache $(RUN)/prefix-cache.mp --out $(RUN)/phase3-single/model

# ---- inference: the seed rows of every model, the dists of model 1 and noen's model ----
INFER_MODEL = $(INFER) $(COMMON) --model $(<D) --samples $(RUN)/samples.mp
$(RUN)/phase1/seedrows-%.mp: $(RUN)/phase1/model-%/final/model.safetensors $(RUN)/samples.mp $(RUN)/params-text.txt $(call uses,INFER)
	$(INFER_MODEL) --rows-of $(DATA) --out $@
$(RUN)/phase3/seedrows-%.mp: $(RUN)/phase3/model-%/final/model.safetensors $(RUN)/samples.mp $(RUN)/params-text.txt $(call uses,INFER)
	$(INFER_MODEL) --rows-of $(DATA) --out $@
$(RUN)/phase1/dists-1.mp: $(RUN)/phase1/model-1/final/model.safetensors $(RUN)/samples.mp $(call uses,INFER)
	$(INFER_MODEL) --out $@
$(RUN)/phase3-single/dists.mp: $(RUN)/phase3-single/model/final/model.safetensors $(RUN)/samples.mp $(call uses,INFER)
	$(INFER_MODEL) --out $@

# ---- phases 1 and 3: the models scored on their seed rows; the kept ones' ensemble ----
# kept_models(scores): the folders of the models score-models kept, as infer's --model options
kept_models = $$($(INSPECT) $(1) | jq -r 'select(.models) | .models[] | select(.selected) | .path' | sed -e 's,seedrows-\([0-9]*\)\.mp$$,model-\1/final,' -e 's,^,--model ,')
# select_rules(phase)
define select_rules
$(RUN)/$(1)/scores.mp: $(foreach k,$(MODEL_NUMBERS),$(RUN)/$(1)/seedrows-$(k).mp) $(RUN)/params-select.txt $(call uses,SCORE_MODELS)
	$(SCORE_MODELS) $(COMMON) --queries $(DATA) --top $(TOPK) --out $$@ $$(filter %.mp,$$^)
$(RUN)/$(1)/ensemble.mp: $(RUN)/$(1)/scores.mp $(RUN)/samples.mp $(call uses,INFER)
	$(INFER) $(COMMON) --samples $(RUN)/samples.mp $$(call kept_models,$$<) --out $$@
endef
RELEASE_DISTS = 1
