#!/bin/sh
# setup.sh finds the Debian mirror, its suite and whether deb-src entries exist in apt's
# configuration in every form a Debian machine may have it (issue 11: a stock Debian 12 keeps its
# sources in deb822 form only, with no sources.list and no deb-src), and --add-deb-src writes the
# right deb822 file. Runs on fake apt folders through TUCCOMPI_APT_ETC (no root, no network).
set -u
s=${top_srcdir:-.}
[ -f "$s/setup.sh" ] && [ -f "$s/README.md" ] || { echo "needs the source tree (not in a bundle): skipped"; exit 77; }
setup="$s/setup.sh"
command -v bash >/dev/null || { echo "no bash: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
n=0
codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
codename=${codename:-bookworm}

# plan NAME DIR EXPECTED: setup.sh --print-apt-plan on DIR prints EXPECTED (first 4 lines), exit 0,
# nothing on stderr.
plan() {
	n=$((n + 1))
	TUCCOMPI_APT_ETC=$2 bash "$setup" --print-apt-plan >"$tmp/out" 2>"$tmp/err"
	rc=$?
	printf '%s\n' "$3" >"$tmp/want"
	head -n 4 "$tmp/out" >"$tmp/got"
	if [ $rc = 0 ] && [ ! -s "$tmp/err" ] && cmp -s "$tmp/want" "$tmp/got"; then
		echo "ok: $1"
	else
		echo "FAIL: $1 (exit $rc)"
		diff "$tmp/want" "$tmp/got" | sed 's/^/    /'
		sed 's/^/    stderr: /' "$tmp/err"
		fails=$((fails + 1))
	fi
}

check() { # NAME CONDITION...
	n=$((n + 1))
	name=$1
	shift
	if "$@"; then echo "ok: $name"; else echo "FAIL: $name"; fails=$((fails + 1)); fi
}

# 1. Debian 12 as shipped: deb822 only, comment lines holding other URLs (even inside a stanza),
#    the security archive, a third-party repository first, no sources.list, no deb-src.
d=$tmp/deb822
mkdir -p "$d/sources.list.d"
cat >"$d/sources.list.d/aaa-vendor.sources" <<'EOF'
Types: deb
URIs: https://deb.nodesource.com/node_20.x
Suites: nodistro
Components: main
EOF
cat >"$d/sources.list.d/debian.sources" <<'EOF'
# URIs: http://wrong.example.org/debian
Types: deb
# http://snapshot.debian.org/archive/debian/20250520T000000Z
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
# http://snapshot.debian.org/archive/debian-security/20250520T000000Z
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
plan "deb822 only, no deb-src" "$d" "apt sources: $d
debian mirror: http://deb.debian.org/debian
suite: bookworm
deb-src: missing"
# --add-deb-src writes the deb822 file, then the plan sees it
TUCCOMPI_APT_ETC=$d bash "$setup" --add-deb-src >"$tmp/add.out" 2>&1
check "--add-deb-src exits 0" [ $? = 0 ]
cat >"$tmp/want.sources" <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
check "--add-deb-src wrote sources.list.d/tuccompi-deb-src.sources" \
	cmp -s "$tmp/want.sources" "$d/sources.list.d/tuccompi-deb-src.sources"
check "no temporary file left" [ ! -e "$d/sources.list.d/tuccompi-deb-src.sources.tmp" ]
plan "deb822 after --add-deb-src" "$d" "apt sources: $d
debian mirror: http://deb.debian.org/debian
suite: bookworm
deb-src: present"
cp "$d/sources.list.d/tuccompi-deb-src.sources" "$tmp/before"
TUCCOMPI_APT_ETC=$d bash "$setup" --add-deb-src >"$tmp/add.out" 2>&1
check "--add-deb-src a second time changes nothing" cmp -s "$tmp/before" "$d/sources.list.d/tuccompi-deb-src.sources"

# 2. One-line sources.list with [options], the security archive first, commented-out entries.
d=$tmp/oneline
mkdir -p "$d/sources.list.d"
cat >"$d/sources.list" <<'EOF'
# deb http://wrong.example.org/debian sid main
deb http://security.debian.org/debian-security bookworm-security main
deb [arch=amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://ftp.fr.debian.org/debian/ bookworm main contrib # a comment http://x.example/debian
#deb-src http://ftp.fr.debian.org/debian/ bookworm main
EOF
plan "one-line with [options], deb-src commented out" "$d" "apt sources: $d
debian mirror: http://ftp.fr.debian.org/debian/
suite: bookworm
deb-src: missing"
echo "deb-src [trusted=yes] http://ftp.fr.debian.org/debian/ bookworm main" >>"$d/sources.list"
plan "one-line with deb-src" "$d" "apt sources: $d
debian mirror: http://ftp.fr.debian.org/debian/
suite: bookworm
deb-src: present"

# 3. No apt configuration at all: deb.debian.org and this system's codename.
d=$tmp/none
mkdir -p "$d"
plan "no sources at all" "$d" "apt sources: $d
debian mirror: http://deb.debian.org/debian
suite: $codename
deb-src: missing"
TUCCOMPI_APT_ETC=$d bash "$setup" --add-deb-src >"$tmp/add.out" 2>&1
check "--add-deb-src creates sources.list.d" grep -qx "Suites: $codename" "$d/sources.list.d/tuccompi-deb-src.sources"

# 4. deb-src of another suite, or disabled, does not count; a multi-line URIs field does.
d=$tmp/other
mkdir -p "$d/sources.list.d"
cat >"$d/sources.list.d/debian.sources" <<'EOF'
Types: deb
URIs:
 http://deb.debian.org/debian
Suites: bookworm
Components: main

Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main

Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Enabled: no
EOF
plan "deb-src of another suite or disabled" "$d" "apt sources: $d
debian mirror: http://deb.debian.org/debian
suite: bookworm
deb-src: missing"

# 5. A bad option says so (no silent exit).
bash "$setup" --no-such-option >"$tmp/out" 2>&1
rc=$?
check "unknown option: exit 2 with a message" sh -c '[ "$1" = 2 ] && grep -q "unknown option" "$2"' _ "$rc" "$tmp/out"

echo "$((n - fails)) of $n checks passed"
[ "$fails" = 0 ]
