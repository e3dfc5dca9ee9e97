# make bench-mpi: 1 process vs 2 MPI ranks on this machine (dev/bench/bench-mpi.sh) for the
# frozen-prefix cache, a training epoch and inference, small config, WordNet example dataset.
# BENCH_MPI_SPE: samples per entity of the measured epoch; BENCH_MPI_CAP: samples per entity
# kept from the corpus; BENCH_MPI_SENTENCES: the sentences of the example used. A benchmark, not a test.
BENCH_MPI_DIR ?= /tmp/probexpan-bench-mpi
BENCH_MPI_SPE ?= 2
BENCH_MPI_CAP ?= 2
BENCH_MPI_SENTENCES ?= 8000
bench-mpi: $(BIN)/tokenize $(BIN)/build-samples $(BIN)/train-mlm $(BIN)/infer example-data
	rm -rf $(BENCH_MPI_DIR)
	bash dev/bench/bench-mpi.sh $(CURDIR)/$(BIN) $(BENCH_MPI_DIR) $(CURDIR)/$(EXAMPLE_DATA) $(BENCH_MPI_SPE) $(BENCH_MPI_CAP) $(BENCH_MPI_SENTENCES)
