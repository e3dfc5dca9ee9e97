# research-feature-prior: the research driver dev/research/feature_prior_diag.c and the unit
# test of its corpus-level feature attributes (dev/research/feature_prior.{h,c}); not shipped,
# not part of `all` or `make test`; built into $(BUILD)/research/.
#   make research-feature-prior && $(BUILD)/research/test_feature_prior
RESEARCH_FEATURE_PRIOR_PROGS := $(BUILD)/research/feature_prior_diag $(BUILD)/research/test_feature_prior
.PHONY: research-feature-prior
## the research driver feature_prior_diag and its test (dev/research)
research-feature-prior: $(RESEARCH_FEATURE_PRIOR_PROGS)
$(RESEARCH_FEATURE_PRIOR_PROGS): $(BUILD)/research/%: dev/research/%.c dev/research/feature_prior.c dev/research/feature_prior.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Idev/research -Itests/unit -o $@ $< dev/research/feature_prior.c $(LIB) $(LDLIBS)
