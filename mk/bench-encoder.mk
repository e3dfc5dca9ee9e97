# make bench-encoder: throughput of the encoder core (dev/bench/bench_encoder.c) for the
# small and BERT-base shapes, with the OpenBLAS core it runs (docs/blas.md), side by side with
# PyTorch: measured in the same run (dev/bench/bench_encoder_torch.py, same core) when
# BENCH_TORCH_PYTHON imports torch (Debian's python3-torch), else the stored figures of
# ../shared/peer/torch-cpu.jsonl. A benchmark, not a test.
## arguments of bench_encoder, e.g. "--seconds 20 --threads 1 --config bert-base"
BENCH_ENCODER_ARGS ?= --seconds 10 --threads 2
## the python3 that has torch for the side-by-side (Debian's python3-torch)
BENCH_TORCH_PYTHON ?= /usr/bin/python3
$(BUILD)/bench/bench_encoder: dev/bench/bench_encoder.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(LIB) $(LDLIBS)
## throughput of the encoder core, small and BERT-base shapes, against PyTorch
bench-encoder: $(BUILD)/bench/bench_encoder
	@if $(BENCH_TORCH_PYTHON) -c 'import torch' 2>/dev/null; then torch="--torch $(BENCH_TORCH_PYTHON)"; \
	else echo "# no torch in $(BENCH_TORCH_PYTHON) (apt-get install python3-torch): stored PyTorch figures"; torch=""; fi; \
	$(BUILD)/bench/bench_encoder $(BENCH_ENCODER_ARGS) $$torch
