#!/bin/sh
# bench/hosts.sh [OUTDIR]: the 1st layer across emulated hosts (tests/hosts/netns.sh: network
# namespaces, links of 1 Gbit/s with a fixed delay). For 2 and 4 hosts (one rank and one CPU worker
# each), round trips of 0.1, 1 and 5 ms, and tasks of 100 us, 1 ms, 3.5 ms and 10 ms (they sleep: the
# hosts share this machine's cores), bench/overhead runs EQ1, EQ2, MS and MS-TAIL and reports each one's
# time against EQ1's in the same run and its efficiency (tasks x duration / units, over the time).
# Needs root. CSV per configuration in OUTDIR (default bench-hosts), a summary table on stdout.
# Environment: HOSTS ("2 4"), RTTS ("0.1 1 5"), TASK_US ("100,1000,3500,10000"), REPS (3), WORK_S (0.5).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-bench-hosts}
mkdir -p "$out"
. "$here/tests/hosts/netns.sh"
why=$(hosts_available) || { echo "bench/hosts.sh: $why" >&2; exit 1; }
hosts_fwd=$here/tests/hosts/delayfwd
[ -x "$hosts_fwd" ] || { echo "bench/hosts.sh: build tests/hosts/delayfwd first (make check builds it)" >&2; exit 1; }
HOSTS_TIMEOUT=30
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
for f in "$out"/hosts-*.csv; do
	b=$(basename "$f" .csv)
	h=$(echo "$b" | cut -d- -f2) r=$(echo "$b" | cut -d- -f4)
	awk -F, -v h="$h" -v r="$r" 'NR > 1 { printf "%s %s %s %s %.3f %.3f %s\n", h, r, $2, $1, $8, $12, $10 }' "$f"
done | sort -k1,1n -k2,2n -k3,3n
