#!/bin/sh
# tests/fuzz/run.sh - run libFuzzer harnesses for `make fuzz` (mk/fuzz.mk).
#
#   sh tests/fuzz/run.sh --build DIR --seconds N [--rss-mb M] [--timeout T]
#                        [--seeds-root DIR2] [--seed S] [--runs SPEC] HARNESS...
#
# --runs SPEC (HARNESS=N,HARNESS=N,...) runs each named harness on every
# seed once and then on exactly N mutations (libFuzzer's -runs, which
# counts the seeds too, is the number of seeds + N) instead of --seconds:
# with a fixed --seed the run does the same work on a fast and on a loaded
# machine (make fuzz); --seconds then only bounds a hang, and a harness
# that has not done its executions by then fails.  Harnesses not named
# fuzz for --seconds.
#
# --seed S is libFuzzer's -seed: a fixed S (make fuzz: 1) makes the short
# run take the same mutations on every machine, so a landing is never
# decided by chance; 0 (make fuzz-long) draws a new seed each run.
# For each harness DIR/HARNESS: one libFuzzer process on a temporary copy
# of tests/fuzz/seeds/ (the committed corpus is never modified) with every
# file of tests/fuzz/regressions/ added to it: libFuzzer executes each file
# of the corpus once (crash, leak, timeout and RSS checked as for every
# input) before it fuzzes for N seconds, with tests/fuzz/kwgen.dict.  A harness with its own tests/fuzz/seeds-HARNESS/,
# regressions-HARNESS/ or HARNESS.dict uses those instead; so does one with
# DIR2/seeds-HARNESS/ (seeds generated at build time).  Findings go to
# DIR/findings/.  Prints executions
# and findings per harness and ends with "fuzz: P passed, F failed"; exits 1
# if any harness failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=build-fuzz
seconds=60
rss=2048
timeout=10
seeds_root=""
seed=0
runs=""
while [ $# -gt 0 ]; do
	case "$1" in
	--build) build=$2; shift 2 ;;
	--seconds) seconds=$2; shift 2 ;;
	--rss-mb) rss=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--seeds-root) seeds_root=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--) shift; break ;;
	-*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || { echo "usage: run.sh --build DIR --seconds N HARNESS..." >&2; exit 2; }

findings="$build/findings"
mkdir -p "$findings"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kwgen-fuzz.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

passed=0
failed=0
for h in "$@"; do
	bin="$build/$h"
	log="$tmp/$h.log"
	ok=1
	if [ ! -x "$bin" ]; then
		echo "fuzz: $h: $bin not built" >&2
		failed=$((failed + 1))
		continue
	fi

	seeds="$here/seeds"; regs="$here/regressions"; dict="$here/kwgen.dict"
	[ -d "$here/seeds-$h" ] && seeds="$here/seeds-$h"
	[ -n "$seeds_root" ] && [ -d "$seeds_root/seeds-$h" ] && seeds="$seeds_root/seeds-$h"
	[ -d "$here/regressions-$h" ] && regs="$here/regressions-$h"
	[ -f "$here/$h.dict" ] && dict="$here/$h.dict"

	# 1. fuzzing from a copy of the seeds, the regression inputs in it:
	#    libFuzzer executes every file of its corpus once before the first
	#    mutation (and checks it for leaks, crashes, timeouts as it does
	#    the mutations); one process, not a second one per harness
	#    (~0.25 s of CPU each for the sanitizers' start and exit)
	corpus="$tmp/$h.corpus"
	mkdir -p "$corpus"
	cp "$seeds"/* "$corpus"/
	nseed=$(ls "$corpus" | wc -l)
	nreg=0
	if [ -d "$regs" ]; then
		for f in "$regs"/*; do
			[ -f "$f" ] || continue
			case "$f" in *.md|*.txt) continue ;; esac
			cp "$f" "$corpus/regression-${f##*/}"
			nreg=$((nreg + 1))
		done
	fi
	want=$(echo ",$runs," | sed -n "s/.*,$h=\([0-9][0-9]*\),.*/\1/p")
	limit="-max_total_time=$seconds"
	# a fixed run prints no NEW_FUNC lines: each one's symbolizing starts an
	# llvm-symbolizer process (~0.15 s of CPU a harness) and checks nothing
	[ -z "$want" ] || { want=$((nseed + nreg + want)); limit="-runs=$want -max_total_time=$seconds -print_funcs=0"; }
	start=$(date +%s)
	# shellcheck disable=SC2086
	"$bin" $limit -rss_limit_mb="$rss" -timeout="$timeout" -seed="$seed" \
		-dict="$dict" -print_final_stats=1 \
		-artifact_prefix="$findings/$h-" "$corpus" >"$log" 2>&1
	rc=$?
	end=$(date +%s)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	[ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9][0-9]*\)[[:space:]]*DONE.*/\1/p' "$log" | tail -1)
	[ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9][0-9]*\).*/\1/p' "$log" | tail -1)
	[ -n "$execs" ] || execs=0
	cov=$(sed -n 's/^#[0-9]*[[:space:]]*DONE[[:space:]]*cov: \([0-9]*\) ft: \([0-9]*\) corp: \([0-9/]*[a-zA-Z]*\).*/cov \1, ft \2, corpus \3/p' "$log" | tail -1)
	artifacts=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log")
	nfind=0
	[ -z "$artifacts" ] || nfind=$(echo "$artifacts" | wc -l)
	if [ -n "$want" ] && [ "$rc" -eq 0 ] && [ "$execs" -lt "$want" ]; then
		echo "fuzz: $h: only $execs of $want executions within $seconds s"
		ok=0
	fi
	if [ "$rc" -ne 0 ] && ! grep -q "INITED" "$log"; then
		echo "fuzz: $h: a seed or regression input fails (before the first mutation):"
		grep -E "ERROR|SUMMARY|runtime error" "$log" | head -20
	fi
	if [ "$rc" -ne 0 ] || [ "$nfind" -gt 0 ]; then
		ok=0
		[ "$nfind" -gt 0 ] || nfind=1
		cp "$log" "$findings/$h.log"
	fi
	echo "fuzz: $h: $nreg regression inputs, $nseed seeds, $execs executions in $((end - start)) s${cov:+ ($cov)}, $nfind findings"
	if [ "$rc" -ne 0 ]; then
		grep -E "^==[0-9]+==ERROR|^SUMMARY|runtime error|ALARM|out-of-memory|deadly signal" "$log" | head -10 | sed 's/^/  /'
		for a in $artifacts; do echo "  reproducer: $a"; done
		echo "  log: $findings/$h.log"
	fi
	if [ "$ok" = 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
