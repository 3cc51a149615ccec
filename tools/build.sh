#!/bin/sh
# Configure and build ptdecode in a build directory.
#   tools/build.sh [DIR [CONFIGURE-ARGS...]]      (default DIR: build)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-build}
[ $# -gt 0 ] && shift
case $dir in /*) ;; *) dir="$top/$dir" ;; esac
cd "$top"
[ -x configure ] && [ configure -nt configure.ac ] && [ configure -nt Makefile.am ] ||
	autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
mkdir -p "$dir"
cd "$dir"
if [ ! -f Makefile ] || [ "$top/configure" -nt Makefile ]; then
	"$top/configure" -q "$@"
fi
make -s -j"$(nproc)" >/dev/null
