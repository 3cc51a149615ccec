#!/bin/sh
# Build the libFuzzer harnesses (tests/fuzz/fuzz_*.c) with clang,
# AddressSanitizer and UndefinedBehaviorSanitizer, and run each for a
# bounded time on a seed corpus made from testdata/.
#   tools/fuzz.sh [SECONDS-PER-HARNESS [BUILD-DIR]]   (default 60, build-fuzz)
# Exit status 0 when no harness found a crash; crashes are kept in
# BUILD-DIR/crashes/.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
out=${2:-$top/build-fuzz}
CC=${FUZZ_CC:-clang}
command -v "$CC" >/dev/null || { echo "fuzz: $CC not found (apt-get install clang)" >&2; exit 2; }
mkdir -p "$out/crashes"
# the build's config.h (any build directory's will do; make one if none)
if [ ! -f "$out/config.h" ]; then
	(cd "$top" && [ -x configure ] || autoreconf -fi >/dev/null 2>&1)
	(cd "$out" && "$top/configure" -q >/dev/null)
fi
FLAGS="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I$top/src -I$top -I$out"
LIBS=""
pkg-config --exists libzstd 2>/dev/null && LIBS="$LIBS $(pkg-config --libs libzstd)"
SRC=$(cd "$top" && ls src/common/*.c formats/perf/*.c formats/out/dump*.c src/tsc.c src/machine.c \
	src/ordered.c src/auxqueue.c src/session.c src/stats.c | grep -v writer.c)
status=0
for h in "$top"/tests/fuzz/fuzz_*.c; do
	name=$(basename "$h" .c)
	# shellcheck disable=SC2086
	(cd "$top" && $CC $FLAGS -o "$out/$name" "$h" $SRC $LIBS)
	corpus="$out/corpus-$name"
	mkdir -p "$corpus"
	case $name in
	fuzz_perfdata) find "$top/testdata" -name '*.data' -size -400k -exec cp {} "$corpus/" \; ;;
	esac
	echo "fuzz: $name for $secs s" >&2
	if ! "$out/$name" -max_total_time="$secs" -max_len=1048576 -rss_limit_mb=1024 -timeout=10 \
	     -artifact_prefix="$out/crashes/$name-" -print_final_stats=1 "$corpus" \
	     >"$out/$name.log" 2>&1; then
		echo "fuzz: $name FAILED, see $out/$name.log" >&2
		tail -30 "$out/$name.log" >&2
		status=1
	else
		grep -E 'stat::number_of_executed_units|stat::peak_rss_mb' "$out/$name.log" | sed "s/^/fuzz: $name /" >&2
	fi
done
exit $status
