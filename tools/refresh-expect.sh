#!/bin/sh
# Regenerate testdata/expect/ from perf itself (the oracle): for every
# recording in testdata/, what `perf report --stats` and `perf report -D`
# print.  Run after adding a recording; commit the result.  Never put
# ptdecode's own output there.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
command -v perf >/dev/null || { echo "perf is needed (apt-get install linux-perf)" >&2; exit 1; }
mkdir -p "$top/testdata/expect"
tab=$(printf '\t')
for f in "$top"/testdata/perf/*.data "$top"/testdata/simpleperf-etm/*.data "$top"/testdata/synthetic/*.data "$top"/testdata/record/*.data; do
	[ -f "$f" ] || continue
	name=$(basename "$(dirname "$f")")_$(basename "$f" .data)
	perf report --stats -i "$f" >"$top/testdata/expect/$name.stats" 2>/dev/null || true
	# keep the record lines and their detail lines only; the raw hex and
	# decoder packet dumps are large and not compared
	perf report -D -i "$f" 2>/dev/null >"$top/testdata/expect/$name.full" || true
	# the record counts perf prints at the end of -D
	sed -n '/^Aggregated stats/,$p' "$top/testdata/expect/$name.full" \
		>"$top/testdata/expect/$name.dstats"
	grep -E "^(-?[0-9]+ )*(0x[0-9a-f]+|0) \\[0x[0-9a-f]+\\]: PERF_RECORD_|^( \\.|\\.\\.)|^: unhandled!|^$tab$tab" \
		"$top/testdata/expect/$name.full" >"$top/testdata/expect/$name.dump" || true
	rm -f "$top/testdata/expect/$name.full"
	echo "$name"
done
perf --version >"$top/testdata/expect/PERF_VERSION"
