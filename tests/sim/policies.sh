#!/bin/sh
# The simulated build (./setup.sh --simgrid, docs/simulation.md): 4 simulated nodes under every
# policy give the same results table (-o) as the real build on one rank. Self-contained: the
# real build calibrates its CPU model on the spot (STARPU_CALIBRATE=1, a private STARPU_HOME and
# host name), the simulation reads it. Skipped (77) without SimGrid's smpirun or without the
# simulated build (build-simgrid/ beside the sources, or $SIM_APSP).
set -u
top=${top_srcdir:-.}
bld=${top_builddir:-.}
sim=${SIM_APSP:-$top/build-simgrid/src/apps/apsp/tuccompi-apsp}
smpirun=${SIM_SMPIRUN:-$top/.deps/starpu-simgrid/bin/starpu_smpirun}
real=$bld/apps/apsp/tuccompi-apsp
graph=$bld/apps/apsp/tuccompi-graph
command -v smpirun >/dev/null 2>&1 || { echo "SKIP: SimGrid's smpirun is not installed"; exit 77; }
[ -x "$sim" ] || { echo "SKIP: no simulated build ($sim; ./setup.sh --simgrid)"; exit 77; }
[ -x "$smpirun" ] || { echo "SKIP: no $smpirun (./setup.sh --simgrid)"; exit 77; }
command -v xsltproc >/dev/null 2>&1 || { echo "SKIP: starpu_smpirun needs xsltproc"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
STARPU_HOME=$tmp/home
STARPU_HOSTNAME=simtest
export STARPU_HOME STARPU_HOSTNAME
mkdir -p "$STARPU_HOME"
"$graph" gen random:16384 --seed 1 -o "$tmp/g.tgb" >/dev/null || exit 1
# the real build: the reference table, and the CPU model (two runs: StarPU wants 10 samples per size)
for i in 1 2; do
	STARPU_CALIBRATE=1 STARPU_NCPU=2 STARPU_NCUDA=0 "$real" "$tmp/g.tgb" --units cpu --sources random:96 -q \
		-o "$tmp/real.csv" || { echo "FAIL: the real build's run"; exit 1; }
done
# 4 simulated nodes of that host, 100 Gbit/s and 2 us between them
cat >"$tmp/net.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
<zone id="net" routing="Full">
  <cluster id="c" prefix="node" suffix="" radical="0-3" speed="1Gf" bw="12.5GBps" lat="2us"/>
</zone>
</platform>
XML
printf 'node0\nnode1\nnode2\nnode3\n' >"$tmp/hosts"
fail=0
for p in eq1 eq2 ms ms-tail; do
	rm -f "$tmp/sim.csv"
	STARPU_NCUDA=0 timeout 120 "$smpirun" -platform "$tmp/net.xml" -hostfile "$tmp/hosts" -np 4 \
		"$sim" "$tmp/g.tgb" --units cpu --policy "$p" --sources random:96 --summary -o "$tmp/sim.csv" \
		>"$tmp/$p.log" 2>&1
	rc=$?
	if [ $rc -ne 0 ] || ! cmp -s "$tmp/real.csv" "$tmp/sim.csv"; then
		echo "FAIL: $p: exit $rc, table $(cmp -s "$tmp/real.csv" "$tmp/sim.csv" && echo same || echo differs)"
		grep -v 'xbt_cfg\|^$' "$tmp/$p.log" | tail -n 15
		fail=1
	else
		echo "ok: $p: $(grep -m1 'SSSP in' "$tmp/$p.log") (simulated)"
	fi
done
exit $fail
