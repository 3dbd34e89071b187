#!/usr/bin/env bash
# Device call 5 of the 2026-12-06f series: call-2.sh again (the H200-only PHAST GPU tests and deep-graph
# bench), with `make bundle` of c12b928 (main: the builder's guard, chunks and hub searches; its GPU
# code is 51e7f9c's). On another GPU it stops at once.
exec bash bench/results/device-2026-12-06f/call-2.sh
