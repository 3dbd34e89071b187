#!/bin/sh
# tuccompi-summary and tuccompi-plot on a folder that holds no trace, on a trace without any task
# (what a failed conversion used to leave: a truncated paje.trace, an empty tasks.rec) and on a
# missing folder: one line on stderr, exit 1, no Python traceback, nothing on stdout. And
# tuccompi-summary --csv - writes only CSV on stdout (its text goes to stderr).
set -u
s=${top_srcdir:-.}
PYTHON=${PYTHON:-python3}
command -v "$PYTHON" >/dev/null 2>&1 || { echo "no $PYTHON: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
n=0
mkdir "$tmp/empty" "$tmp/notasks"
: >"$tmp/notasks/tasks.rec"
head -n 300 "$s/tests/data/paje/valid/paje.trace" | head -c 20000 >"$tmp/notasks/paje.trace"

for tool in tuccompi-summary tuccompi-plot; do
	for case in empty notasks missing; do
		n=$((n + 1))
		"$PYTHON" "$s/scripts/$tool" "$tmp/$case" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		lines=$(wc -l <"$tmp/err" | tr -d ' ')
		if [ $rc = 1 ] && [ "$lines" = 1 ] && [ ! -s "$tmp/out" ] && ! grep -q Traceback "$tmp/err" &&
			grep -q "^$tool: " "$tmp/err"; then
			echo "ok: $tool on $case: exit 1, $(cat "$tmp/err")"
		else
			echo "FAIL: $tool on $case: exit $rc, $lines line(s) on stderr, $(wc -c <"$tmp/out") bytes on stdout"
			sed 's/^/    /' "$tmp/err" "$tmp/out" | head -n 20
			fails=$((fails + 1))
		fi
	done
done

# --csv -: CSV alone on stdout, the text on stderr
n=$((n + 1))
"$PYTHON" "$s/scripts/tuccompi-summary" "$s/tests/data/paje/valid" --csv - >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 0 ] && [ "$(head -n 1 "$tmp/out")" = "rank,worker,name,tasks,busy_s,idle_s" ] &&
	awk -F, 'NR > 1 && (NF != 6 || $4 !~ /^[0-9]+$/) { bad = 1 } END { exit bad || NR != 5 }' "$tmp/out" &&
	grep -q "per worker" "$tmp/err"; then
	echo "ok: tuccompi-summary --csv -: 5 CSV lines on stdout, the tables on stderr"
else
	echo "FAIL: tuccompi-summary --csv - (exit $rc): stdout is not CSV alone"
	sed 's/^/    /' "$tmp/out" | head -n 20
	fails=$((fails + 1))
fi
echo "$((n - fails)) of $n checks passed"
[ "$fails" = 0 ]
