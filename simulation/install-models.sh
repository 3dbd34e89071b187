#!/usr/bin/env bash
# install-models.sh FILE [NAME]: puts the models of scripts/gpu-node.sh's `calibrate` step into
# simulation/models/NAME/ (default h200): FILE is calibrate/h200-models.tgz, or the gpu-results.tgz of
# `calibrate pack` holding it. What lands there (small text files, kept in git):
#   sampling/bus/h200.*             StarPU's bus sampling of the node (bandwidth, latency, affinity,
#                                   platform files for SimGrid)
#   sampling/codelets/45/tuccompi_* the SSSP codelets' models (per batch size: history + a*n^b+c)
#   node.txt                        date, the bundle's commit, the GPU, cores
#   measured.txt, rates.txt         the measured rates (SSSP/s) of the runs that calibrated them
set -euo pipefail
file=${1:?usage: install-models.sh FILE [NAME]}
name=${2:-h200}
here=$(cd "$(dirname "$0")" && pwd)
dest=$here/models/$name
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar xzf "$file" -C "$tmp"
if [ -f "$tmp/calibrate/h200-models.tgz" ]; then
	mkdir "$tmp/m" && tar xzf "$tmp/calibrate/h200-models.tgz" -C "$tmp/m" && tmp=$tmp/m
fi
[ -d "$tmp/sampling" ] || { echo "install-models.sh: no sampling/ in $file" >&2; exit 1; }
rm -rf "$dest"
mkdir -p "$dest"
cp -r "$tmp/sampling" "$dest/"
for f in node.txt rates.txt measured.txt; do [ -f "$tmp/$f" ] && cp "$tmp/$f" "$dest/"; done
echo "source: scripts/gpu-node.sh calibrate (MEASURED on the node, see node.txt)" >"$dest/SOURCE"
find "$dest" -type f | sort
