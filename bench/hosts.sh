#!/bin/sh
# bench/hosts.sh [OUTDIR]: the 1st layer across hosts emulated by network namespaces
# (tests/hosts/netns.sh: links with a fixed delay, 1 Gbit/s), as a benchmark, not a test (make check
# runs tests/hosts/apsp_hosts.sh on 2 and 4 hosts). Needs root; OUTDIR (default bench-hosts) gets
# the CSVs and logs, stdout a summary.
#
# 1. Whole-graph runs (default): for each host count of APSP_HOSTS (default 8), one rank and one
#    CPU worker per host, links of RTT_MS (default 1) ms round trips: tuccompi-apsp with every
#    source of a graph (APSP_GRAPH, default --gen random:8192 --seed 7: 8,192 sources) and its
#    betweenness, under EQ1, EQ2, MS, MS-TAIL, and MS-TAIL with the MS in groups of 4
#    (TUCCOMPI_MS_GROUP=4: ranks 4.. ask a sub-master); each run's table (-o) and betweenness
#    (.npy: exact sums reduced up the collectives' tree) must be the same bytes as one rank's.
#    hosts-apsp.csv: hosts, policy, seconds, SSSP/s, identical.
# 2. OVERHEAD=1: bench/overhead's EQ1/EQ2/MS/MS-TAIL on HOSTS (2 4) hosts at RTTS (0.1 1 5) ms and
#    tasks of TASK_US (100,1000,3500,10000) us that sleep: each policy's time against EQ1's and its
#    efficiency (REPS 3, WORK_S 0.5). hosts-H-rtt-R.csv per configuration.
#
# Its namespaces, bridge and links are named sbNNNNh0.. (NNNN from this shell's pid), its subnet
# 10.224.X.0/24: apart from those tests/hosts make. Everything is removed at exit, by name.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-bench-hosts}
mkdir -p "$out"
. "$here/tests/hosts/netns.sh"
hosts_prefix=sb$(printf %04x $(($$ % 65536)))
hosts_net=10.224.$(($$ % 250))
why=$(hosts_available) || { echo "bench/hosts.sh: $why" >&2; exit 1; }
hosts_fwd=$here/tests/hosts/delayfwd
[ -x "$hosts_fwd" ] || { echo "bench/hosts.sh: build tests/hosts/delayfwd first (make check builds it)" >&2; exit 1; }
HOSTS_TIMEOUT=60
app=$here/apps/apsp/tuccompi-apsp
fail=0

if [ "${OVERHEAD:-0}" != 1 ]; then
	graph=${APSP_GRAPH:---gen random:8192 --seed 7}
	# shellcheck disable=SC2086
	args="$graph --sources all --engine batched --units cpu --ncpu 1"
	csv=$out/hosts-apsp.csv
	echo "hosts,rtt_ms,policy,seconds,sssp_per_s,identical,ms_round_trip_ms" >"$csv"
	# shellcheck disable=SC2086
	STARPU_NCUDA=0 "$app" $args -q -o "$out/ref.csv" --betweenness "$out/ref.npy" >"$out/ref.log" 2>&1 ||
		{ echo "bench/hosts.sh: the one-rank run failed (see $out/ref.log)" >&2; exit 1; }
	rtt=${RTT_MS:-1}
	for h in ${APSP_HOSTS:-8}; do
		hosts_up "$h" "$rtt" 1gbit || { echo "bench/hosts.sh: cannot set up $h hosts" >&2; exit 1; }
		echo "== $h hosts, round trip $rtt ms, 1 Gbit/s: every source, identical to one rank?"
		for pol in eq1 eq2 ms ms-tail ms-tail:4; do
			p=${pol%%:*} g=${pol#*:}
			[ "$g" != "$pol" ] || g=1
			log=$out/apsp-$h-$p-g$g.log
			rm -f "$out/t.csv" "$out/t.npy"
			# shellcheck disable=SC2086
			hosts_mpirun 1 -x STARPU_NCUDA=0 -x TUCCOMPI_MS_GROUP="$g" -x TUCCOMPI_END_LOG=1 "$app" $args --policy "$p" --summary \
				-o "$out/t.csv" --betweenness "$out/t.npy" >"$log" 2>&1
			rc=$?
			same=no
			[ $rc -eq 0 ] && cmp -s "$out/t.csv" "$out/ref.csv" && cmp -s "$out/t.npy" "$out/ref.npy" && same=yes
			[ $same = yes ] || fail=1
			rate=$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s' "$log" | tail -1 | awk '{print $3 "," $5}')
			[ -n "$rate" ] || rate=","
			name=$p
			subs=$(grep -c "MS sub-master of ranks" "$log")
			[ "$g" = 1 ] || name="$p (groups of $g: $subs sub-masters)"
			[ "$g" = 1 ] || [ "$subs" -gt 0 ] || same=no
			rt=$(sed -n 's/.*MS round trips: [0-9]*, least [0-9.]* ms, mean \([0-9.]*\) ms.*/\1/p' "$log" |
				awk '{s += $1} END {if (NR) printf "%.3f", s / NR}')
			echo "$h,$rtt,$name,$rate,$same,$rt" >>"$csv"
			echo "  $name: exit $rc, table and betweenness identical to one rank's: $same (${rate%%,*} s, ${rate#*,} SSSP/s; MS round trip ${rt:--} ms)"
		done
		hosts_down
	done
	rm -f "$out/t.csv" "$out/t.npy"
	exit $fail
fi

for h in ${HOSTS:-2 4}; do
	for rtt in ${RTTS:-0.1 1 5}; do
		hosts_up "$h" "$rtt" 1gbit || exit 1
		csv=$out/hosts-$h-rtt-$rtt.csv
		echo "== $h hosts, round trip $rtt ms, 1 Gbit/s"
		hosts_mpirun 1 -x STARPU_NCPU=1 -x STARPU_NCUDA=0 "$here/bench/overhead" --sleep \
			--task-us "${TASK_US:-100,1000,3500,10000}" --policies eq1,eq2,ms,ms-tail --reps "${REPS:-3}" \
			--work-s "${WORK_S:-0.5}" --csv "$csv" 2>&1 | grep -v "^$"
		hosts_down
	done
done
echo
echo "hosts rtt_ms task_us policy vs_eq1 efficiency requests"
for f in "$out"/hosts-*-rtt-*.csv; do
	b=$(basename "$f" .csv)
	h=$(echo "$b" | cut -d- -f2) r=$(echo "$b" | cut -d- -f4)
	awk -F, -v h="$h" -v r="$r" 'NR > 1 { printf "%s %s %s %s %.3f %.3f %s\n", h, r, $2, $1, $8, $12, $10 }' "$f"
done | sort -k1,1n -k2,2n -k3,3n
