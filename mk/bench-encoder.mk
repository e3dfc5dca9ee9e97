# make bench-encoder: throughput of the encoder core (dev/bench/bench_encoder.c) for the
# small and BERT-base shapes, against ../shared/peer/torch-cpu.jsonl. A benchmark, not a
# test. BENCH_ENCODER_ARGS e.g. "--seconds 20 --threads 2 --config bert-base".
BENCH_ENCODER_ARGS ?= --seconds 10 --threads 2
$(BUILD)/bench/bench_encoder: dev/bench/bench_encoder.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(LIB) $(LDLIBS)
## throughput of the encoder core, small and BERT-base shapes
bench-encoder: $(BUILD)/bench/bench_encoder
	$(BUILD)/bench/bench_encoder $(BENCH_ENCODER_ARGS)
