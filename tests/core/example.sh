#!/bin/sh
# The paper's Fig. 4/5 program (apps/tuccompi-example) computes pi under each policy, on
# every CPU core and, where there is one, the GPU (its CUDA plug-in uses GPULAUNCH into a
# PARLLMK workspace).
b=${top_builddir:-.}
for p in eq1 eq2 ms; do
	out=$("$b/apps/tuccompi-example" $p 2>&1) || { echo "$out"; echo "FAIL: $p"; exit 1; }
	echo "$out"
	echo "$out" | grep -q "^pi = 3.14159265[0-9]* (error [0-9.]*e-1[0-9])" || { echo "FAIL: pi not within 1e-10 under $p"; exit 1; }
done
