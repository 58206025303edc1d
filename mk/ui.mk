# mk/ui.mk - the playground page (GET / of kwgend) and its browser test.
#
# server/ui/* are compiled into kwgend: scripts/embed-ui.sh writes them as
# C arrays into $(BUILD)/gen/ui_assets.h, which server/ui.c includes.
#
#   make ui-test   start kwgend on loopback (port 0, temp cache) and drive
#                  Debian's chromium headless over the DevTools protocol
#                  (tests/ui/run.py); screenshots in $(BUILD)/ui-test/
UI_FILES := $(sort $(wildcard server/ui/*.html server/ui/*.js server/ui/*.css server/ui/*.json))
UI_TEST_ARGS ?=

.PHONY: ui-test

$(BUILD)/gen/ui_assets.h: $(UI_FILES) scripts/embed-ui.sh
	@mkdir -p $(dir $@)
	sh scripts/embed-ui.sh $@ $(UI_FILES)

$(BUILD)/obj/server/ui.o: server/ui.c $(BUILD)/gen/ui_assets.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -I$(BUILD)/gen -MMD -MP -c $< -o $@

ui-test: $(BUILD)/kwgend
	python3 tests/ui/run.py --kwgend $(BUILD)/kwgend --out $(BUILD)/ui-test $(UI_TEST_ARGS)

SUITES += ui-test
