#!/bin/sh
# vite-shot.sh TRACE OUT.png [WIDTHxHEIGHT]: a screenshot of ViTE showing TRACE (a paje.trace), taken on
# a virtual display (Debian's vite, xvfb, imagemagick and xdotool: apt-get install vite xvfb imagemagick
# xdotool). ViTE is given a few seconds to draw; the window is enlarged to the display first.
set -eu
trace=$1 out=$2 size=${3:-1600x1000}
for c in vite xvfb-run import xdotool; do
	command -v $c >/dev/null 2>&1 || { echo "vite-shot.sh: $c is missing (apt-get install vite xvfb imagemagick xdotool)" >&2; exit 2; }
done
w=${size%x*} h=${size#*x}
xvfb-run -a -s "-screen 0 ${size}x24" sh -c '
	vite "$0" >/dev/null 2>&1 &
	pid=$!
	sleep 8
	win=$(xdotool search --onlyvisible --class vite 2>/dev/null | head -n 1)
	[ -n "$win" ] && xdotool windowmove "$win" 0 0 windowsize "$win" "$2" "$3" 2>/dev/null
	sleep 4
	import -window root "$1"
	kill $pid' "$trace" "$out" "$w" "$h"
echo "$out"
