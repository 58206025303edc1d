# mk/storage.mk - kwgend's cache files and counters over a long run
# (tests/e2e/storage_test.py): db + -wal + -shm within --max-cache-bytes
# plus its slack, the curve every 2,000 requests, RSS and descriptors flat;
# hits and /healthz while another connection holds SQLite's write lock;
# /status and /metrics against the client's tally; --db :memory: and "";
# read-only cache files and directories.
#
#   make storage-test   STORAGE_MISSES (default 4000) misses + STORAGE_HITS
#                       (10000) hits and every check but the held lock; a
#                       suite of `make test`
#   make storage-lock   a 5 s held lock, reads p99 < 250 ms (headroom for a
#                       loaded 2-core machine); a suite of `make test`, run
#                       alone (ALONE_SUITES)
#   make storage-soak   the full size: 20,000 misses + 100,000 hits, a 30 s
#                       held lock, reads p99 < 50 ms; part of `make soak`
# Figures go to $(BUILD)/storage-figures.json and
# $(BUILD)/storage-soak-figures.json.

STORAGE_MISSES ?= 4000
STORAGE_HITS   ?= 10000

.PHONY: storage-test storage-lock storage-soak

storage-test: $(BUILD)/kwgend
	python3 tests/e2e/storage_test.py --kwgend $(BUILD)/kwgend --misses $(STORAGE_MISSES) \
		--hits $(STORAGE_HITS) --skip lock --figures $(BUILD)/storage-figures.json

storage-lock: $(BUILD)/kwgend
	python3 tests/e2e/storage_test.py --kwgend $(BUILD)/kwgend --only lock --lock-seconds 5 --p99-ms 250 \
		--figures $(BUILD)/storage-lock-figures.json

storage-soak: $(BUILD)/kwgend
	python3 tests/e2e/storage_test.py --kwgend $(BUILD)/kwgend --misses 20000 --hits 100000 \
		--lock-seconds 30 --p99-ms 50 --figures $(BUILD)/storage-soak-figures.json

SUITES += storage-test storage-lock
ALONE_SUITES += storage-lock
soak: storage-soak
