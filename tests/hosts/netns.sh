# netns.sh: hosts emulated on one machine, for tests and benchmarks of the 1st layer (sourced).
#
# Each host is a Linux network namespace with a host name of its own (unshare --uts) and one link
# to a bridge of this run's own, in a private subnet this file picks. mpirun runs in a namespace of
# its own on the same bridge (the launcher, as on a login node) or on the first host (as in a batch
# job), and starts its daemons inside the hosts through an rsh agent that enters their namespace.
# Ranks on one host talk through shared memory, ranks on different hosts through TCP over their
# links. The namespaces keep the kernel's TCP settings (net.ipv4.tcp_retries2 and the rest), as a
# cluster's hosts do.
#
#   hosts_up N [RTT_MS [RATE]]   N hosts; with RTT_MS (> 0), a round trip between two hosts of about
#                                RTT_MS ms (each link delays frames RTT_MS/4 each way: a delayfwd
#                                forwarder of ours, this kernel has no netem); with RATE (tc's syntax,
#                                e.g. 1gbit), each link limited to it both ways (tc tbf)
#   hosts_mpirun RANKS_PER_HOST PROGRAM [ARGS...]   mpirun over every host, ranks in host order, in
#                                the current folder
#   hosts_cut I / hosts_mend I   host I's link goes down (its bridge side), mid-run / up again
#   hosts_pids [I]               the processes still inside the namespaces (host I's only)
#   hosts_down                   everything removed, by name and pid, Open MPI's session folders of
#                                the hosts included (also run at exit)
# Needs root, ip, tc and unshare; hosts_available says whether they are here (the caller skips).
# HOSTS_TIMEOUT: the library's TUCCOMPI_PEER_TIMEOUT for the runs (default 3 s). HOSTS_LAUNCHER: where
# mpirun runs, L (its own namespace, the default) or a host's number. HOSTS_WRAP: a command mpirun's
# line is given to (scripts/tuccompi-run). hosts_fwd: the path of the delayfwd program (needed with
# RTT_MS). hosts_on_exit: the caller's own clean-up, run after hosts_down at exit (hosts_up sets the
# EXIT trap).

: "${HOSTS_TIMEOUT:=3}"
: "${HOSTS_LAUNCHER:=L}"
hosts_prefix=tc$(printf %04x $(($$ % 65536)))
hosts_net=10.$(($$ % 200 + 20)).$(($$ / 200 % 250)) # /24
hosts_n=0
hosts_dir=

# Everything hosts_up needs, tried on a namespace of its own: says what is missing (then returns 1).
hosts_available() {
	[ "$(id -u)" = 0 ] || { echo "not root"; return 1; }
	for _h_c in ip tc unshare; do command -v $_h_c >/dev/null 2>&1 || { echo "no $_h_c"; return 1; }; done
	[ -c /dev/net/tun ] || { echo "no /dev/net/tun"; return 1; }
	_h_p=${hosts_prefix}p
	ip netns add "$_h_p" 2>/dev/null || { echo "cannot create network namespaces"; return 1; }
	_h_why=
	if ! ip link add "${_h_p}a" type veth peer name "${_h_p}b" 2>/dev/null; then
		_h_why="cannot create veth pairs"
	elif ! ip link set "${_h_p}b" netns "$_h_p" 2>/dev/null; then
		_h_why="cannot move links into a namespace"
	elif ! tc qdisc add dev "${_h_p}a" root tbf rate 1gbit burst 256kb latency 20ms 2>/dev/null; then
		_h_why="no tc tbf"
	elif ! ip netns exec "$_h_p" unshare --uts true 2>/dev/null; then
		_h_why="cannot make UTS namespaces (unshare --uts)"
	fi
	ip link del "${_h_p}a" 2>/dev/null
	ip netns del "$_h_p"
	[ -z "$_h_why" ] || { echo "$_h_why"; return 1; }
	return 0
}

