#!/bin/sh
# mpirun.sh N PROGRAM [ARGS...]: run PROGRAM on N ranks of this machine, as the tests
# need it: oversubscribed (CI has 2 cores), allowed as root, shared memory + TCP on
# loopback only, workers not bound unless STARPU_WORKERS_NOBIND=0 is given (the tests'
# ranks would pile onto CI's few cores).
# Extra mpirun arguments may come in $MPIRUN_ARGS.
n=$1; shift
: "${MPIEXEC:=mpiexec}"
if [ "$(id -u)" = 0 ]; then
	OMPI_ALLOW_RUN_AS_ROOT=1; OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
fi
OMPI_MCA_btl=${OMPI_MCA_btl:-self,vader,tcp}
OMPI_MCA_btl_tcp_if_include=${OMPI_MCA_btl_tcp_if_include:-lo}
OMPI_MCA_oob_tcp_if_include=${OMPI_MCA_oob_tcp_if_include:-lo}
OMPI_MCA_pml=${OMPI_MCA_pml:-ob1}
OMPI_MCA_rmaps_base_oversubscribe=1
STARPU_WORKERS_NOBIND=${STARPU_WORKERS_NOBIND:-1}
export OMPI_MCA_btl OMPI_MCA_btl_tcp_if_include OMPI_MCA_oob_tcp_if_include OMPI_MCA_pml \
	OMPI_MCA_rmaps_base_oversubscribe STARPU_WORKERS_NOBIND
# shellcheck disable=SC2086
exec "$MPIEXEC" --oversubscribe --bind-to none $MPIRUN_ARGS -n "$n" "$@"
