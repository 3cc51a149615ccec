#!/bin/sh
# Build the libFuzzer harnesses (tests/fuzz/fuzz_*.c) with clang,
# AddressSanitizer and UndefinedBehaviorSanitizer, and run each for a
# bounded time on a seed corpus made from testdata/.
#   tools/fuzz.sh [SECONDS-PER-HARNESS [BUILD-DIR [HARNESS...]]]
#   (default 60 s, BUILD-DIR build-fuzz, every harness)
# The project's library is built once, instrumented, in BUILD-DIR/lib.
# Exit status 0 when no harness found a crash, a leak, a hang (10 s per
# input) or a memory blow-up (1 GB); what it found is kept in
# BUILD-DIR/crashes/ and the log in BUILD-DIR/NAME.log.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
out=${2:-$top/build-fuzz}
[ $# -gt 2 ] && shift 2 || set --
CC=${FUZZ_CC:-clang}
CXX=${FUZZ_CXX:-clang++}
command -v "$CC" >/dev/null || { echo "fuzz: $CC not found (apt-get install clang)" >&2; exit 2; }
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
mkdir -p "$out/crashes" "$out/lib"
(cd "$top" && { [ -x configure ] && [ configure -nt configure.ac ] && [ configure -nt Makefile.am ]; } ||
	autoreconf -fi >/dev/null 2>&1)
if [ ! -f "$out/lib/Makefile" ] || [ "$top/configure" -nt "$out/lib/Makefile" ]; then
	(cd "$out/lib" && "$top/configure" -q CC="$CC" CFLAGS="-g -O1 -fsanitize=fuzzer-no-link $SAN" \
		CXX="$CXX" CXXFLAGS="-g -O1 -fsanitize=fuzzer-no-link $SAN -fno-sanitize=function" >/dev/null)
fi
echo "fuzz: building the instrumented library" >&2
make -C "$out/lib" -s -j"$(nproc)" libptd.a >/dev/null
# the CoreSight backend loads OpenCSD through its module, which the
# harnesses find beside them (decoders/cs-etm/ocsd_load.h)
if grep -q '^#define HAVE_OPENCSD 1' "$out/lib/config.h"; then
	make -C "$out/lib" -s ptdecode-ocsd.so >/dev/null
	cp "$out/lib/ptdecode-ocsd.so" "$out/"
fi
# the libraries the programs link (the Makefile's LDADD, less the library)
LIBS=$(printf 'fuzz-print-ldadd:\n\t@echo $(LDADD)\n' |
	make -s --no-print-directory -C "$out/lib" -f Makefile -f - fuzz-print-ldadd | sed 's/^libptd\.a //')
# OpenCSD 1.3.3 leaks its element callback wrapper (tests/lsan.supp)
export LSAN_OPTIONS="suppressions=$top/tests/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
FLAGS="-g -O1 -fsanitize=fuzzer $SAN -I$top/src -I$top -I$out/lib -DFUZZ_TESTDATA=\"$top/testdata\""

# seed NAME CORPUS: the starting inputs of a harness
seed() {
	case $1 in
	fuzz_perfdata) find "$top/testdata" -name '*.data' -size -400k -exec cp {} "$2/" \; ;;
	fuzz_decode)   # the selector byte comes last: the itrace set (bits 0-2),
		# the fields (3, 4), JSON (5), the gap report (6)
		for f in "$top"/testdata/record/*.data "$top"/testdata/simpleperf-etm/perf_with_unformatted_trace.data \
			 "$top"/testdata/simpleperf-etm/perf_kernel.data; do
			for s in 0 1 2 3 17 42 64 97; do
				{ cat "$f"; printf "\\$(printf %o $s)"; } >"$2/$(basename "$f" .data)-$s"
			done
		done ;;
	fuzz_pt) find "$top/testdata/libipt-ptt" -name '*.pt' -exec cp {} "$2/" \; ;;
	fuzz_snapshot)   # a selector byte, then the file it replaces
		d="$top/testdata/opencsd/juno_r1_1"
		for f in 0:cstrace.bin 1:snapshot.ini 2:trace.ini 3:device_6.ini 4:cstrace.bin 24:cstrace.bin; do
			{ printf "\\$(printf %o "${f%%:*}")"; cat "$d/${f#*:}"; } >"$2/${f#*:}-${f%%:*}"
		done ;;
	fuzz_kallsyms)
		printf 'ffffffff81000000 T _text\nffffffff81000000 T _stext\nffffffff81000010 t f\nffffffff81000020 W w\n' >"$2/a"
		printf 'ffffffff81000000 A _text\n\nffffffff81001000 t m\t[mod]\nffffffff81001000 D d\n0x1 T x\n' >"$2/b"
		printf 'ffffffffc0000000 t a [x]\nffffffffc0000000 B b\nffffffffffffffff T top\n' >"$2/c" ;;
	fuzz_options)
		printf '\001i100usge\000comm,tid,time,ip,sym\000 1.5,2.5' >"$2/a"
		printf '\002crl8e+o-f\000+insn,-dso,brstack\00010%%/2' >"$2/b"
		printf '\003qqZi0ns\000ip,addr\0003,4 5,6' >"$2/c" ;;
	esac
}

status=0
harnesses=${*:-$(cd "$top/tests/fuzz" && ls fuzz_*.c | sed 's/\.c$//')}
for name in $harnesses; do
	# shellcheck disable=SC2086
	$CC $FLAGS -o "$out/$name" "$top/tests/fuzz/$name.c" "$out/lib/libptd.a" $LIBS
	corpus="$out/corpus-$name"
	mkdir -p "$corpus"
	seed "$name" "$corpus"
	echo "fuzz: $name for $secs s" >&2
	# OpenCSD is built without frame pointers: the slow unwinder finds the
	# frame its leak suppression names
	asan=${ASAN_OPTIONS:-}
	case $name in fuzz_snapshot|fuzz_decode) asan="fast_unwind_on_malloc=0${asan:+:$asan}" ;; esac
	# the decoders print warnings on stderr: libFuzzer keeps its own copy
	if ! ASAN_OPTIONS=$asan "$out/$name" -max_total_time="$secs" -max_len=1048576 -rss_limit_mb=1024 -timeout=10 \
	     -close_fd_mask=2 -artifact_prefix="$out/crashes/$name-" -print_final_stats=1 "$corpus" \
	     >"$out/$name.log" 2>&1; then
		echo "fuzz: $name FAILED, see $out/$name.log" >&2
		tail -30 "$out/$name.log" >&2
		status=1
	else
		grep -E 'stat::number_of_executed_units|stat::peak_rss_mb' "$out/$name.log" | sed "s/^/fuzz: $name /" >&2
	fi
done
exit $status
