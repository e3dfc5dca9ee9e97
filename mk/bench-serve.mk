# make bench-serve: `probexpan serve` under load (dev/bench/bench-serve.sh): 30 cold noclen
# expansions and 3,000 autocomplete requests from one client, then 8 clients for 60 s against
# loopback, each repeating four autocomplete requests and one noclen expansion, then the full
# method with 2 clients for 30 s, then 4 clients for 30 s alone and again while 256 slow
# clients (2 x the connection capacity) trickle request heads; requests, errors, p50/p99 per
# kind, the p99 under attack over the p99 alone, the server's CPU time per request, RSS before,
# during and after. BENCH_SERVE_DATA / BENCH_SERVE_RUN: the corpus (wordnet-ese dev) and its
# run folder; BENCH_SERVE_ARGS: CLIENTS SECONDS FULL_SECONDS ATTACK_SECONDS.
BENCH_SERVE_DATA ?= ../shared/data/wordnet-ese/wordnet-ese-dev.tar.gz
BENCH_SERVE_RUN  ?= runs/bench-serve
BENCH_SERVE_ARGS ?= 8 60 30 30
$(BUILD)/bench/serve_load: dev/bench/serve_load.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(LDLIBS)
## `probexpan serve` under load and under 256 slow clients: requests, errors, p50/p99 per kind, RSS
bench-serve: $(BUILD)/bench/serve_load $(BIN)/serve $(BIN)/index
	bash dev/bench/bench-serve.sh $(CURDIR)/$(BIN) $(CURDIR)/$(BUILD)/bench/serve_load $(BENCH_SERVE_DATA) $(BENCH_SERVE_RUN) $(BENCH_SERVE_ARGS)
