# mk/server.mk - kwgend: end-to-end tests and the HTTP benchmark.
#
#   make e2e          start $(BUILD)/kwgend on loopback (port 0, temp cache) and
#                     exercise the API; E2E_GOLDEN=N corpus requests are checked
#                     against tests/golden/answers.jsonl.gz (default 300)
#   make bench-http   wrk against cache hits, cache misses and nginx serving a
#                     static file of the same size (not part of `make test`)
E2E_PYTHON ?= python3
E2E_GOLDEN ?= 300
BENCH_DURATION ?= 10

.PHONY: e2e bench-http

e2e: $(BUILD)/kwgend
	$(E2E_PYTHON) tests/e2e/run.py --kwgend $(BUILD)/kwgend --golden $(E2E_GOLDEN)

bench-http: $(BUILD)/kwgend
	KWGEND=$(BUILD)/kwgend DURATION=$(BENCH_DURATION) sh bench/http.sh

SUITES += unit e2e
