# ProbExpan-C build. `make` builds libprobexpan.a and every program into bin/;
# `make test` runs the suite; `make test-asan` the same under ASan+UBSan.
# New files are picked up automatically: common/*/*.c go into the library,
# stages/*.c become bin/<name>, tests/unit/test_*.c become test programs.

## where `make install` puts the programs
PREFIX   ?= /usr/local
## object files, the library, test programs
BUILD    ?= build
## the programs
BIN      ?= bin
## the C compiler
CC       ?= cc
DEPS_PKG := libarchive-dev libmsgpack-dev libopenblas-dev libsqlite3-dev libjansson-dev libutf8proc-dev libmicrohttpd-dev pkg-config wordnet-base jq libopenmpi-dev openmpi-bin
PKGS     := openblas msgpack libarchive jansson libutf8proc sqlite3 libmicrohttpd
# MPI (Open MPI) when installed: the MPI-capable stages then split their work across the
# ranks of `mpirun`; without it every program runs single-process (MPI=0 forces that).
MPI      ?= $(shell pkg-config --exists ompi-c 2>/dev/null && echo 1 || echo 0)
ifeq ($(MPI),1)
PKGS     += ompi-c
MPI_DEFS := -DPROBEXPAN_MPI
endif

## optimisation flags (NATIVE=1 adds -march=native)
OPT      ?= -O2
ifeq ($(NATIVE),1)
OPT      += -march=native
endif
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CFLAGS   ?= $(OPT) -g
CFLAGS   += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -pthread -Icommon $(MPI_DEFS) $(PKG_CFLAGS) $(EXTRA_CFLAGS)
LDLIBS   += $(PKG_LIBS) -lm -pthread

