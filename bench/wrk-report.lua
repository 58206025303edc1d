-- wrk-report.lua - shared code of the kwgen HTTP benchmark.
--
-- Every response is checked: a 2xx status and a body whose "key" is 64 hex
-- digits, equal to $KW_KEY when that is set (hits, nginx's copy).  done()
-- prints one line that bench/http.sh parses:
--   RESULT <requests> <seconds> <p50_us> <p99_us> <non2xx> <socket_errors> <checked> <bad>
threads = {}
local want_key = os.getenv("KW_KEY")
if want_key == "" then want_key = nil end

function register(thread)
	table.insert(threads, thread)
end

checked = 0
bad = 0
function response(status, headers, body)
	checked = checked + 1
	local k = body and body:match('"key"%s*:%s*"(%x+)"')
	if status < 200 or status > 299 or not k or #k ~= 64 or (want_key and k ~= want_key) then
		bad = bad + 1
	end
end

function report(summary, latency, requests)
	local e = summary.errors
	local c, b = 0, 0
	for _, t in ipairs(threads) do
		c = c + (t:get("checked") or 0)
		b = b + (t:get("bad") or 0)
	end
	io.write(string.format("RESULT %d %.3f %.1f %.1f %d %d %d %d\n", summary.requests,
		summary.duration / 1e6, latency:percentile(50), latency:percentile(99),
		e.status, e.connect + e.read + e.write + e.timeout, c, b))
end
