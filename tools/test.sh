#!/bin/sh
# Fresh Debian machine to test results in one command: install what is
# missing, build twice (plain, profile-guided as the README's main command
# and the bench build it, and with AddressSanitizer and
# UndefinedBehaviorSanitizer), run `make check` in both, and end with the
# line "N passed, N failed, N skipped".  Exit status 0 only if nothing failed.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
sh "$top/tools/deps.sh" test || exit 1

pass=0 fail=0 skip=0
for variant in plain asan; do
	dir="$top/build"
	pgo=--pgo
	args=""
	if [ $variant = asan ]; then
		dir="$top/build-asan"
		pgo=""
		args="--enable-sanitizers"
	fi
	echo "== $variant build" >&2
	# shellcheck disable=SC2086
	if ! sh "$top/tools/build.sh" $pgo "$dir" $args; then
		echo "$variant: build failed" >&2
		fail=$((fail + 1))
		continue
	fi
	(cd "$dir" && make -s -j"$(nproc)" check >"$dir/check.out" 2>&1)
	log="$dir/test-suite.log"
	if [ ! -f "$log" ]; then
		tail -20 "$dir/check.out" >&2
		fail=$((fail + 1))
		continue
	fi
	grep -E '^(FAIL|ERROR|XPASS):' "$dir/check.out" >&2 || true
	n() { sed -n "s/^# $1: *//p" "$log" | head -1; }
	p=$(n PASS) f=$(( $(n FAIL) + $(n ERROR) + $(n XPASS) )) s=$(n SKIP)
	echo "$variant: $p passed, $f failed, $s skipped" >&2
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
done
# the fuzz harnesses, each for a bounded time under ASan and UBSan
echo "== fuzz (${FUZZ_SECONDS:-60} s per harness)" >&2
if command -v clang >/dev/null 2>&1; then
	if sh "$top/tools/fuzz.sh" "${FUZZ_SECONDS:-60}" "$top/build-fuzz"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
else
	echo "fuzz: clang not installed" >&2
	skip=$((skip + 1))
fi
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
