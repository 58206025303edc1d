-- wrk-post.lua - POST the same body (file $KW_BODY) to /v1/kernels: cache
-- hits (from memory, or from SQLite when kwgend runs with
-- --hot-cache-bytes 0).  Every answer's key must be $KW_KEY.
dofile(os.getenv("KW_BENCH_DIR") .. "/wrk-report.lua")
local f = assert(io.open(os.getenv("KW_BODY"), "rb"))
wrk.method = "POST"
wrk.path = "/v1/kernels"
wrk.body = f:read("*a")
wrk.headers["Content-Type"] = "application/json"
f:close()
function setup(thread)
	register(thread)
end
done = report
