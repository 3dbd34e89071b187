# hosts.sh: hosts emulated on one machine, for tests and benchmarks of the 1st layer (sourced).
#
# Each host is a Linux network namespace with a host name of its own (unshare --uts) and one link
# to a bridge of this run's own, in a private subnet this file picks. mpirun runs in a namespace of
# its own on the same bridge (the launcher) and starts its daemons inside the hosts through an rsh
# agent that enters their namespace. Ranks on one host talk through shared memory, ranks on
# different hosts through TCP over their links. Every namespace gives up on a TCP connection after
# about 6 s without acknowledgement (net.ipv4.tcp_retries2=4, a setting of the namespace only), so
# that mpirun and its daemons notice a lost host and end instead of retransmitting for 15 minutes.
#
#   hosts_up N [RTT_MS [RATE]]   N hosts; with RTT_MS (> 0), a round trip between two hosts of about
#                                RTT_MS ms (each link delays frames RTT_MS/4 each way: a delayfwd
#                                forwarder of ours, this kernel has no netem); with RATE (tc's syntax,
#                                e.g. 1gbit), each link limited to it both ways (tc tbf)
#   hosts_mpirun RANKS_PER_HOST PROGRAM [ARGS...]   mpirun over every host, ranks in host order
#   hosts_cut I                  host I's link goes down (its bridge side), mid-run
#   hosts_pids                   the processes still inside the namespaces
#   hosts_down                   everything removed, by name and pid (also run at exit)
# Needs root, ip, tc and unshare; hosts_available says whether they are here (the caller skips).
# HOSTS_TIMEOUT: the library's TUCCOMPI_PEER_TIMEOUT for the runs (default 3 s). hosts_fwd: the path of
# the delayfwd program (needed with RTT_MS). hosts_on_exit: the caller's own clean-up, run after
# hosts_down at exit (hosts_up sets the EXIT trap).

: "${HOSTS_TIMEOUT:=3}"
hosts_prefix=tc$(printf %04x $(($$ % 65536)))
hosts_net=10.$(($$ % 200 + 20)).$(($$ / 200 % 250)) # /24
hosts_n=0
hosts_dir=

# Everything hosts_up needs, tried on a namespace of its own: says what is missing (then returns 1).
hosts_available() {
	[ "$(id -u)" = 0 ] || { echo "not root"; return 1; }
	for c in ip tc unshare sysctl; do command -v $c >/dev/null 2>&1 || { echo "no $c"; return 1; }; done
	[ -c /dev/net/tun ] || { echo "no /dev/net/tun"; return 1; }
	p=${hosts_prefix}p
	ip netns add "$p" 2>/dev/null || { echo "cannot create network namespaces"; return 1; }
	why=
	if ! ip link add "${p}a" type veth peer name "${p}b" 2>/dev/null; then
		why="cannot create veth pairs"
	elif ! ip link set "${p}b" netns "$p" 2>/dev/null; then
		why="cannot move links into a namespace"
	elif ! tc qdisc add dev "${p}a" root tbf rate 1gbit burst 256kb latency 20ms 2>/dev/null; then
		why="no tc tbf"
	elif ! ip netns exec "$p" sysctl -q -w net.ipv4.tcp_retries2=4 2>/dev/null; then
		why="cannot set a namespace's net.ipv4.tcp_retries2"
	elif ! ip netns exec "$p" unshare --uts true 2>/dev/null; then
		why="cannot make UTS namespaces (unshare --uts)"
	fi
	ip link del "${p}a" 2>/dev/null
	ip netns del "$p"
	[ -z "$why" ] || { echo "$why"; return 1; }
	return 0
}

hosts_name() { echo "${hosts_prefix}h$1"; }

