#!/bin/sh
# Fresh Debian machine to a result in one command: install what is missing,
# build, and read a bundled recording (a real CoreSight recording made by
# Android's simpleperf) with ptdecode --stats.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sh "$top/tools/deps.sh" build
sh "$top/tools/build.sh" build
exec "$top/build/ptdecode" --stats "${1:-$top/testdata/simpleperf-etm/perf_kernel.data}"
