#!/bin/sh
# The benchmark: ptdecode against perf script on emulated Intel PT
# recordings; writes doc/performance.md.  See bench/README.md.
#   sh bench/run.sh [--smoke] [--runs N] [--work DIR] [--out FILE] [--no-profile]
#   sh bench/run.sh --report-only --work DIR [--out FILE]
#       (write the report again from DIR's results, e.g. after editing
#       bench/analysis.md)
# PTDECODE and PTDECODE_RECORD name the programs to measure; by default
# they are built (tools/build.sh --pgo: the profile-guided build of the
# README's commands) in $BENCH_BUILD.
set -eu
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$BENCH_DIR/.." && pwd)
SMOKE="" RUNS=3 PROFILE=1 REPORT_ONLY=""
WORK=${TMPDIR:-/tmp}/ptdecode-bench
DEST=""
while [ $# -gt 0 ]; do
	case $1 in
	--smoke) SMOKE=1 RUNS=1 PROFILE="" ;;
	--runs) RUNS=$2; shift ;;
	--work) WORK=$2; shift ;;
	--out) DEST=$2; shift ;;
	--no-profile) PROFILE="" ;;
	--report-only) REPORT_ONLY=1 ;;
	*) echo "usage: sh bench/run.sh [--smoke] [--runs N] [--work DIR] [--out FILE] [--no-profile]" >&2
	   exit 1 ;;
	esac
	shift
done
if [ -n "$REPORT_ONLY" ]; then
	OUT=$WORK/results
	[ -f "$OUT/meta" ] || { echo "bench: no results in $WORK" >&2; exit 1; }
	. "$OUT/meta"
	[ -n "$DEST" ] || { if [ -n "$SMOKE" ]; then DEST=$WORK/performance.md; else DEST=$top/doc/performance.md; fi; }
	. "$BENCH_DIR/report.sh"
	write_report > "$DEST.tmp"
	mv "$DEST.tmp" "$DEST"
	exit 0
fi
[ -n "$DEST" ] || { if [ -n "$SMOKE" ]; then DEST=$WORK/performance.md; else DEST=$top/doc/performance.md; fi; }
command -v perf > /dev/null || { echo "bench: perf is not installed (tools/deps.sh test)" >&2; exit 77; }

if [ -z "${PTDECODE:-}" ] || [ -z "${PTDECODE_RECORD:-}" ]; then
	BENCH_BUILD=${BENCH_BUILD:-${TMPDIR:-/tmp}/ptdecode-bench-build}
	echo "bench: building ptdecode in $BENCH_BUILD" >&2
	sh "$top/tools/build.sh" --pgo "$BENCH_BUILD"
	PTDECODE=$BENCH_BUILD/ptdecode PTDECODE_RECORD=$BENCH_BUILD/ptdecode-record
	BUILD_DESC="profile-guided build (tools/build.sh --pgo: CFLAGS -g -O3 -flto=auto, profile from decoding testdata/record)"
