# Man pages: one scdoc source each (docs/man/NAME.SECTION.scd), built
# into $(BUILD)/man/NAME.SECTION; `man -l build/man/mstlab.1` reads one.
# docs/man/roff-tidy makes scdoc's roff `mandoc -T lint` clean; the docs
# suite lints the result and holds each page to its program's --help.
MAN_SOURCES := $(sort $(wildcard docs/man/*.scd))
MAN_PAGES   := $(patsubst docs/man/%.scd,$(BUILD)/man/%,$(MAN_SOURCES))

$(BUILD)/man/%: docs/man/%.scd docs/man/roff-tidy | $(DEPS_STAMP)
	@mkdir -p $(@D)
	scdoc <$< >$@.scdoc
	docs/man/roff-tidy $@.scdoc >$@
	@rm -f $@.scdoc

.PHONY: man
man: $(MAN_PAGES)
