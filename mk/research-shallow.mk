# research-shallow: the issue-9 research code in dev/research/ (not shipped, not part of
# `all` or `make test`): the shallow_ese driver and the unit test of the shallow context
# encoder it uses (dev/research/context_encoder.{h,c}), built into $(BUILD)/research/.
#   make research-shallow && $(BUILD)/research/test_context_encoder
RESEARCH_SHALLOW_PROGS := $(BUILD)/research/shallow_ese $(BUILD)/research/test_context_encoder
.PHONY: research-shallow
## the research driver shallow_ese and its context-encoder test (dev/research)
research-shallow: $(RESEARCH_SHALLOW_PROGS)
$(BUILD)/research/%: dev/research/%.c dev/research/context_encoder.c dev/research/context_encoder.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Idev/research -Itests/unit -o $@ $< dev/research/context_encoder.c $(LIB) $(LDLIBS)
