# model-transformer.mk — the pipeline's entity model with ENCODER=transformer: a small BERT of
# ENCODER_* trained from scratch with the paper's recipe (encoder.mk) on a WordPiece vocabulary
# learned from the corpus; its configuration is written to $(RUN)/config.json.

## encoder layers
ENCODER_LAYERS ?= 4
## encoder hidden size
ENCODER_HIDDEN ?= 256
## attention heads
ENCODER_HEADS  ?= 4
## feed-forward size
ENCODER_FFN    ?= 1024
## maximum positions (also the samples' wordpiece limit)
ENCODER_MAXPOS ?= 512

VOCAB_ARGS     = --learn-vocab $(VOCAB_SIZE) --vocab-out $(RUN)/vocab.txt
MAX_WORDPIECES = $(ENCODER_MAXPOS)
ENCODER_SRC    = --config $(RUN)/config.json
MODEL_DEPS     = $(RUN)/config.json
include $(PIPELINES)encoder.mk

$(eval $(call stamp,encoder,"L=$(ENCODER_LAYERS)" "H=$(ENCODER_HIDDEN)" "A=$(ENCODER_HEADS)" "FFN=$(ENCODER_FFN)" "P=$(ENCODER_MAXPOS)" "V=$(VOCAB_SIZE)"))
$(RUN)/config.json: $(RUN)/params-encoder.txt $(RUN)/corpus.mp
	printf '{"model_type":"bert","architectures":["BertModel"],"hidden_act":"gelu","vocab_size":%d,"hidden_size":%d,"num_hidden_layers":%d,"num_attention_heads":%d,"intermediate_size":%d,"max_position_embeddings":%d,"type_vocab_size":2,"layer_norm_eps":1e-12,"initializer_range":0.02,"pad_token_id":0}\n' \
	  $$(wc -l < $(RUN)/vocab.txt) $(ENCODER_HIDDEN) $(ENCODER_LAYERS) $(ENCODER_HEADS) $(ENCODER_FFN) $(ENCODER_MAXPOS) > $@.new.$$$$ && mv -f $@.new.$$$$ $@
