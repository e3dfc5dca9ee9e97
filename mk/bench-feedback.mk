# make bench-feedback: a simulated user on wordnet-ese dev (dev/bench/bench-feedback.sh) —
# after each round an oracle from the ground truth accepts the first 5 correct and rejects
# the first 5 wrong entities of the top 20 not judged yet, and `query` runs again with them
# as --accepted / --negative-seeds; prints MAP@10/20/50 after rounds 0..FEEDBACK_ROUNDS for
# this user and for a control that only removes what it judged, and the query times.
# BENCH_FEEDBACK_DATA: the dataset; BENCH_FEEDBACK_RUN: the run folder holding (or getting)
# its corpus index (default /tmp/bench-feedback). FEEDBACK_QUERY_OPTS (environment): more
# options of every query run, e.g. "--select 0"; FEEDBACK_RERUN_OPTS: more options of the runs
# with feedback only (rounds 1..), e.g. "--cl-steps-accepted 50".
BENCH_FEEDBACK_DATA ?= ../shared/data/wordnet-ese/wordnet-ese-dev.tar.gz
BENCH_FEEDBACK_RUN ?= /tmp/bench-feedback
FEEDBACK_ROUNDS ?= 2
.PHONY: bench-feedback
## a simulated user on wordnet-ese dev: MAP per feedback round against a control
bench-feedback: all
	$(MAKE) -s -f pipelines/probexpan.mk DATA=$(BENCH_FEEDBACK_DATA) RUN=$(BENCH_FEEDBACK_RUN) index
	bash dev/bench/bench-feedback.sh $(CURDIR)/$(BIN) $(BENCH_FEEDBACK_DATA) $(BENCH_FEEDBACK_RUN) $(FEEDBACK_ROUNDS)
