#!/bin/sh
# Fresh Debian machine to a result in one command: install what is missing,
# build, and decode a bundled Intel PT recording (two threads on two CPUs,
# made by ptdecode-record) as perf script --itrace=cr prints it.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sh "$top/tools/deps.sh" build
sh "$top/tools/build.sh" --pgo build
if [ $# -gt 0 ]; then
	exec "$top/build/ptdecode" "$@"
fi
exec "$top/build/ptdecode" -i "$top/testdata/record/threads-2cpu.data" \
	--symfs "$top/testdata/record" --itrace=cr --quiet
