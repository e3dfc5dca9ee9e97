# encoder.mk — the paper's entity model, a BERT encoder with an entity head, for the pipeline
# (included by model-bert.mk and model-transformer.mk, which set ENCODER_SRC and MODEL_DEPS).
# Phase 1 trains K models on masked-entity prediction (train-mlm), phase 3 K models with the
# contrastive loss as well (train-cl), and infer turns each model into its dists:
#   phase1/model-k/  phase1/dists-k.mp  phase3/model-k/  phase3/dists-k.mp
#   phase3-single/model/  phase3-single/dists.mp     (noen: pairs from model 1's own ranking)

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

PHASE1_MODELS = $(foreach k,$(MODEL_NUMBERS),$(RUN)/phase1/model-$(k)/final/model.safetensors)
PHASE3_MODELS = $(foreach k,$(MODEL_NUMBERS),$(RUN)/phase3/model-$(k)/final/model.safetensors)

TRAIN_ARGS = $(COMMON) --samples $(RUN)/samples.mp $(ENCODER_SRC) --batch $(BATCH) \
  --samples-per-entity $(SPE) --smoothing $(ETA) $(call opt,--lr,$(LR)) $(call opt,--frozen-layers,$(F)) $(TRAIN_FLAGS)
CL_ARGS = $(TRAIN_ARGS) --epochs $(CL_EPOCHS) --preset $(PRESET) $(CL_FLAGS)
CL_DEPS = $(RUN)/samples.mp $(MODEL_DEPS) $(RUN)/params-train.txt $(RUN)/params-cl.txt $(RUN)/params-cl-train.txt

# ---- phase 1: K masked-entity models ----
$(RUN)/phase1/model-%/final/model.safetensors: $(RUN)/samples.mp $(MODEL_DEPS) $(RUN)/params-train.txt
	@mkdir -p $(RUN)/phase1
	$(TRAIN_MLM) $(TRAIN_ARGS) --epochs $(EPOCHS) --random-seed $(call model_seed,$*) --cache $(RUN)/prefix-cache.mp --out $(RUN)/phase1/model-$*

# ---- phase 3: K contrastive models, and model 1's for noen ----
$(RUN)/phase3/model-%/final/model.safetensors: $(RUN)/phase3/pairs.mp $(CL_DEPS)
	$(TRAIN_CL) $(CL_ARGS) --pairs $< --random-seed $(call model_seed,$*) --cache $(RUN)/prefix-cache.mp --out $(RUN)/phase3/model-$*
$(RUN)/phase3-single/model/final/model.safetensors: $(RUN)/phase3-single/pairs.mp $(CL_DEPS)
	$(TRAIN_CL) $(CL_ARGS) --pairs $< --random-seed $(call model_seed,1) --cache $(RUN)/prefix-cache.mp --out $(RUN)/phase3-single/model

# ---- inference: one dists per model ----
INFER_MODEL = $(INFER) $(COMMON) --model $(<D) --samples $(RUN)/samples.mp --out $@
$(RUN)/phase1/dists-%.mp: $(RUN)/phase1/model-%/final/model.safetensors $(RUN)/samples.mp
	$(INFER_MODEL)
$(RUN)/phase3/dists-%.mp: $(RUN)/phase3/model-%/final/model.safetensors $(RUN)/samples.mp
	$(INFER_MODEL)
$(RUN)/phase3-single/dists.mp: $(RUN)/phase3-single/model/final/model.safetensors $(RUN)/samples.mp
	$(INFER_MODEL)