fi
BUILD_DESC=${BUILD_DESC:-"the build PTDECODE names"}
RECORD=$PTDECODE_RECORD
REV=$(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$top" diff --quiet HEAD -- src decoders formats configure.ac Makefile.am 2>/dev/null || REV="$REV (with uncommitted changes)"
OUT=$WORK/results
rm -rf "$WORK"
mkdir -p "$OUT"
RUNSTAT=$WORK/runstat
${CC:-gcc} -O2 -o "$RUNSTAT" "$BENCH_DIR/runstat.c"
. "$BENCH_DIR/workloads.sh"
. "$BENCH_DIR/measure.sh"

MODES="i100us b cr i0ns e"
EXPORT_MODE=""
# the SQLite export, when perf's export-to-sqlite.py can run here (perf
# embeds the system's Python: /usr/bin/python3 has its modules)
for PERF_EXPORT_SCRIPT in /usr/lib/perf-core/scripts/python/export-to-sqlite.py \
	/usr/libexec/perf-core/scripts/python/export-to-sqlite.py ""; do
	[ -f "$PERF_EXPORT_SCRIPT" ] && break
done
if [ -n "$PERF_EXPORT_SCRIPT" ] && command -v sqlite3 > /dev/null &&
   /usr/bin/python3 -c 'import PySide2.QtSql' 2>/dev/null; then
	EXPORT_MODE=" export"
else
	echo "bench: no export mode (needs perf's export-to-sqlite.py, PySide2.QtSql, sqlite3)" >&2
fi
# the PostgreSQL export, when perf's export-to-postgresql.py can run here
# (PySide2.QtSql with its PostgreSQL driver) and a throwaway server starts
# on loopback (tests/pg_cluster.sh, stopped at the end)
for PERF_PG_EXPORT_SCRIPT in /usr/lib/perf-core/scripts/python/export-to-postgresql.py \
	/usr/libexec/perf-core/scripts/python/export-to-postgresql.py ""; do
	[ -f "$PERF_PG_EXPORT_SCRIPT" ] && break
done
PG_WHY=""
if [ -z "$PERF_PG_EXPORT_SCRIPT" ] || ! command -v psql > /dev/null; then
	PG_WHY="needs perf's export-to-postgresql.py and psql"
elif ! /usr/bin/python3 -c 'import sys; from PySide2.QtSql import QSqlDatabase as D; sys.exit("QPSQL" not in D.drivers())' \
	2>/dev/null; then
	PG_WHY="PySide2.QtSql has no PostgreSQL driver (libqt5sql5-psql)"
else
	# a directory of its own: the server's user must reach it, and
	# pg_cluster.sh opens the parent's mode to it ($WORK's parents may be
	# private)
	PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/ptdecode-bench-pg.XXXXXX")
	trap 'sh "$top/tests/pg_cluster.sh" stop "$PG_DIR/pg"; rm -rf "$PG_DIR"' EXIT
	PG_SERVER=$(sh "$top/tests/pg_cluster.sh" start "$PG_DIR/pg") ||
		PG_WHY="no PostgreSQL server starts here: $PG_SERVER"
fi
if [ -z "$PG_WHY" ]; then
	unset PGDATABASE PGSERVICE PGPASSWORD PGOPTIONS PGHOSTADDR
	PGHOST=${PG_SERVER% *} PGPORT=${PG_SERVER#* } PGUSER=$(id -un)
	export PGHOST PGPORT PGUSER
	EXPORT_MODE="$EXPORT_MODE pgexport"
else
	echo "bench: no pgexport mode ($PG_WHY)" >&2
fi
export PERF_EXPORT_SCRIPT PERF_PG_EXPORT_SCRIPT PTDECODE OUT
MODES="$MODES$EXPORT_MODE"
WORKLOADS="W1 W2 W3 W4 W5"
EXPORT_WORKLOADS="W2 W5"
SERIES_W=W2 SERIES_SCALES="4 16" SERIES_MODES="i100us b"
# -j: W5 (two queues) twelve times longer, ptdecode alone; and W2 x16
# (one queue, split in two: src/ptq_split.h) in the modes where it is
JOBS_W=W5 JOBS_SCALE=12 JOBS_MODES="i100us e b"
SPLIT_W=W2 SPLIT_SCALE=16 SPLIT_MODES="i100us e"
if [ -n "$SMOKE" ]; then
	# the scripts' plumbing on tiny recordings; W3 (ptrace) and i0ns take long
	SERIES_SCALES="" WORKLOADS="W1 W2 W4 W5" MODES="i100us b e$EXPORT_MODE" EXPORT_WORKLOADS=W2
	JOBS_SCALE=1 JOBS_MODES=i100us SPLIT_SCALE=1 SPLIT_MODES=i100us
fi
t_start=$(date +%s)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
say() { echo "bench: [$(($(date +%s) - t_start))s] $*" >&2; }

make_programs "$WORK/progs"
for w in $WORKLOADS; do
	say "recording $w"
	record_workload "$w" 1 "$WORK"
done
for s in $SERIES_SCALES; do
	say "recording $SERIES_W x$s"
	record_workload "$SERIES_W" "$s" "$WORK"
done
for ws in "$JOBS_W $JOBS_SCALE" "$SPLIT_W $SPLIT_SCALE"; do
	set -- $ws
	if [ ! -f "$WORK/$1-x$2.data" ]; then
		say "recording $1 x$2"
		record_workload "$1" "$2" "$WORK"
	fi
done
: > "$OUT/check.tsv"
: > "$OUT/times.tsv"
for w in $WORKLOADS; do
	for m in $MODES; do
		# the exports (perf's Python scripts take minutes): W2 and W5, one
		# run; the sampling modes, a tenth of a second a run, 11 (the
		# machine's noise is as large as a change's gain there)
		_runs=$RUNS
		case $m in i100us|e) [ -n "$SMOKE" ] || _runs=$((RUNS > 11 ? RUNS : 11)) ;; esac
		if [ "$m" = export ] || [ "$m" = pgexport ]; then
			case " $EXPORT_WORKLOADS " in *" $w "*) _runs=1 ;; *) continue ;; esac
		fi
		say "$w --itrace=$m: compare, then $_runs timed runs of each"
		check_same "$w" "$m" "$WORK/$w-x1.data"
		time_pair "$w" "$m" "$WORK/$w-x1.data" "$_runs"
	done
