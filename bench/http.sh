#!/bin/sh
# bench/http.sh - HTTP benchmark of kwgend (make bench-http).
#
# wrk, $CONNS keep-alive connections, $DURATION seconds each, one run of:
#   (a) hits-memory  POST the same request again and again: served from the
#                    in-memory hot cache (default --hot-cache-bytes)
#   (b) hits-sqlite  the same against a second kwgend started with
#                    --hot-cache-bytes 0: every hit is read from SQLite
#   (c) misses       POST a distinct request each time (wrk-miss.lua varies
#                    wait's skipLocalRead/skipGlobalRead, keys the generator
#                    reads): generated and written
#   (d) get-memory   GET /v1/kernels/{key} of the hit again and again:
#                    served from memory (the hot cache) like a POST hit
#   (e) misses-2mb   (c) against a third kwgend with --max-cache-bytes
#                    2000000: every miss also evicts
#   (f) nginx        GET a static file the size of the hit response
# Every response is checked (wrk-report.lua): 2xx and a body whose key is
# 64 hex digits, the expected key for hits and nginx.  Any non-2xx, socket
# error or bad body fails the benchmark (exit 1) after the table.  Then the
# ratios against the targets (hits >= 0.7 x nginx, GET >= 0.9 x nginx, misses
# >= 0.3 x POST hits from memory, bounded misses >= 0.15 x)
# and kwgend's RSS idle and under load (targets 32 MiB and 128 MiB).  Both
# servers run one worker per CPU and write an access log to a file.
#
# Environment: KWGEND (build/kwgend), DURATION (10), CONNS (64),
# WRK_THREADS (2), NGINX (nginx), ONLY (the runs to make, space-separated
# names from the list above; default all of them: the table then has only
# those rows and the ratios between them; tests/selftest runs `misses`).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
KWGEND=${KWGEND:-$root/build/kwgend}
DURATION=${DURATION:-10}
CONNS=${CONNS:-64}
WRK_THREADS=${WRK_THREADS:-2}
NGINX=${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}
ONLY=${ONLY:-}
want() { # name: is this run wanted (ONLY unset: every run)
	[ -z "$ONLY" ] && return 0
	case " $ONLY " in *" $1 "*) return 0 ;; esac
	return 1
}
command -v wrk >/dev/null || { echo "bench-http: wrk not installed (scripts/deps/server.txt)"; exit 1; }
[ -x "$NGINX" ] || { echo "bench-http: nginx not found (scripts/deps/server.txt)"; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kwgend-bench.XXXXXX")
chmod 755 "$tmp"
kpid=""
npid=""
spid=""
cleanup() {
	[ -n "$spid" ] && kill "$spid" 2>/dev/null || true
	[ -n "$kpid" ] && kill "$kpid" 2>/dev/null && wait "$kpid" 2>/dev/null || true
	[ -n "$npid" ] && kill "$npid" 2>/dev/null && wait "$npid" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The bodies: the example with an explicit generator list; the miss
# template has two %d slots.
python3 - "$root/examples/gfx942-request.json" "$tmp" <<'PY'
import json, sys
req = json.load(open(sys.argv[1]))
def body(a, b):
    r = dict(req)
    r["generators"] = [{"name": "wait", "args": {"skipGlobalRead": b, "skipLocalWrite": -1,
                                                 "skipLocalRead": a}},
                       {"name": "syncThreads"}, {"name": "accToArchMapper"},
                       {"name": "mapAcctoArchRegs"}]
    return json.dumps(r)
open(sys.argv[2] + "/hit.json", "w").write(body(3, 1))
open(sys.argv[2] + "/miss.tmpl", "w").write(body(111111, 222222).replace("111111", "%d").replace("222222", "%d"))
PY

rss_kib() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }

start_kwgend() { # db log [flags...]: sets kpid and port
	db=$1; log=$2; shift 2
	"$KWGEND" --listen 127.0.0.1:0 --db "$db" "$@" 2>"$log" &
	kpid=$!
	port=""
	for _ in $(seq 100); do
		port=$(sed -n 's/.*kwgend: listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$log" 2>/dev/null || true)
		[ -n "$port" ] && break
		sleep 0.1
	done
	[ -n "$port" ] || { echo "bench-http: kwgend did not start"; cat "$log"; exit 1; }
}
start_kwgend "$tmp/cache.db" "$tmp/kwgend.log"

# Warm: the hit response, saved for nginx.
code=$(curl -s --max-time 60 -o "$tmp/hit-response.json" -w '%{http_code}' -H 'Content-Type: application/json' \
	--data-binary @"$tmp/hit.json" "http://127.0.0.1:$port/v1/kernels")
[ "$code" = 200 ] || { echo "bench-http: warm-up POST answered $code"; cat "$tmp/hit-response.json"; exit 1; }
curl -s --max-time 60 -o "$tmp/hit-response.json" -H 'Content-Type: application/json' \
	--data-binary @"$tmp/hit.json" "http://127.0.0.1:$port/v1/kernels"
size=$(wc -c <"$tmp/hit-response.json")
KW_KEY=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["key"])' "$tmp/hit-response.json")
sleep 1
rss_idle=$(rss_kib "$kpid")

# Sample RSS while loaded.
(
	max=0
	while kill -0 "$kpid" 2>/dev/null; do
		r=$(rss_kib "$kpid" 2>/dev/null || echo 0)
		[ "${r:-0}" -gt "$max" ] && max=$r && echo "$max" >"$tmp/rss-max.new" && mv "$tmp/rss-max.new" "$tmp/rss-max"
		sleep 0.1
	done
) &
spid=$!

export KW_BENCH_DIR="$here"
run() { # name script url [body] [key]
	name=$1; script=$2; url=$3
	want "$name" || return 0
	KW_BODY=${4:-} KW_KEY=${5:-} wrk -t"$WRK_THREADS" -c"$CONNS" -d"${DURATION}s" --timeout 10s \
		-s "$here/$script" "$url" >"$tmp/$name.out" 2>&1 || { cat "$tmp/$name.out"; exit 1; }
	grep '^RESULT' "$tmp/$name.out" | sed "s/^RESULT/$name/" >>"$tmp/results"
}

run hits-memory wrk-post.lua "http://127.0.0.1:$port/v1/kernels" "$tmp/hit.json" "$KW_KEY"
run get-memory wrk-get.lua "http://127.0.0.1:$port/v1/kernels/$KW_KEY" "" "$KW_KEY"
run misses wrk-miss.lua "http://127.0.0.1:$port/v1/kernels" "$tmp/miss.tmpl"
# the sampler stopped before its file is read (it renames each new
# figure into place, so the file is never seen half-written)
kill "$spid" 2>/dev/null || true
wait "$spid" 2>/dev/null || true
spid=""
rss_load=$(cat "$tmp/rss-max" 2>/dev/null || true)
rss_load=${rss_load:-0}
entries=$(curl -s --max-time 30 "http://127.0.0.1:$port/status")
kill "$kpid" && wait "$kpid" || { echo "bench-http: kwgend did not exit 0 on SIGTERM"; exit 1; }
kpid=""

# Hits through SQLite: the same file, no hot cache.
if want hits-sqlite; then
start_kwgend "$tmp/cache.db" "$tmp/kwgend-sqlite.log" --hot-cache-bytes 0
code=$(curl -s --max-time 60 -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
	--data-binary @"$tmp/hit.json" "http://127.0.0.1:$port/v1/kernels")
[ "$code" = 200 ] || { echo "bench-http: POST to the --hot-cache-bytes 0 daemon answered $code"; exit 1; }
run hits-sqlite wrk-post.lua "http://127.0.0.1:$port/v1/kernels" "$tmp/hit.json" "$KW_KEY"
kill "$kpid" && wait "$kpid" || { echo "bench-http: kwgend did not exit 0 on SIGTERM"; exit 1; }
kpid=""
fi

# Misses under a small cache bound: each one evicts.
if want misses-2mb; then
start_kwgend "$tmp/cache-2mb.db" "$tmp/kwgend-2mb.log" --max-cache-bytes 2000000
run misses-2mb wrk-miss.lua "http://127.0.0.1:$port/v1/kernels" "$tmp/miss.tmpl"
kill "$kpid" && wait "$kpid" || { echo "bench-http: kwgend did not exit 0 on SIGTERM"; exit 1; }
kpid=""
fi

# nginx serving the same bytes.
if want nginx; then
mkdir -p "$tmp/www" "$tmp/nginx"
cp "$tmp/hit-response.json" "$tmp/www/response.json"
chmod -R a+rX "$tmp/www"
nport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat >"$tmp/nginx.conf" <<NGX
worker_processes $(nproc);
daemon off;
pid $tmp/nginx/nginx.pid;
error_log $tmp/nginx/error.log;
events { worker_connections 4096; }
http {
	access_log $tmp/nginx/access.log;
	client_body_temp_path $tmp/nginx/body;
	proxy_temp_path $tmp/nginx/proxy;
	fastcgi_temp_path $tmp/nginx/fastcgi;
	uwsgi_temp_path $tmp/nginx/uwsgi;
	scgi_temp_path $tmp/nginx/scgi;
	keepalive_requests 1000000;
	server {
		listen 127.0.0.1:$nport;
		location / { root $tmp/www; default_type application/json; }
	}
}
NGX
"$NGINX" -c "$tmp/nginx.conf" -p "$tmp/nginx" 2>"$tmp/nginx/stderr" &
npid=$!
for _ in $(seq 50); do
	curl -sf -o /dev/null "http://127.0.0.1:$nport/response.json" && break
	sleep 0.1
done
run nginx wrk-get.lua "http://127.0.0.1:$nport/response.json" "" "$KW_KEY"
fi

python3 - "$tmp/results" "$size" "$rss_idle" "$rss_load" "$entries" "$CONNS" "$DURATION" <<'PY'
import json, sys
rows = {}
for line in open(sys.argv[1]):
    name, n, secs, p50, p99, non2xx, errs, checked, bad = line.split()
    rows[name] = dict(rps=int(n) / float(secs), p50=float(p50) / 1000, p99=float(p99) / 1000,
                      non2xx=int(non2xx), errs=int(errs), n=int(n), checked=int(checked), bad=int(bad))
size, idle, load = int(sys.argv[2]), int(sys.argv[3]) / 1024, int(sys.argv[4]) / 1024
st = json.loads(sys.argv[5])
print("kwgen bench-http: %s connections, %s s each, response %d bytes" % (sys.argv[6], sys.argv[7], size))
print("%-12s %10s %10s %10s %8s %8s %9s %8s" % ("run", "req/s", "p50 ms", "p99 ms", "non-2xx", "errors",
                                                 "checked", "bad"))
for k in ("hits-memory", "hits-sqlite", "get-memory", "misses", "misses-2mb", "nginx"):
    if k not in rows:
        continue
    r = rows[k]
    print("%-12s %10.0f %10.3f %10.3f %8d %8d %9d %8d" % (k, r["rps"], r["p50"], r["p99"], r["non2xx"],
                                                       r["errs"], r["checked"], r["bad"]))
def verdict(ok): return "ok" if ok else "BELOW TARGET"
for a, b, target, pad in (("hits-memory", "nginx", 0.7, "  "), ("hits-sqlite", "nginx", 0.7, "  "),
                          ("get-memory", "nginx", 0.9, "   "), ("misses", "hits-memory", 0.3, " "),
                          ("misses-2mb", "hits-memory", 0.15, " ")):
    if a in rows and b in rows:
        x = rows[a]["rps"] / rows[b]["rps"]
        print("%s/%s%s%.2f  (target >= %.2f)  %s" % (a, b, pad, x, target, verdict(x >= target)))
print("RSS idle     %.1f MiB (target <= 32)  %s" % (idle, verdict(idle <= 32)))
print("RSS loaded   %.1f MiB (target <= 128) %s" % (load, verdict(load <= 128)))
print("cache after: %d entries, %d bytes, %d generations" % (st["entries"], st["bytes"], st.get("generations", 0)))
broken = ["%s: %d non-2xx, %d socket errors, %d of %d bodies without the right key"
          % (k, r["non2xx"], r["errs"], r["bad"], r["checked"])
          for k, r in rows.items() if r["non2xx"] or r["errs"] or r["bad"] or r["checked"] < r["n"]]
for b in broken:
    print("FAILED  " + b)
sys.exit(1 if broken else 0)
PY
