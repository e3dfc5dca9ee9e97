# model-bert.mk — the pipeline's entity model with MODEL=dir, a pretrained BERT (the paper):
# the tokenizer uses the model's vocabulary, samples are up to 512 wordpieces, and train-mlm /
# train-cl fine-tune the model (encoder.mk).

VOCAB_ARGS     = --vocab $(MODEL)/vocab.txt
MAX_WORDPIECES = 512
ENCODER_SRC    = --model $(MODEL)
MODEL_DEPS     =
include $(PIPELINES)encoder.mk
