#!/usr/bin/env bash
# run.sh NODES NET TUCCOMPI-APSP-ARGS...: the simulated build's tuccompi-apsp on NODES simulated
# nodes (one rank each) of the H200 node's models, StarPU-MPI over SimGrid's SMPI.
#   NET: flat100 (100 Gbit/s, 2 us, every node its own link to one switch), fat100 (the same
#        links in a two-level fat-tree, 8 nodes per leaf switch), eth1g (1 Gbit/s, 100 us, flat)
# Environment:
#   MODELS   a folder holding sampling/ (default simulation/models/h200 when calibrated, else
#            simulation/models/h200-derived; see simulation/README.md). simulation/models/h200 is the
#            MK 1 calibration of its node.txt (docs/simulation.md validates it)
#   SIM_APSP the simulated build's tuccompi-apsp (default build-simgrid/src/apps/apsp/tuccompi-apsp)
#   HETERO=1 the odd nodes have no GPU; NCPU CPU workers per node (default 12, as the H200 node ran)
#   COMPUTE=1 compute the results for real (default 0: timings only, results left zero)
#   GPU_BATCH tasks per simulated GPU job (TUCCOMPI_SIM_GPU_BATCH; default: the engine's GPU lanes,
#            256 with --engine phast, else 64)
#   MSG_US   StarPU-MPI's time per message in the receiving rank's progression thread
#            (TUCCOMPI_SIM_MSG_US; default 124: a round trip between two ranks of the H200 node took
#            0.29 ms with the MPI thread on a core of its own, 2026-12-04, against 0.04 ms on the
#            simulated wire; 0: the wire alone)
#   MSG_BUSY_US  of MSG_US, the part that keeps the receiving progression thread busy (default: all
#            of it, the pessimistic reading: a message queues behind the others' whole time); the
#            rest is added to the links' latency, which delays each message and occupies nothing
#            (a one-way message counts a link's latency LAT_COUNT times, default 8.06 as measured:
#            two links, StarPU-MPI's envelope and data, SMPI's factor of 2 for small messages)
#   The sets' sources may outnumber the stand-in graph's vertices (random:K repeats them): nothing
#   is computed, the models carry the real graph's times.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
nodes=${1:?usage: run.sh NODES NET ARGS...}
net=${2:?usage: run.sh NODES NET ARGS...}
shift 2
models=${MODELS:-}
if [ -z "$models" ]; then
	if [ -d "$here/models/h200/sampling" ]; then models=$here/models/h200; else models=$here/models/h200-derived; fi
fi
app=${SIM_APSP:-$top/build-simgrid/src/apps/apsp/tuccompi-apsp}
smpirun=${SIM_SMPIRUN:-$top/.deps/starpu-simgrid/bin/starpu_smpirun}
[ -x "$app" ] || { echo "run.sh: no simulated build ($app): ./setup.sh --simgrid" >&2; exit 2; }
# SimGrid maps two areas per actor stack: 16 simulated nodes took 29,000 mappings, 65,800 with half of
# them without GPU, past Linux's default limit (65,530: "Failed to protect stack")
maps=$(cat /proc/sys/vm/max_map_count 2>/dev/null || echo 0)
if [ "$maps" -lt $((nodes * 8192)) ]; then
	echo "run.sh: warning: vm.max_map_count is $maps; $nodes simulated nodes may need more" \
		"(as root: sysctl -w vm.max_map_count=$((nodes * 16384)))" >&2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# StarPU may write into its models folder: a copy
mkdir -p "$tmp/home/.starpu"
cp -r "$models/sampling" "$tmp/home/.starpu/"
msg_us=${MSG_US:-124}
busy_us=${MSG_BUSY_US:-$msg_us}
extra_us=$(awk -v m="$msg_us" -v b="$busy_us" -v c="${LAT_COUNT:-8.06}" 'BEGIN {e = (m - b) / c; printf "%.3f", (e > 0 ? e : 0)}')
case $net in
flat100) bw=12.5GBps lat=$(awk -v e="$extra_us" 'BEGIN {print 2 + e}')us topo= ;;
eth1g) bw=125MBps lat=$(awk -v e="$extra_us" 'BEGIN {print 100 + e}')us topo= ;;
fat100)
	bw=12.5GBps lat=$(awk -v e="$extra_us" 'BEGIN {print 2 + e}')us
	leaves=$(((nodes + 7) / 8))
	[ "$leaves" -ge 2 ] || leaves=2
	topo="topology=\"FAT_TREE\" topo_parameters=\"2;8,$leaves;1,1;1,1\""
	;;
*) echo "run.sh: NET is flat100, fat100 or eth1g" >&2; exit 2 ;;
esac
# a cluster of NODES hosts: node0..; every host's link bw/lat (a fat-tree also has its switches)
n=$nodes
[ "$net" != fat100 ] || n=$((leaves * 8))
cat >"$tmp/net.xml" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
<zone id="net" routing="Full">
  <cluster id="c" prefix="node" suffix="" radical="0-$((n - 1))" speed="1Gf" bw="$bw" lat="$lat" $topo/>
</zone>
</platform>
XML
for i in $(seq 0 $((nodes - 1))); do echo "node$i"; done >"$tmp/hosts"
export STARPU_HOME=$tmp/home STARPU_HOSTNAME=h200 STARPU_SILENT=1
export STARPU_NCPU=${NCPU:-12}
export TUCCOMPI_SIM_COMPUTE=${COMPUTE:-0}
export TUCCOMPI_SIM_MSG_US=$busy_us
if [ -z "${GPU_BATCH:-}" ]; then
	# the engine's GPU lanes (the simulated build has no CUDA code to ask): PHAST 256, else 64
	GPU_BATCH=64
	for a in "$@"; do [ "$a" != phast ] || GPU_BATCH=256; done
fi
export TUCCOMPI_SIM_GPU_BATCH=$GPU_BATCH
[ "${HETERO:-0}" != 1 ] || export TUCCOMPI_SIM_NOGPU_ODD=1
"$smpirun" -platform "$tmp/net.xml" -hostfile "$tmp/hosts" -np "$nodes" "$app" "$@" 2>&1 |
	grep -v 'xbt_cfg/INFO\|surf_parse/INFO\|simgrid_update_xml\|smpi_config/INFO\|MPI_Init_thread level\|^$'
