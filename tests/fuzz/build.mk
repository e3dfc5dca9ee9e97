# build.mk: builds the libFuzzer targets for tests/fuzz/run.sh (clang, ASan+UBSan,
# coverage-instrumented common/ objects in $(FUZZ_OUT)/obj, linked from an archive
# so each target pulls in only the modules it uses). Incremental: only changed
# sources are recompiled (-MMD dependencies).
# Usage: make -f tests/fuzz/build.mk -j2 [FUZZ_OUT=dir]
FUZZ_OUT ?= build-fuzz
FUZZ_CC  ?= clang
PKGS     := msgpack openblas libarchive jansson libutf8proc sqlite3 libmicrohttpd
SAN      := -fsanitize=address,undefined -fno-sanitize-recover=undefined
CFLAGS_F := -g -O1 -fno-omit-frame-pointer $(SAN) -std=c11 -D_GNU_SOURCE -pthread -Icommon \
            $(shell pkg-config --cflags $(PKGS))
LIBS_F   := $(shell pkg-config --libs $(PKGS)) -lm -pthread

OBJS     := $(patsubst common/%.c,$(FUZZ_OUT)/obj/%.o,$(wildcard common/*/*.c))
TARGETS  := $(patsubst tests/fuzz/%.c,$(FUZZ_OUT)/%,$(wildcard tests/fuzz/fuzz_*.c))

.PHONY: all
all: $(TARGETS)

# Objects depend on the headers they include (-MMD), so a header edit elsewhere
# in the tree does not rebuild everything.
$(FUZZ_OUT)/obj/%.o: common/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CFLAGS_F) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<
-include $(OBJS:.o=.d)

$(FUZZ_OUT)/libfuzzcommon.a: $(OBJS)
	@rm -f $@
	ar rcs $@ $^

$(FUZZ_OUT)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OUT)/libfuzzcommon.a
	$(FUZZ_CC) $(CFLAGS_F) -Wall -Wextra -Werror -Wno-error=unused-but-set-variable -fsanitize=fuzzer \
	    -MMD -MP -o $@ $< $(FUZZ_OUT)/libfuzzcommon.a $(LIBS_F)
-include $(TARGETS:=.d)

# Regenerates the writer-made seeds of the committed corpora (tests/fuzz/gen_seeds.c).
.PHONY: seeds
seeds: $(FUZZ_OUT)/gen_seeds
	mkdir -p tests/fuzz/corpus-dists tests/fuzz/corpus-dists_rows
	$(FUZZ_OUT)/gen_seeds tests/fuzz
$(FUZZ_OUT)/gen_seeds: tests/fuzz/gen_seeds.c $(FUZZ_OUT)/libfuzzcommon.a
	$(FUZZ_CC) $(CFLAGS_F) -Wall -Wextra -Werror -o $@ $< $(FUZZ_OUT)/libfuzzcommon.a $(LIBS_F)
