# make foldoc-text / jargon-text: real text nobody prepared for us, from Debian packages —
# the Free On-line Dictionary of Computing (dict-foldoc: a dictd database, headword on its
# own line, definition indented, {cross-references} as markup) and the Jargon File
# (jargon-text: hard-wrapped plain text) — decompressed into $(DEBIAN_TEXT_DIR).
# The packages are installed when missing and run as root; otherwise the target says which.
DEBIAN_TEXT_DIR ?= $(BUILD)/text
FOLDOC_DICT     ?= /usr/share/dictd/foldoc.dict.dz
JARGON_TXT      ?= /usr/share/doc/jargon-text/jargon.txt.gz
FOLDOC_TEXT     := $(DEBIAN_TEXT_DIR)/foldoc.txt
JARGON_TEXT     := $(DEBIAN_TEXT_DIR)/jargon.txt
# $(call debian_package,PACKAGE,FILE): install PACKAGE when FILE is missing (root), else fail saying so
debian_package = @test -e $(2) || { if [ "$$(id -u)" = 0 ]; then echo "installing: $(1)"; \
  (apt-get update -qq || true) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(1) >/dev/null; \
  else echo "missing Debian package: $(1) ($(2)) -- run: sudo apt-get install $(1)" >&2; exit 1; fi; }
.PHONY: foldoc-text jargon-text
## FOLDOC's dictd text (Debian's dict-foldoc) into $(DEBIAN_TEXT_DIR)/foldoc.txt
foldoc-text: $(FOLDOC_TEXT)
## the Jargon File's plain text (Debian's jargon-text) into $(DEBIAN_TEXT_DIR)/jargon.txt
jargon-text: $(JARGON_TEXT)
$(FOLDOC_TEXT):
	$(call debian_package,dict-foldoc,$(FOLDOC_DICT))
	@mkdir -p $(DEBIAN_TEXT_DIR)
	zcat $(FOLDOC_DICT) > $@.tmp && mv $@.tmp $@
$(JARGON_TEXT):
	$(call debian_package,jargon-text,$(JARGON_TXT))
	@mkdir -p $(DEBIAN_TEXT_DIR)
	zcat $(JARGON_TXT) > $@.tmp && mv $@.tmp $@
