#!/bin/sh
# Runs one test under a timeout (TEST_TIMEOUT seconds, default 300): a test that hangs, for
# instance on a lost message between ranks, fails with exit 124 instead of stalling make check.
# The whole process group is killed, mpirun's children included.
limit=${TEST_TIMEOUT:-300}
if command -v timeout >/dev/null 2>&1; then
	timeout --kill-after=10 "$limit" "$@"
	rc=$?
	[ $rc = 124 ] && echo "run-test.sh: '$*' still running after $limit s (TEST_TIMEOUT): killed" >&2
	exit $rc
fi
exec "$@"
