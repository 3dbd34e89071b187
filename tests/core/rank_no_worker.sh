#!/bin/sh
# A rank that would start StarPU with no worker (here rank 1 with STARPU_NCPU=0 and no GPU: on a GPU node,
# the second rank of GPUs-only runs when the node has one GPU) does not leave the other rank waiting in
# StarPU-MPI's start-up, where nothing times out: every rank fails tuccompi_init() within seconds,
# naming rank 1 and how to fix it, and the job ends non-zero.
b=${top_builddir:-.}
s=${top_srcdir:-.}
command -v "${MPIEXEC:-mpiexec}" >/dev/null 2>&1 || { echo "SKIP: no mpiexec"; exit 77; }
out=$(mktemp)
wrap=$(mktemp)
trap 'rm -f "$out" "$wrap"' EXIT
printf '#!/bin/sh\n[ "${OMPI_COMM_WORLD_RANK:-}" = 1 ] && { STARPU_NCPU=0; STARPU_NCUDA=0; export STARPU_NCPU STARPU_NCUDA; }\nexec "$@"\n' >"$wrap"
chmod +x "$wrap"
start=$(date +%s)
timeout 120 "$s/tests/mpirun.sh" 2 "$wrap" "$b/apps/tuccompi-example" ms >"$out" 2>&1
rc=$?
took=$(($(date +%s) - start))
cat "$out"
[ $rc = 124 ] && { echo "FAIL: the job hung (killed after 120 s)"; exit 1; }
[ $rc = 0 ] && { echo "FAIL: the job succeeded although rank 1 had no worker"; exit 1; }
n=$(grep -c "rank 1 would have no unit to run tasks on" "$out")
[ "$n" -ge 2 ] || { echo "FAIL: not every rank said which rank had no unit ($n lines)"; exit 1; }
grep -q "run at most one rank per GPU" "$out" || { echo "FAIL: the message says no way to fix it"; exit 1; }
[ "$took" -le 60 ] || { echo "FAIL: the job took $took s to end"; exit 1; }
echo "ok: both ranks refused to start in $took s, naming rank 1"
