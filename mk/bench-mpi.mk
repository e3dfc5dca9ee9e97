# make bench-mpi: 1 process vs 2 MPI ranks on this machine (dev/bench/bench-mpi.sh) for the
# frozen-prefix cache, a training epoch and inference, small config, WordNet example dataset;
# each phase timed on its own, start-up apart, with an idle-machine estimate from CPU times.
# BENCH_MPI_SENTENCES: the sentences of the example used (0 = all); BENCH_MPI_CAP: samples per
# entity kept (the cache covers them all); BENCH_MPI_INFER_SPE: samples per entity inferred;
# BENCH_MPI_MPIRUN: how the 2 ranks start. A benchmark, not a test.
BENCH_MPI_DIR       ?= /tmp/probexpan-bench-mpi
BENCH_MPI_SENTENCES ?= 6000
BENCH_MPI_CAP       ?= 4
BENCH_MPI_INFER_SPE ?= 2
BENCH_MPI_MPIRUN    ?= mpirun --allow-run-as-root -np 2
## 1 process vs 2 MPI ranks: prefix cache, a training epoch, inference (dev/bench/bench-mpi.sh)
bench-mpi: $(BIN)/tokenize $(BIN)/build-samples $(BIN)/train-mlm $(BIN)/infer example-data
	rm -rf $(BENCH_MPI_DIR)
	bash dev/bench/bench-mpi.sh $(CURDIR)/$(BIN) $(BENCH_MPI_DIR) $(CURDIR)/$(EXAMPLE_DATA) $(BENCH_MPI_SENTENCES) \
	  $(BENCH_MPI_CAP) $(BENCH_MPI_INFER_SPE) "$(BENCH_MPI_MPIRUN)"
