# make bench-classes: the classes `probexpan classes` proposes before any seed, against the
# ground truth (dev/bench/bench-classes.sh): per gt class, the proposal whose top-10 members
# are most that class; found when >= 80 %. BENCH_CLASSES_DATA: the datasets (wordnet-ese dev,
# with glosses; reuters-ese dev, news without glosses); BENCH_CLASSES_RUNS: their run folders'
# parent.
BENCH_CLASSES_DATA ?= ../shared/data/wordnet-ese/wordnet-ese-dev.tar.gz ../shared/data/reuters-ese/reuters-ese-dev.tar.gz
BENCH_CLASSES_RUNS ?= runs/bench-classes
## the classes proposed before any seed vs the ground truth: classes found (top 10 >= 80 % one class)
bench-classes: $(BIN)/classes $(BIN)/index
	bash dev/bench/bench-classes.sh $(CURDIR)/$(BIN) $(BENCH_CLASSES_RUNS) $(BENCH_CLASSES_DATA)
