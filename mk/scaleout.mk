# mk/scaleout.mk - three kwgend replicas behind nginx (docker/nginx.conf),
# consistent hashing, cache hit rate and failover.  Needs the nginx package.
#
#   make scaleout [SCALEOUT_ARGS="--sample 500 --replay 2000"]

SCALEOUT_ARGS ?=

.PHONY: scaleout
scaleout: $(BUILD)/kwgend $(LOGIC_BIN)
	python3 tests/e2e/scaleout_test.py --kwgend $(BUILD)/kwgend --logic "$(LOGIC_CMD)" $(SCALEOUT_ARGS)

SUITES += scaleout