done
for s in $SERIES_SCALES; do
	for m in $SERIES_MODES; do
		say "$SERIES_W x$s --itrace=$m"
		check_same "$SERIES_W-x$s" "$m" "$WORK/$SERIES_W-x$s.data"
		time_pair "$SERIES_W-x$s" "$m" "$WORK/$SERIES_W-x$s.data" 1
	done
done
: > "$OUT/jobs.tsv"
: > "$OUT/jobs-check.txt"
for m in $JOBS_MODES; do
	say "$JOBS_W x$JOBS_SCALE --itrace=$m: -j 1 to -j $(nproc), and without -j"
	time_jobs "$JOBS_W-x$JOBS_SCALE" "$m" "$WORK/$JOBS_W-x$JOBS_SCALE.data" "$RUNS"
done
for m in $SPLIT_MODES; do
	say "$SPLIT_W x$SPLIT_SCALE --itrace=$m: -j 1 to -j $(nproc), and without -j"
	time_jobs "$SPLIT_W-x$SPLIT_SCALE" "$m" "$WORK/$SPLIT_W-x$SPLIT_SCALE.data" "$RUNS"
done
if [ -n "$PROFILE" ]; then
	say "profiling ptdecode"
	. "$BENCH_DIR/profile.sh"
	profile_mode W1 i100us "$WORK/W1-x1.data"
	profile_mode W2 b "$WORK/W2-x1.data"
fi
t_end=$(date +%s)
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)
RUN_DATE=$(date -u '+%Y-%m-%d %H:%M UTC')
# what --report-only needs to write the report again
cat > "$OUT/meta" <<META
SMOKE='$SMOKE' RUNS='$RUNS' REV='$REV' t_start='$t_start' t_end='$t_end'
PTDECODE='$PTDECODE' BUILD_DESC='$BUILD_DESC' MODES='$MODES' SERIES_W='$SERIES_W' JOBS_W='$JOBS_W' JOBS_SCALE='$JOBS_SCALE'
SPLIT_W='$SPLIT_W' SPLIT_SCALE='$SPLIT_SCALE'
LOAD_START='$LOAD_START' LOAD_END='$LOAD_END' RUN_DATE='$RUN_DATE'
META
say "writing $DEST"
. "$BENCH_DIR/report.sh"
write_report > "$DEST.tmp"
mv "$DEST.tmp" "$DEST"
if grep -q differ "$OUT/check.tsv"; then
	say "outputs differ: see the table in $DEST"
fi
say "done"
