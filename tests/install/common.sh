# Sourced by the tests of tests/install/ after setting s (the source tree) and b (the build tree):
# install_start TOOL... skips (77) a sanitizer build, whose library needs the sanitizer runtime
# loaded first (a user's program is not), and a machine without one of the TOOLs; then sets fail,
# a temporary folder $tmp removed at exit, abs_s, abs_b and starpu (StarPU's prefix, may be empty).
fail() { echo "FAIL: $*"; exit 1; }
install_start() {
	[ -n "${TUCCOMPI_SANITIZE:-}" ] && { echo "sanitizer build (make check-sanitize): skipped"; exit 77; }
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 || { echo "no $t: skipped"; exit 77; }
	done
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	abs_s=$(cd "$s" && pwd)
	abs_b=$(cd "$b" && pwd)
	starpu=${STARPU_PREFIX:-}
}

# readme_block FILE MARKER OUT: the shell block after FILE's "<!-- tests/install/MARKER " comment into OUT
readme_block() {
	awk -v m="<!-- tests/install/$2 " 'index($0, m) == 1 { f = 1; next }
		f == 1 && /^```sh$/ { f = 2; next }
		f == 2 && /^```$/ { exit }
		f == 2 { print }' "$1" >"$3"
	[ -s "$3" ] || fail "no shell block after the $2 marker in $1"
}

# mpirun_lines IN OUT MPIRUN: IN into OUT with its lines "mpirun -n N ARGS" run as "MPIRUN N ARGS"
# (tests/mpirun.sh: as root, oversubscribed, on loopback), or left out when MPIRUN is empty
mpirun_lines() {
	if [ -n "$3" ]; then
		sed "s|^mpirun -n \([0-9]*\) |$3 \1 |" "$1" >"$2"
	else
		echo "(no mpirun: the lines of mpirun are left out)"
		grep -v '^mpirun' "$1" >"$2"
	fi
}
