# Shared helpers for the shell tests (TAP output).
# Environment from the Makefile: top_srcdir, top_builddir, PTDECODE.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${PTDECODE:=$top_builddir/ptdecode}"
# the program that loads its libraries: ptdecode-full where ptdecode is the
# static program (src/fullprog.h), which runs it for what needs them
PTDECODE_FULL=$PTDECODE
[ -x "$(dirname "$PTDECODE")/ptdecode-full" ] && PTDECODE_FULL=$(dirname "$PTDECODE")/ptdecode-full
TESTDATA=$top_srcdir/testdata
TAP_N=0
TAP_FAILED=0

plan() { echo "1..$1"; }
ok() {  # ok COND-STATUS DESCRIPTION
	TAP_N=$((TAP_N + 1))
	if [ "$1" -eq 0 ]; then echo "ok $TAP_N - $2"; else echo "not ok $TAP_N - $2"; TAP_FAILED=$((TAP_FAILED + 1)); fi
}
skip() { TAP_N=$((TAP_N + 1)); echo "ok $TAP_N - $1 # SKIP $2"; }
diag() { sed 's/^/# /'; }
done_testing() { echo "1..$TAP_N"; [ "$TAP_FAILED" -eq 0 ]; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/ptdecode-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# Is perf usable as an oracle here?  Sets HAVE_PERF=1/0 and PERF_WHY.
HAVE_PERF=0
PERF_WHY="perf is not installed (Debian package linux-perf)"
if command -v perf >/dev/null 2>&1 && perf --version >/dev/null 2>&1; then
	HAVE_PERF=1
fi

# The count block of `perf report --stats` (from "Aggregated stats").
perf_stats_block() { perf report --stats -i "$1" 2>/dev/null | norm_stats; }
norm_stats() { sed -n '/^Aggregated stats/,/^# ptdecode/p' | grep -v '^# ptdecode' | sed '/^$/d'; }
ptd_stats_block() { "$PTDECODE" --stats -q "$1" 2>/dev/null | norm_stats; }

# Record blocks of a -D style dump, in order: each record line joined with
# its detail lines; raw hex dumps and perf's ": unhandled!" remarks dropped
# (they say which perf tool callbacks exist, not what the record holds).
norm_dump() {
	awk '
	function flush() { if (cur != "") print key "\t" cur; cur = "" }
	/^(-?[0-9]+ )*(0x[0-9a-f]+|0) \[0x[0-9a-f]+\]: PERF_RECORD_/ {
		flush()
		line = $0
		sub(/: unhandled!$/, "", line)
		if (match(line, /(0x[0-9a-f]+|0) \[0x/)) key = substr(line, RSTART, RLENGTH - 4)
		cur = line
		next
	}
	/^: unhandled!$/ { next }
	/^( \.|\.\.|\t\t)/ { if (cur != "") { cur = cur " | " $0; next } }
	{ flush() }
	END { flush() }'
}
perf_dump_block() { perf report -D -i "$1" 2>/dev/null | norm_dump; }
ptd_dump_block() { "$PTDECODE" --dump -q "$1" 2>/dev/null | norm_dump; }

# compare NAME EXPECTED-FILE GOT-FILE: ok/not ok with the diff as diagnostics
compare() {
	if diff -u "$2" "$3" >"$TMP/diff" 2>&1; then
		ok 0 "$1"
	else
		ok 1 "$1"
		head -40 "$TMP/diff" | diag
	fi
}

# same_as_perf NAME [ITRACE...]: ptdecode prints what perf script prints
# for the recording in $TMP/r.data (stdout and stderr), for the itrace sets
# given (default: those of the main job), with perf's default fields and
# with the -F set.  SAME_EXTRA: itrace sets compared besides the default
# ones; SAME_FIELDS: the field sets instead ("default" for perf's own);
# SAME_NONEMPTY=1: every run must print something.  perf's
# note about its build ("unwind: target platform=... is not supported",
# for a recording of another architecture) is not output.
FULL_F="comm,tid,time,cpu,ip,sym,symoff,dso,addr,flags"
same_as_perf() {
	name=$1
	shift
	[ $# = 0 ] && set -- default b cr i100us i1000i i0ns e ig ${SAME_EXTRA:-}
	sets="$*"
	bad=""
	nlines=0
	nruns=0
	for it in $sets; do
		for ff in ${SAME_FIELDS:-default $FULL_F}; do
			[ "$ff" = default ] && ff=""
			nruns=$((nruns + 1))
			set -- -i "$TMP/r.data"
			[ "$it" != default ] && set -- "$@" --itrace="$it"
			[ -n "$ff" ] && set -- "$@" -F "$ff"
			perf script "$@" >"$TMP/p.out" 2>"$TMP/p.err0"
			grep -v '^unwind: target platform=[a-z0-9_]* is not supported$' "$TMP/p.err0" >"$TMP/p.err"
			"$PTDECODE" "$@" >"$TMP/o.out" 2>"$TMP/o.err"
			if cmp -s "$TMP/p.out" "$TMP/o.out" && cmp -s "$TMP/p.err" "$TMP/o.err" &&
			   { [ "${SAME_NONEMPTY:-0}" = 0 ] || [ -s "$TMP/p.out" ]; }; then
				nlines=$((nlines + $(wc -l <"$TMP/p.out")))
			else
				bad="$bad $it${ff:+/F}"
				{ diff "$TMP/p.out" "$TMP/o.out"; diff "$TMP/p.err" "$TMP/o.err"; } | head -6 | diag
			fi
		done
	done
	[ -z "$bad" ]
	ok $? "$name: ptdecode prints what perf script prints ($nruns runs, $nlines lines)${bad:+; differ:$bad}"
}

# run_both NAME ARGS...: perf script and ptdecode on the same arguments
run_both() {
	name=$1; shift
	perf script "$@" >"$TMP/p.out" 2>"$TMP/p.err"
	"$PTDECODE" "$@" >"$TMP/o.out" 2>"$TMP/o.err"
	st=$?
	if [ $st -ne 0 ]; then
		ok 1 "$name (ptdecode exit $st: $(head -c 300 "$TMP/o.err"))"
		return
	fi
	if cmp -s "$TMP/p.out" "$TMP/o.out" && cmp -s "$TMP/p.err" "$TMP/o.err"; then
		ok 0 "$name ($(wc -l <"$TMP/p.out") lines)"
	else
		ok 1 "$name"
		{ diff "$TMP/p.out" "$TMP/o.out"; diff "$TMP/p.err" "$TMP/o.err"; } | head -20 | diag
	fi
}

# truth_calls TRUTH.gz DB: the recorder's calls per thread and callee (the
# callee named through the symbols table of the export database DB), and
# returns per thread: "call TID NAME N" and "ret TID N" lines, sorted
truth_calls() {
	gzip -dc "$1" | awk '
	function hex(s,  v, i) {
		v = 0
		for (i = 3; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	$1 == "M" { start = hex($3); pgoff = hex($5) }
	$1 == "X" && $10 != "lost" && ($3 == 2 || $3 == 4) {
		c[$2 " " sprintf("%d", hex($5) - start + pgoff)]++ }
	$1 == "X" && $10 != "lost" && $3 == 5 { r[$2]++ }
	END { for (k in c) print "call " k " " c[k]; for (t in r) print "ret " t " " r[t] }' |
	while read -r kind tid off n; do
		if [ "$kind" = call ]; then
			echo "call $tid $(sqlite3 "$2" "SELECT name FROM symbols WHERE dso_id <> 0 AND
				sym_start <= $off AND $off < sym_end LIMIT 1") $n"
		else
			echo "ret $tid $off"
		fi
	done | awk '{ n = $NF; $NF = ""; s[$0] += n } END { for (k in s) print k s[k] }' | sort
}
