/* checkpoint: a trained model directory in HuggingFace layout (docs/design.md §4):
 *   DIR/config.json        bert_config (HF BertModel fields + "probexpan" block)
 *   DIR/vocab.txt          copied from the given vocabulary file
 *   DIR/model.safetensors  the encoder under HF names (no "bert." prefix), then
 *                          "head.0.*", "head.2.*" (entity head), "projection_head.*"
 * so the encoder loads back here (bert_load_dir, entity_head_load_safetensors) and into
 * HF tools (BertModel.from_pretrained ignores the extra tensors).
 * Every file is written to a temporary name and renamed; DIR is created if missing. */
#ifndef PROBEXPAN_CHECKPOINT_H
#define PROBEXPAN_CHECKPOINT_H

#include "nn/bert.h"
#include "nn/param.h"
#include "format/safetensors.h"

/* Saves cfg, vocab (NULL: no vocab.txt) and every tensor of the given lists as F32, plus
 * `extra` raw entries (e.g. the I64 BatchNorm num_batches_tracked). */
void checkpoint_save(const char *dir, const bert_config *cfg, const char *vocab_path,
                     param_list *const *lists, int nlists, const safetensors_entry *extra,
                     int nextra);
/* Loads every tensor of l from an open file by exact name; returns how many were found.
 * A found tensor with the wrong shape or dtype exits 3. If required and one is missing,
 * exits 3 naming it. */
int checkpoint_load_list(param_list *l, const safetensors *st, int required);

#endif