hosts_up() {
	n=$1 rtt=${2:-0} rate=${3:-}
	hosts_dir=$(mktemp -d)
	trap 'hosts_down; eval "${hosts_on_exit:-:}"' EXIT
	trap 'hosts_down; eval "${hosts_on_exit:-:}"; exit 130' INT TERM
	b=${hosts_prefix}b
	ip link add "$b" type bridge || return 1
	ip link set "$b" up
	# the launcher: mpirun's namespace
	L=${hosts_prefix}L
	ip netns add "$L" || return 1
	ip link add "${hosts_prefix}vL" type veth peer name "${hosts_prefix}nL" || return 1
	ip link set "${hosts_prefix}vL" master "$b"
	ip link set "${hosts_prefix}vL" up
	ip link set "${hosts_prefix}nL" netns "$L"
	ip -n "$L" link set "${hosts_prefix}nL" name eth0
	ip -n "$L" addr add "$hosts_net.254/24" dev eth0
	ip -n "$L" link set eth0 up
	ip -n "$L" link set lo up
	ip netns exec "$L" sysctl -q -w net.ipv4.tcp_retries2=4
	# one-way delay per link in microseconds: host to host crosses two links each way
	d=$(awk -v r="$rtt" 'BEGIN { printf "%d", r * 1000 / 4 }')
	i=0
	while [ $i -lt "$n" ]; do
		ns=$(hosts_name $i) out=${hosts_prefix}v$i in=${hosts_prefix}n$i
		ip netns add "$ns" || return 1
		if [ "$d" -gt 0 ]; then
			# a real-time priority where allowed: on a busy machine the delay grows with the scheduler's
			rt="chrt -f 50"
			chrt -f 50 true 2>/dev/null || rt=
			$rt "$hosts_fwd" "$out" "$in" "$d" "$hosts_dir/fwd$i.pid" 2>"$hosts_dir/fwd$i.log" &
			k=0
			while [ ! -s "$hosts_dir/fwd$i.pid" ] && [ $k -lt 100 ]; do sleep 0.05; k=$((k + 1)); done
			[ -s "$hosts_dir/fwd$i.pid" ] || { cat "$hosts_dir/fwd$i.log"; return 1; }
		else
			ip link add "$out" type veth peer name "$in" || return 1
		fi
		ip link set "$out" master "$b"
		ip link set "$out" up
		ip link set "$in" netns "$ns"
		ip -n "$ns" link set "$in" name eth0
		ip -n "$ns" addr add "$hosts_net.$((i + 1))/24" dev eth0
		ip -n "$ns" link set eth0 up
		ip -n "$ns" link set lo up
		ip netns exec "$ns" sysctl -q -w net.ipv4.tcp_retries2=4
		if [ -n "$rate" ]; then
			tc qdisc add dev "$out" root tbf rate "$rate" burst 256kb latency 20ms
			tc -n "$ns" qdisc add dev eth0 root tbf rate "$rate" burst 256kb latency 20ms
		fi
		i=$((i + 1))
	done
	hosts_n=$n
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
	pph=$1
	shift
	list= i=0
	while [ $i -lt "$hosts_n" ]; do
		list=$list${list:+,}$(hosts_name $i):$pph
		i=$((i + 1))
	done
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 STARPU_WORKERS_NOBIND=1 \
		ip netns exec "${hosts_prefix}L" unshare --uts sh -c 'hostname "$0"; exec "$@"' "${hosts_prefix}L" \
		"${MPIEXEC:-mpiexec}" --host "$list" -n $((pph * hosts_n)) --oversubscribe --bind-to none \
		--mca plm_rsh_agent "$hosts_dir/agent" --mca plm_rsh_no_tree_spawn 1 \
		--mca pml ob1 --mca btl self,vader,tcp \
		--mca btl_tcp_if_include "$hosts_net.0/24" --mca oob_tcp_if_include "$hosts_net.0/24" \
		--mca mpi_yield_when_idle 1 \
		--mca oob_tcp_keepalive_time 4 --mca oob_tcp_keepalive_intvl 1 --mca oob_tcp_keepalive_probes 3 \
		-x TUCCOMPI_PEER_TIMEOUT="$HOSTS_TIMEOUT" ${HOSTS_MPIRUN_ARGS:-} "$@"
}

hosts_cut() { ip link set "${hosts_prefix}v$1" down; }

hosts_pids() {
	ip netns pids "${hosts_prefix}L" 2>/dev/null
	i=0
	while [ $i -lt "$hosts_n" ]; do
		ip netns pids "$(hosts_name $i)" 2>/dev/null
		i=$((i + 1))
	done
}

hosts_down() {
	i=0
	while [ $i -lt "$hosts_n" ]; do
		pids=$(ip netns pids "$(hosts_name $i)" 2>/dev/null)
		[ -n "$pids" ] && kill -9 $pids 2>/dev/null
		[ -s "$hosts_dir/fwd$i.pid" ] && kill -9 "$(cat "$hosts_dir/fwd$i.pid")" 2>/dev/null
		ip link del "${hosts_prefix}v$i" 2>/dev/null
		ip netns del "$(hosts_name $i)" 2>/dev/null
		i=$((i + 1))
	done
	hosts_n=0
	L=${hosts_prefix}L
	pids=$(ip netns pids "$L" 2>/dev/null)
	[ -n "$pids" ] && kill -9 $pids 2>/dev/null
	ip link del "${hosts_prefix}vL" 2>/dev/null
	ip netns del "$L" 2>/dev/null
	ip link del "${hosts_prefix}b" 2>/dev/null
	[ -n "$hosts_dir" ] && rm -rf "$hosts_dir"
	hosts_dir=
	return 0
}
