#!/bin/sh
# Configure and build ptdecode in a build directory.
#   tools/build.sh [--pgo] [DIR [CONFIGURE-ARGS...]]      (default DIR: build)
#
# --pgo: a profile-guided build, the one the README's commands and the
# bench use, where ptdecode is the static program (configure
# --enable-static-ptdecode=auto, src/fullprog.h) and ptdecode-full the
# dynamically linked one it runs for raw and CoreSight trace, the exports
# and input from a pipe.  ptdecode is built with gcc's -fprofile-generate, decodes the
# committed recordings of testdata/record (the test suite's, not the
# bench's workloads; indirect-cyc for CYC packets in segments) in a few
# --itrace modes, i100us forty times more, and is built again with
# -fprofile-use, and with link-time optimization (-flto=auto) when the
# compiler links with it.  Done again only when a source is newer than the
# last profile-guided build; a plain build in DIR is replaced by one.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
pgo=
if [ "${1:-}" = --pgo ]; then
	pgo=1
	shift
fi
dir=${1:-build}
[ $# -gt 0 ] && shift
case $dir in /*) ;; *) dir="$top/$dir" ;; esac
cd "$top"
[ -x configure ] && [ configure -nt configure.ac ] && [ configure -nt Makefile.am ] ||
	autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
mkdir -p "$dir"
cd "$dir"
jobs=$(nproc)

if [ -z "$pgo" ]; then
	if [ ! -f Makefile ] || [ "$top/configure" -nt Makefile ] || [ -f pgo.stamp ]; then
		[ -f pgo.stamp ] && [ -f Makefile ] && make -s clean >/dev/null
		rm -f pgo.stamp
		"$top/configure" -q "$@"
	fi
	make -s -j"$jobs" >/dev/null
	exit 0
fi

# profile-guided: up to date when nothing is newer than the stamp
if [ -f pgo.stamp ] && [ -f Makefile ] &&
	[ -z "$(find "$top/configure" "$top/Makefile.am" "$top/src" "$top/decoders" \
		"$top/formats" "$top/tools/build.sh" -newer pgo.stamp -print 2>/dev/null | head -1)" ]; then
	make -s -j"$jobs" >/dev/null
	exit 0
fi
rm -f pgo.stamp
# -O3: with the profile, W5 i100us took 8.7% fewer instructions than at
# -O2 and 0.93 of the time (bench/analysis.md, forty-first round)
cflags=${CFLAGS:--g -O3}
# link-time optimization: the decoder's walk calls into src/ through
# pointers and small functions of other files (bench/analysis.md)
if [ -z "${CFLAGS:-}" ] &&
	printf 'int main(void) { return 0; }\n' |
	${CC:-cc} -flto=auto -x c - -o /dev/null >/dev/null 2>&1; then
	cflags="$cflags -flto=auto"
fi
[ -f Makefile ] && make -s clean >/dev/null
find . -name '*.gcda' -exec rm -f {} +
"$top/configure" -q --enable-static-ptdecode=auto "$@" \
	CFLAGS="$cflags -fprofile-generate -fprofile-update=atomic"
make -s -j"$jobs" >/dev/null
rec="$top/testdata/record"
for f in "$rec"/*.data; do
	for m in i100us e b cr i0ns; do
		./ptdecode -i "$f" --symfs "$rec" --itrace=$m >/dev/null 2>&1 || true
	done
	./ptdecode -j 2 -i "$f" --symfs "$rec" --itrace=i1us >/dev/null 2>&1 || true
	# the sampling modes' paths (segments, runs) again: a full dump (b,
	# i0ns) runs the per-branch paths a thousand times as often, and the
	# profile would make the sampling paths cold (bench/analysis.md,
	# thirty-second round)
	for i in $(seq 40); do
		./ptdecode -j 1 -i "$f" --symfs "$rec" --itrace=i100us >/dev/null 2>&1 || true
	done
done
make -s clean >/dev/null
# functions the recordings do not run are optimized as without a profile;
# a source changed since the profile was made is built without it.  gcc
# optimizes for size the blocks outside the most run ones that make up
# a share of the profile's counts (hot-bb-count-ws-permille, 99.0% by
# default), and the recordings have few records (threads-2cpu: 64 context
# switches): at 99.0% the records' path of a trace with 43 K of them (the
# bench's W5) copied and cleared its structures with rep movs and rep
# stos; at 99.9%, W5 i100us took 8% fewer instructions and 0.82 of the
# time (bench/analysis.md, thirty-ninth round)
"$top/configure" -q --enable-static-ptdecode=auto "$@" \
	CFLAGS="$cflags -fprofile-use -fprofile-partial-training --param=hot-bb-count-ws-permille=999 -Wno-missing-profile -Wno-coverage-mismatch"
make -s -j"$jobs" >/dev/null
touch pgo.stamp
