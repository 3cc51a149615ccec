#!/bin/sh
# Install the Debian packages ptdecode builds and tests with, those that are
# missing.  Needs root (or sudo).  Usage: tools/deps.sh [build|test]
set -eu
# zlib1g-dev, liblzma-dev, libbz2-dev: the static archives libdw's needs
# (the static program: src/fullprog.h)
BUILD="gcc g++ make autoconf automake libtool pkg-config libzstd-dev
libipt-dev libopencsd-dev libcapstone-dev libelf-dev libdw-dev libsqlite3-dev libpq-dev
zlib1g-dev liblzma-dev libbz2-dev"
TEST="linux-perf binutils coreutils python3 qemu-user clang gcc-aarch64-linux-gnu libc6-dev-arm64-cross libopencsd-bin
sqlite3 python3-pyside2.qtsql libqt5sql5-sqlite postgresql libqt5sql5-psql"
want=$BUILD
[ "${1:-build}" = test ] && want="$BUILD $TEST"

missing=""
for p in $want; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

SUDO=""
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null || { echo "deps: need root to install:$missing" >&2; exit 1; }
	SUDO=sudo
fi
echo "deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
