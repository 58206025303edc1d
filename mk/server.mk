# mk/server.mk - kwgend: end-to-end tests and the HTTP benchmark.
#
#   make e2e          start $(BUILD)/kwgend on loopback (port 0, temp cache) and
#                     exercise the API; E2E_GOLDEN=N corpus requests are checked
#                     against tests/golden/answers.jsonl.gz (default 300)
#   make e2e-smoke    the same checks with E2E_SMOKE_GOLDEN (default 20) corpus
#                     requests (make check's e2e tier)
#   make bench-http   wrk against cache hits (POST, and GET by key), cache
#                     misses (default bound and --max-cache-bytes 2000000) and
#                     nginx serving a static file of the same size (not part
#                     of `make test`)
#   make serve-test   tests/e2e/serve_test.py but its latency check: lingering
#                     close after 413, HTTP framing, NUL bytes, access-log
#                     fields, request ids, SIGHUP, SIGTERM, --listen host
#                     names, --workers/--work-timeout
#   make serve-latency  its latency check: /healthz and hit p99 while 64 MiB
#                     batches (SERVE_BATCH_ITEMS, default 175) generate
#                     (SERVE_SECONDS, default 6, p99 under SERVE_P99_MS,
#                     default 250: headroom for a loaded 2-core machine);
#                     make test runs it alone (ALONE_SUITES), and under ASan
#                     shorter (ASAN_VARS in mk/core.mk)
#   make serve-soak   the latency check for SERVE_SOAK_SECONDS (default 60) at
#                     the service bound (p99 under 50 ms); part of `make soak`
#   make bench-miss   instructions per cache miss (valgrind --tool=callgrind):
#                     single misses, a batch of small and a batch of big
#                     answers, MISS_N (default 40) each (not part of `make test`);
#                     MISS_RUNS=http: bench-http's miss bodies, MISS_FLAGS=
#                     "--max-cache-bytes 2000000" for its bounded run
#   make bench-miss-cpu kwgend's CPU, system calls and bytes written per miss
#                     under wrk's misses (the kernel included, which
#                     callgrind leaves out): MISS_CPU_ROUNDS (3) runs of
#                     MISS_CPU_SECONDS (5) s, MISS_FLAGS as above, and
#                     MISS_CPU_AGAINST=other/kwgend to run two binaries
#                     alternately (not part of `make test`)
# Figures go to $(BUILD)/serve-figures.json and $(BUILD)/serve-soak-figures.json.
E2E_PYTHON ?= python3
E2E_GOLDEN ?= 300
BENCH_DURATION ?= 10
SERVE_SECONDS ?= 6
SERVE_BATCH_ITEMS ?= 175
SERVE_P99_MS ?= 250
SERVE_SOAK_SECONDS ?= 60
MISS_N ?= 40
MISS_RUNS ?= single,batch-small,batch-big
MISS_FLAGS ?=
MISS_CPU_ROUNDS ?= 3
MISS_CPU_SECONDS ?= 5
MISS_CPU_AGAINST ?=

.PHONY: e2e e2e-smoke bench-http serve-test serve-latency serve-soak bench-miss bench-miss-cpu

e2e: $(BUILD)/kwgend
	$(E2E_PYTHON) tests/e2e/run.py --kwgend $(BUILD)/kwgend --golden $(E2E_GOLDEN)

E2E_SMOKE_GOLDEN ?= 20

e2e-smoke: $(BUILD)/kwgend
	$(E2E_PYTHON) tests/e2e/run.py --kwgend $(BUILD)/kwgend --golden $(E2E_SMOKE_GOLDEN)

bench-http: $(BUILD)/kwgend
	KWGEND=$(BUILD)/kwgend DURATION=$(BENCH_DURATION) sh bench/http.sh

serve-test: $(BUILD)/kwgend
	$(E2E_PYTHON) tests/e2e/serve_test.py --kwgend $(BUILD)/kwgend --skip latency \
		--figures $(BUILD)/serve-figures.json

serve-latency: $(BUILD)/kwgend
	$(E2E_PYTHON) tests/e2e/serve_test.py --kwgend $(BUILD)/kwgend --only latency --seconds $(SERVE_SECONDS) \
		--batch-items $(SERVE_BATCH_ITEMS) --p99-ms $(SERVE_P99_MS) --figures $(BUILD)/serve-latency-figures.json

serve-soak: $(BUILD)/kwgend
	$(E2E_PYTHON) tests/e2e/serve_test.py --kwgend $(BUILD)/kwgend --only latency \
		--seconds $(SERVE_SOAK_SECONDS) --p99-ms 50 --figures $(BUILD)/serve-soak-figures.json

bench-miss: $(BUILD)/kwgend
	$(E2E_PYTHON) bench/miss_cost.py --kwgend $(BUILD)/kwgend --n $(MISS_N) --runs $(MISS_RUNS) \
		$(MISS_FLAGS) --figures $(BUILD)/miss-cost.json

bench-miss-cpu: $(BUILD)/kwgend
	$(E2E_PYTHON) bench/miss_cpu.py --kwgend $(BUILD)/kwgend --rounds $(MISS_CPU_ROUNDS) \
		--seconds $(MISS_CPU_SECONDS) --flags "$(MISS_FLAGS)" \
		$(if $(MISS_CPU_AGAINST),--against $(MISS_CPU_AGAINST)) --figures $(BUILD)/miss-cpu.json

# e2e and serve-test run once in make test, against the ASan build
# (asan-e2e, asan-serve-test: the same assertions plus the sanitizers'; none
# of their checks has a bound ASan voids).  serve-latency's p99 is a figure
# ASan voids: it runs full size against the plain build, shorter under ASan.
SUITES += serve-latency
ASAN_SUITES += serve-test serve-latency
ALONE_SUITES += serve-latency asan-serve-latency
soak: serve-soak