COMMON_SRC := $(wildcard common/*/*.c)
COMMON_OBJ := $(COMMON_SRC:common/%.c=$(BUILD)/common/%.o)
STAGE_SRC  := $(wildcard stages/*.c)
PROGRAMS   := $(STAGE_SRC:stages/%.c=$(BIN)/%)
TEST_SRC   := $(wildcard tests/unit/test_*.c)
TEST_PROGS := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
LIB        := $(BUILD)/libprobexpan.a

.PHONY: all deps help test test-asan fuzz install clean example ablation bench bench-text bench-encoder bench-train bench-cl bench-expand bench-patterns bench-mpi bench-serve bench-classes
## the library, every program into $(BIN)/, the unit test programs (the default)
all: $(PROGRAMS) $(TEST_PROGS)

$(BUILD)/common/%.o: common/%.c $(wildcard common/*/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<
$(LIB): $(COMMON_OBJ)
	@rm -f $@
	ar rcs $@ $^
$(BIN)/%: stages/%.c $(LIB)
	@mkdir -p $(BIN)
	$(CC) $(CFLAGS) -o $@ $< $(LIB) $(LDLIBS)
$(BUILD)/tests/%: tests/unit/%.c tests/unit/check.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/unit -o $@ $< $(LIB) $(LDLIBS)

## install the missing Debian packages (when root; otherwise say which)
deps:
	@missing=""; for p in $(DEPS_PKG); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then echo "installing:$$missing"; \
	    (apt-get update -qq || true) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else echo "missing Debian packages:$$missing -- run: sudo apt-get install$$missing" >&2; exit 1; fi; fi

## the test suite: unit, stage and pipeline tests
test: deps
	$(MAKE) all
	PROBEXPAN_BIN=$(CURDIR)/$(BIN) PROBEXPAN_TESTBIN=$(CURDIR)/$(BUILD)/tests bash tests/run.sh

## the test suite under AddressSanitizer + UBSan
test-asan: deps
	$(MAKE) all BUILD=build-asan BIN=bin-asan OPT="-O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
	ASAN_OPTIONS=detect_leaks=1 PROBEXPAN_ASAN=1 TEST_TIMEOUT=$${TEST_TIMEOUT:-1800} PROBEXPAN_BIN=$(CURDIR)/bin-asan PROBEXPAN_TESTBIN=$(CURDIR)/build-asan/tests bash tests/run.sh

## total seconds of fuzzing, shared equally by the targets (tests/fuzz/run.sh)
FUZZ_SECONDS ?= 30
## every libFuzzer target of tests/fuzz for FUZZ_SECONDS
fuzz: deps
	bash tests/fuzz/run.sh $(FUZZ_SECONDS)

## install probexpan and probexpan-<stage> into $(PREFIX)/bin
install: all
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BIN)/probexpan $(DESTDIR)$(PREFIX)/bin/probexpan
	for p in $(filter-out $(BIN)/probexpan,$(PROGRAMS)); do \
	  install -m 755 $$p $(DESTDIR)$(PREFIX)/bin/probexpan-$$(basename $$p); done
	install -d $(DESTDIR)$(PREFIX)/share/probexpan/web
	install -m 644 web/* $(DESTDIR)$(PREFIX)/share/probexpan/web/

## remove the build and the programs
clean:
	rm -rf build build-asan bin bin-asan

-include mk/*.mk

# ---- the main job: the whole ProbExpan pipeline on the WordNet example dataset ----
# Without BERT=: the from-scratch default, the pattern model (docs/method.md), ~40 s.
# ENCODER=transformer: the paper's recipe on a small encoder trained from scratch (~7–9 min
# on 2 cores, weak). BERT=/path/to/bert-base-uncased: the paper (F = 11).
## the example's run folder, and its pipeline variables for the pattern model, ENCODER=transformer and BERT=
EXAMPLE_RUN      ?= runs/example
EXAMPLE_SCHEDULE ?= K=3 TOPK=2 VOCAB_SIZE=8000
EXAMPLE_TRANSFORMER_SCHEDULE ?= ENCODER=transformer K=3 TOPK=2 EPOCHS=2 CL_EPOCHS=1 SPE=8 VOCAB_SIZE=8000 THREADS=1 \
  ENCODER_LAYERS=2 ENCODER_HIDDEN=128 ENCODER_HEADS=2 ENCODER_FFN=512 PAIRS_FLAGS=--pairs-per-set=8
EXAMPLE_BERT_SCHEDULE ?= K=3 TOPK=2 EPOCHS=5 SPE=256 THREADS=2
EXAMPLE_ARGS = DATA=$(EXAMPLE_DATA) RUN=$(EXAMPLE_RUN) $(if $(BERT),MODEL=$(BERT) $(EXAMPLE_BERT_SCHEDULE),$(if \
  $(filter transformer,$(ENCODER)),$(EXAMPLE_TRANSFORMER_SCHEDULE),$(EXAMPLE_SCHEDULE)))
, := ,
EXAMPLE_MODEL = $(if $(BERT),$(BERT),$(if $(filter transformer,$(ENCODER)),small transformer from scratch,pattern model: no encoder$(,) no pretraining))
PIPELINE = $(MAKE) --no-print-directory -f pipelines/probexpan.mk BIN=$(BIN)
## the whole pipeline on the WordNet example dataset (BERT=dir: a pretrained BERT; ENCODER=transformer)
example: deps
	$(MAKE) all example-data
	$(PIPELINE) -j2 $(EXAMPLE_ARGS) default
	@echo; echo "== ProbExpan on the WordNet example ($(EXAMPLE_MODEL)) =="
	@$(PIPELINE) $(EXAMPLE_ARGS) show

## the four variants on DATA (RUN=..., pipeline variables), one table
ablation: all
	$(PIPELINE) -j2 DATA=$(DATA) $(if $(RUN),RUN=$(RUN)) ablation

## every benchmark (bench-text bench-encoder bench-train bench-cl bench-expand bench-patterns bench-serve)
bench: bench-text bench-encoder bench-train bench-cl bench-expand bench-patterns bench-serve

## this list, then the pipeline's targets and variables
help:
	@awk -f mk/help.awk Makefile $(wildcard mk/*.mk)
	@echo; echo "Pipeline: make -f pipelines/probexpan.mk DATA=dataset [RUN=folder] [VARIABLE=value ...] TARGET"
	@$(MAKE) --no-print-directory -f pipelines/probexpan.mk DATA=dataset help
