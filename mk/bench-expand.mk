# make bench-expand: 100 expansions of one query on synthetic dists with V_e = 30,000
# (a 3.6 GB artifact, generated and deleted) and V_e = 1,800 (mini-ese size); prints the
# window-search time (goal: < 1 s on one core) and the whole expand run.
# BENCH_EXPAND_DIR: where the temporary artifacts go (default /tmp; needs ~4 GB free).
# BENCH_EXPAND_SIZES: the V_e values to run (default "1800 30000").
BENCH_EXPAND_DIR ?= /tmp
BENCH_EXPAND_SIZES ?= 1800 30000
$(BUILD)/bench/gen_dists: dev/bench/gen_dists.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(LIB) $(LDLIBS)
## 100 expansions of one query on synthetic dists (V_e = 1,800 and 30,000)
bench-expand: $(BUILD)/bench/gen_dists $(BIN)/expand
	bash dev/bench/bench-expand.sh $(CURDIR)/$(BUILD)/bench/gen_dists $(CURDIR)/$(BIN) $(BENCH_EXPAND_DIR) $(BENCH_EXPAND_SIZES)
