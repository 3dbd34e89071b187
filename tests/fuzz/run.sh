#!/bin/sh
# tests/fuzz/run.sh [SECONDS]: build tests/fuzz/fuzz_graph.c with clang (libFuzzer, AddressSanitizer,
# UndefinedBehaviorSanitizer) and fuzz the graph readers and the binary cache for SECONDS
# (default 60; 0: only replay the seed corpus, a quick regression check). Fails (exit 1) on any
# crash, sanitizer report, leak, input slower than 10 s (FUZZ_TIMEOUT: a machine shared with
# other work can starve the fuzzer into false timeouts), allocation above 256 MB or RSS above
# 2 GB; the input that did it is left in tests/fuzz/out/ (crash-*, leak-*, timeout-*, oom-*).
# Exit 77 when clang or its libFuzzer runtime is missing
# (Debian 12: apt-get install -y clang libclang-rt-14-dev).
# New inputs found go to tests/fuzz/out/corpus; tests/fuzz/corpus is the seed corpus kept in
# the repository (tests/fuzz/make-corpus.sh rebuilds it).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
secs=${1:-60}
out=${FUZZ_OUT:-$here/out}
clang=${CLANG:-clang}
jobs=${FUZZ_JOBS:-1}

command -v "$clang" >/dev/null 2>&1 || { echo "run.sh: $clang not found (apt-get install -y clang libclang-rt-14-dev)"; exit 77; }
mkdir -p "$out/corpus" || exit 1
out=$(cd "$out" && pwd)
rm -f "$out"/fuzz-[0-9]*.log
g="$top/apps/apsp/graph"
if ! "$clang" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
	-I"$g" "$here/fuzz_graph.c" "$g"/graph*.c "$g/outfile.c" "$g/numtext.c" -lz -lm -lpthread -o "$out/fuzz_graph" 2>"$out/build.log"; then
	if grep -q "libclang_rt.fuzzer\|cannot find -l\|fuzzer" "$out/build.log"; then
		cat "$out/build.log"
		echo "run.sh: clang's libFuzzer runtime is missing (apt-get install -y libclang-rt-14-dev)"
		exit 77
	fi
	cat "$out/build.log"
	exit 1
fi

set -- -rss_limit_mb=2048 -malloc_limit_mb=256 -timeout="${FUZZ_TIMEOUT:-10}" -max_len=65536 -print_final_stats=1 \
	-artifact_prefix="$out/" "$out/corpus" "$here/corpus"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
if [ "$secs" = 0 ]; then
	"$out/fuzz_graph" -runs=0 "$@" >"$out/fuzz.log" 2>&1
else
	# libFuzzer writes each job's log (fuzz-N.log) in the current folder
	(cd "$out" && "$out/fuzz_graph" -max_total_time="$secs" -jobs="$jobs" -workers="$jobs" "$@" >"$out/fuzz.log" 2>&1)
fi
rc=$?
# With -jobs, each job logs to fuzz-N.log (and fuzz.log repeats the job's last lines).
logs=$(ls "$out"/fuzz-[0-9]*.log 2>/dev/null)
[ -n "$logs" ] || logs=$out/fuzz.log
# shellcheck disable=SC2086
cat $logs 2>/dev/null | grep -E "stat::number_of_executed_units|stat::peak_rss_mb|ERROR|SUMMARY|Done [0-9]+ runs|==[0-9]+==" | sort | uniq -c | head -30
if [ $rc != 0 ] || ls "$out" | grep -q '^\(crash\|leak\|timeout\|oom\|slow-unit\)-'; then
	tail -40 "$out/fuzz.log"
	echo "run.sh: FAIL: the fuzzer found a problem (exit $rc); inputs: $(ls "$out" | grep -E '^(crash|leak|timeout|oom)-' | tr '\n' ' ')"
	exit 1
fi
echo "run.sh: ok: $(grep -h 'stat::number_of_executed_units' $logs | awk '{s += $2} END {print s + 0}') executions, no finding"
exit 0
