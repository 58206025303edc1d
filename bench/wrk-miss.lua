-- wrk-miss.lua - POST a distinct request each time: the template in $KW_BODY
-- has two %d slots (wait's skipLocalRead and skipGlobalRead, both read by
-- the generator), filled from a per-thread counter, so every request has a
-- new key and is generated (cache misses).
dofile(os.getenv("KW_BENCH_DIR") .. "/wrk-report.lua")
local f = assert(io.open(os.getenv("KW_BODY"), "rb"))
local template = f:read("*a")
f:close()
local next_id = 0
function setup(thread)
	register(thread)
	thread:set("id", next_id)
	next_id = next_id + 1
end
local n = 0
local headers = { ["Content-Type"] = "application/json" }
function request()
	n = n + 1
	local v = id * 10000000 + n
	return wrk.format("POST", "/v1/kernels", headers, string.format(template, v % 10000, math.floor(v / 10000)))
end
done = report
