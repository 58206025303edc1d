-- wrk-report.lua - shared done() for the kwgen HTTP benchmark: one line
--   RESULT <requests> <seconds> <p50_us> <p99_us> <non2xx> <socket_errors>
-- that bench/http.sh parses.
function report(summary, latency, requests)
	local e = summary.errors
	io.write(string.format("RESULT %d %.3f %.1f %.1f %d %d\n", summary.requests,
		summary.duration / 1e6, latency:percentile(50), latency:percentile(99),
		e.status, e.connect + e.read + e.write + e.timeout))
end
