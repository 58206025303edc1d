# mk/hardening.mk - kwgend under bad input, faults, load and access control.
#
#   make hardening     tests/e2e/hardening_test.py: every tests/bad-inputs case,
#                      bearer tokens, TLS, connection caps and timeouts, slow
#                      clients, --max-inflight, full and damaged cache files,
#                      HARDENING_KILL_CYCLES (default 20) kill -9 cycles, each
#                      killed once 5..25 of its misses are answered (six
#                      writers posting: the kill lands among writes in flight)
#   make soak-short    tests/e2e/soak.py for SOAK_SHORT_SECONDS (default 10): the
#                      mix of make soak, its statuses, RSS and descriptors checked;
#                      growth over minutes is make soak's
#   make soak          the full soak: SOAK_SECONDS (default 120) from
#                      SOAK_CONNECTIONS (default 64) connections
#   make kill-loop     only the kill -9 loop, KILL_LOOP_CYCLES (default 100)
#   make hardening-kill-loop  only the kill -9 loop, HARDENING_KILL_CYCLES
# make test runs every hardening check once against the ASan build
# (asan-hardening, ASAN_SUITES in mk/core.mk: the same assertions plus the
# sanitizers', the kill loop 5 cycles there) and the kill loop's full
# HARDENING_KILL_CYCLES against the plain build (hardening-kill-loop).
# Figures go to $(BUILD)/hardening-figures.json and $(BUILD)/soak-figures.json.
# Packages: scripts/deps/hardening.txt.

HARDENING_KILL_CYCLES ?= 20
SOAK_SHORT_SECONDS    ?= 10
SOAK_SECONDS          ?= 120
SOAK_CONNECTIONS      ?= 64
KILL_LOOP_CYCLES      ?= 100

.PHONY: hardening hardening-kill-loop soak soak-short kill-loop

hardening: $(BUILD)/kwgend
	python3 tests/e2e/hardening_test.py --kwgend $(BUILD)/kwgend \
		--kill-cycles $(HARDENING_KILL_CYCLES) --figures $(BUILD)/hardening-figures.json

hardening-kill-loop: $(BUILD)/kwgend
	python3 tests/e2e/hardening_test.py --kwgend $(BUILD)/kwgend --only kill-loop \
		--kill-cycles $(HARDENING_KILL_CYCLES) --figures $(BUILD)/hardening-figures.json

soak-short: $(BUILD)/kwgend
	python3 tests/e2e/soak.py --kwgend $(BUILD)/kwgend --seconds $(SOAK_SHORT_SECONDS) \
		--connections $(SOAK_CONNECTIONS) --figures $(BUILD)/soak-figures.json

soak: $(BUILD)/kwgend
	python3 tests/e2e/soak.py --kwgend $(BUILD)/kwgend --seconds $(SOAK_SECONDS) \
		--connections $(SOAK_CONNECTIONS) --figures $(BUILD)/soak-figures.json

kill-loop: $(BUILD)/kwgend
	python3 tests/e2e/hardening_test.py --kwgend $(BUILD)/kwgend --only kill-loop \
		--kill-cycles $(KILL_LOOP_CYCLES)

SUITES += hardening-kill-loop soak-short
