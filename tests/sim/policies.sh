#!/bin/sh
# The simulated build (./setup.sh --simgrid, docs/simulation.md): 4 simulated nodes under every
# policy give the same results table (-o) as the real build on one rank; so do 7 nodes (trees of
# the collectives that are not full) under MS and MS-TAIL in groups of 3 (ranks 3 and 6 MS
# sub-masters) with StarPU-MPI's modelled time per message, and the betweenness vector (.npy, exact
# sums reduced up the tree) is the same bytes as one rank's. Self-contained: the
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
# NODES simulated nodes of that host, 100 Gbit/s and 2 us between them: NAME.xml, NAME.hosts
platform() {
	printf '%s\n' "<?xml version='1.0'?>" '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">' \
		'<platform version="4.1">' '<zone id="net" routing="Full">' \
		"  <cluster id=\"c\" prefix=\"node\" suffix=\"\" radical=\"0-$(($1 - 1))\" speed=\"1Gf\" bw=\"12.5GBps\" lat=\"2us\"/>" \
		'</zone>' '</platform>' >"$tmp/$2.xml"
	seq 0 $(($1 - 1)) | sed 's/^/node/' >"$tmp/$2.hosts"
}
platform 4 net
fail=0
for p in eq1 eq2 ms ms-tail; do
	rm -f "$tmp/sim.csv"
	STARPU_NCUDA=0 timeout 120 "$smpirun" -platform "$tmp/net.xml" -hostfile "$tmp/net.hosts" -np 4 \
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
# 7 nodes: sub-masters and non-full trees; betweenness reduced over them
for i in 1 2; do # (the Brandes engine's CPU model, as above)
	STARPU_CALIBRATE=1 STARPU_NCPU=2 STARPU_NCUDA=0 "$real" "$tmp/g.tgb" --units cpu --sources random:96 -q \
		--betweenness "$tmp/real.npy" -o "$tmp/realb.csv" || { echo "FAIL: the real build's betweenness run"; exit 1; }
done
platform 7 net7
for p in ms ms-tail; do
	rm -f "$tmp/sim.csv" "$tmp/sim.npy"
	STARPU_NCUDA=0 TUCCOMPI_MS_GROUP=3 TUCCOMPI_SIM_MSG_US=100 TUCCOMPI_END_LOG=1 timeout 120 "$smpirun" \
		-platform "$tmp/net7.xml" -hostfile "$tmp/net7.hosts" -np 7 "$sim" "$tmp/g.tgb" --units cpu --policy "$p" \
		--sources random:96 --summary --betweenness "$tmp/sim.npy" -o "$tmp/sim.csv" >"$tmp/$p-7.log" 2>&1
	rc=$?
	subs=$(grep -c "MS sub-master of ranks" "$tmp/$p-7.log")
	if [ $rc -ne 0 ] || ! cmp -s "$tmp/realb.csv" "$tmp/sim.csv" || ! cmp -s "$tmp/real.npy" "$tmp/sim.npy" || [ "$subs" != 2 ]; then
		echo "FAIL: $p on 7 nodes in groups of 3: exit $rc, table $(cmp -s "$tmp/realb.csv" "$tmp/sim.csv" && echo same || echo differs)," \
			"betweenness $(cmp -s "$tmp/real.npy" "$tmp/sim.npy" && echo same || echo differs), $subs sub-masters (2 expected)"
		grep -v 'xbt_cfg\|^$\|MS grant' "$tmp/$p-7.log" | tail -n 15
		fail=1
	else
		echo "ok: $p on 7 nodes, 2 sub-masters: $(grep -m1 'SSSP in' "$tmp/$p-7.log") (simulated), betweenness the same bytes"
	fi
done
exit $fail