# For tests: skip (exit 77, saying why) where hosts cannot be made or there is no mpiexec; the
# forwarder is the build tree's.
hosts_require() {
	_h_why=$(hosts_available) || { echo "SKIP: $_h_why"; exit 77; }
	command -v "${MPIEXEC:-mpiexec}" >/dev/null 2>&1 || { echo "SKIP: no mpiexec"; exit 77; }
	hosts_fwd=${top_builddir:-.}/tests/hosts/delayfwd
}

hosts_name() { echo "${hosts_prefix}h$1"; }

# _hosts_attach NS OUTER INNER HOSTBYTE: OUTER on the bridge, INNER into NS as its eth0 with the
# address HOSTBYTE of the subnet, loopback up.
_hosts_attach() {
	ip link set "$2" master "${hosts_prefix}b"
	ip link set "$2" up
	ip link set "$3" netns "$1"
	ip -n "$1" link set "$3" name eth0
	ip -n "$1" addr add "$hosts_net.$4/24" dev eth0
	ip -n "$1" link set eth0 up
	ip -n "$1" link set lo up
}

hosts_up() {
	_h_n=$1 _h_rtt=${2:-0} _h_rate=${3:-}
	hosts_dir=$(mktemp -d)
	trap 'hosts_down; eval "${hosts_on_exit:-:}"' EXIT
	trap 'hosts_down; eval "${hosts_on_exit:-:}"; exit 130' INT TERM
	_h_b=${hosts_prefix}b
	ip link add "$_h_b" type bridge || return 1
	ip link set "$_h_b" up
	# the launcher: mpirun's namespace, on a plain link
	ip netns add "${hosts_prefix}L" || return 1
	ip link add "${hosts_prefix}vL" type veth peer name "${hosts_prefix}nL" || return 1
	_hosts_attach "${hosts_prefix}L" "${hosts_prefix}vL" "${hosts_prefix}nL" 254
	# one-way delay per link in microseconds: host to host crosses two links each way
	_h_d=$(awk -v r="$_h_rtt" 'BEGIN { printf "%d", r * 1000 / 4 }')
	_h_i=0
	while [ $_h_i -lt "$_h_n" ]; do
		_h_ns=$(hosts_name $_h_i) _h_out=${hosts_prefix}v$_h_i _h_in=${hosts_prefix}n$_h_i
		ip netns add "$_h_ns" || return 1
		if [ "$_h_d" -gt 0 ]; then
			# a real-time priority where allowed: on a busy machine the delay grows with the scheduler's
			_h_rt="chrt -f 50"
			chrt -f 50 true 2>/dev/null || _h_rt=
			$_h_rt "$hosts_fwd" "$_h_out" "$_h_in" "$_h_d" "$hosts_dir/fwd$_h_i.pid" 2>"$hosts_dir/fwd$_h_i.log" &
			_h_k=0
			while [ ! -s "$hosts_dir/fwd$_h_i.pid" ] && [ $_h_k -lt 100 ]; do sleep 0.05; _h_k=$((_h_k + 1)); done
			[ -s "$hosts_dir/fwd$_h_i.pid" ] || { cat "$hosts_dir/fwd$_h_i.log"; return 1; }
		else
			ip link add "$_h_out" type veth peer name "$_h_in" || return 1
		fi
		_hosts_attach "$_h_ns" "$_h_out" "$_h_in" $((_h_i + 1))
		if [ -n "$_h_rate" ]; then
			tc qdisc add dev "$_h_out" root tbf rate "$_h_rate" burst 256kb latency 20ms
			tc -n "$_h_ns" qdisc add dev eth0 root tbf rate "$_h_rate" burst 256kb latency 20ms
		fi
		_h_i=$((_h_i + 1))
	done
	hosts_n=$_h_n
	cat >"$hosts_dir/agent" <<'EOF'
#!/bin/sh
# rsh agent for mpirun: AGENT [OPTIONS] HOST COMMAND... runs COMMAND in the namespace HOST, under
# the host name HOST (mpirun passes the daemon's command as one string, as to ssh).
while [ $# -gt 0 ]; do case $1 in -*) shift ;; *) break ;; esac; done
host=$1
shift
exec ip netns exec "$host" unshare --uts sh -c "hostname $host; $*"
EOF
	chmod +x "$hosts_dir/agent"
}

hosts_mpirun() {
	_h_pph=$1
	shift
	_h_list= _h_i=0
	while [ $_h_i -lt "$hosts_n" ]; do
		_h_list=$_h_list${_h_list:+,}$(hosts_name $_h_i):$_h_pph
		_h_i=$((_h_i + 1))
	done
	if [ "$HOSTS_LAUNCHER" = L ]; then _h_ln=${hosts_prefix}L; else _h_ln=$(hosts_name "$HOSTS_LAUNCHER"); fi
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 STARPU_WORKERS_NOBIND=1 \
		ip netns exec "$_h_ln" unshare --uts sh -c 'hostname "$0"; exec "$@"' "$_h_ln" ${HOSTS_WRAP:-} \
		"${MPIEXEC:-mpiexec}" --host "$_h_list" -n $((_h_pph * hosts_n)) --oversubscribe --bind-to none \
		--mca plm_rsh_agent "$hosts_dir/agent" --mca plm_rsh_no_tree_spawn 1 \
		--mca pml ob1 --mca btl self,vader,tcp \
		--mca btl_tcp_if_include "$hosts_net.0/24" --mca oob_tcp_if_include "$hosts_net.0/24" \
		--mca mpi_yield_when_idle 1 \
		-x TUCCOMPI_PEER_TIMEOUT="$HOSTS_TIMEOUT" ${HOSTS_MPIRUN_ARGS:-} "$@"
}

hosts_cut() { ip link set "${hosts_prefix}v$1" down; }
hosts_mend() { ip link set "${hosts_prefix}v$1" up; }

hosts_pids() {
	[ $# = 1 ] && { ip netns pids "$(hosts_name "$1")" 2>/dev/null; return 0; }
	ip netns pids "${hosts_prefix}L" 2>/dev/null
	_h_i=0
	while [ $_h_i -lt "$hosts_n" ]; do
		ip netns pids "$(hosts_name $_h_i)" 2>/dev/null
		_h_i=$((_h_i + 1))
	done
}

hosts_down() {
	_h_i=0
	while [ $_h_i -lt "$hosts_n" ]; do
		_h_pids=$(ip netns pids "$(hosts_name $_h_i)" 2>/dev/null)
		[ -n "$_h_pids" ] && kill -9 $_h_pids 2>/dev/null
		[ -s "$hosts_dir/fwd$_h_i.pid" ] && kill -9 "$(cat "$hosts_dir/fwd$_h_i.pid")" 2>/dev/null
		ip link del "${hosts_prefix}v$_h_i" 2>/dev/null
		ip netns del "$(hosts_name $_h_i)" 2>/dev/null
		_h_i=$((_h_i + 1))
	done
	hosts_n=0
	_h_L=${hosts_prefix}L
	_h_pids=$(ip netns pids "$_h_L" 2>/dev/null)
	[ -n "$_h_pids" ] && kill -9 $_h_pids 2>/dev/null
	ip link del "${hosts_prefix}vL" 2>/dev/null
	ip netns del "$_h_L" 2>/dev/null
	ip link del "${hosts_prefix}b" 2>/dev/null
	# Open MPI's session folders of the namespaces' host names (a process killed leaves its own)
	rm -rf "${TMPDIR:-/tmp}/ompi.${hosts_prefix}"*
	[ -n "$hosts_dir" ] && rm -rf "$hosts_dir"
	hosts_dir=
	return 0
}
