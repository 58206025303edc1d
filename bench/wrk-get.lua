-- wrk-get.lua - GET a path (nginx's static copy of a response).
dofile(os.getenv("KW_BENCH_DIR") .. "/wrk-report.lua")
function setup(thread)
	register(thread)
end
done = report
