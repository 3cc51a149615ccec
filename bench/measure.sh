# Sourced by bench/run.sh: comparing and timing ptdecode against perf script.
#
# check_same W MODE FILE     run both decoders once, output compared through
#     cksum (no copy on disk); on a difference, the first differing line
#     (cmp) and, when the outputs are small, the count of differing lines.
#     Appends "W MODE same|differ OUTPUT_BYTES DETAIL" to $OUT/check.tsv.
# time_pair W MODE FILE RUNS  RUNS alternating runs of perf, then ptdecode,
#     output to /dev/null; appends "W MODE tool run wall maxrss status" to
#     $OUT/times.tsv.
# time_jobs: -j scaling, below.

# modes "export" and "pgexport": the call/return export to SQLite or
# PostgreSQL (bench/export.sh), not --itrace modes; compared by the rows
# of each table
perf_cmd() {
	case $2 in
	export) echo "sh $BENCH_DIR/export.sh perf sqlite $1 $OUT/perf.db" ;;
	pgexport) echo "sh $BENCH_DIR/export.sh perf postgresql $1 bench_perf" ;;
	*) echo "perf script -i $1 --itrace=$2" ;;
	esac
}
ptd_cmd() {
	case $2 in
	export) echo "sh $BENCH_DIR/export.sh ptdecode sqlite $1 $OUT/ptdecode.db" ;;
	pgexport) echo "sh $BENCH_DIR/export.sh ptdecode postgresql $1 bench_ptdecode" ;;
	*) echo "$PTDECODE -i $1 --itrace=$2 --quiet" ;;
	esac
}

# the tables' row counts of an exported database (an SQLite file, or a
# PostgreSQL database name with pg), one line
db_rows() {
	for _t in threads comms dsos symbols samples call_paths calls; do
		if [ "${2:-}" = pg ]; then
			_c=$(psql -X -q -A -t -d "$1" -c "select count(*) from $_t" 2>&1)
		else
			_c=$(sqlite3 "$1" "select count(*) from $_t" 2>&1)
		fi
		printf '%s=%s ' "$_t" "$_c"
	done
}

check_export() {
	_w=$1 _m=$2 _f=$3
	# shellcheck disable=SC2046
	$(perf_cmd "$_f" "$_m") 2>/dev/null
	# shellcheck disable=SC2046
	$(ptd_cmd "$_f" "$_m") 2>/dev/null
	if [ "$_m" = pgexport ]; then
		_a=$(db_rows bench_perf pg) _b=$(db_rows bench_ptdecode pg)
		_bytes=$(psql -X -q -A -t -d postgres -c "select pg_database_size('bench_perf')" 2>/dev/null || echo 0)
		psql -X -q -d postgres -c "DROP DATABASE IF EXISTS bench_perf" -c "DROP DATABASE IF EXISTS bench_ptdecode" \
			>/dev/null 2>&1
	else
		_a=$(db_rows "$OUT/perf.db") _b=$(db_rows "$OUT/ptdecode.db")
		_bytes=$(wc -c < "$OUT/perf.db" 2>/dev/null || echo 0)
		rm -f "$OUT/perf.db" "$OUT/ptdecode.db"
	fi
	if [ "$_a" = "$_b" ]; then
		printf '%s\t%s\tsame\t%s\t%s\n' "$_w" "$_m" "$_bytes" "rows: $_a" >> "$OUT/check.tsv"
	else
		printf '%s\t%s\tdiffer\t%s\t%s\n' "$_w" "$_m" "$_bytes" "perf: $_a; ptdecode: $_b" >> "$OUT/check.tsv"
	fi
}

check_same() {
	_w=$1 _m=$2 _f=$3
	if [ "$_m" = export ] || [ "$_m" = pgexport ]; then
		check_export "$@"
		return
	fi
	# shellcheck disable=SC2046
	_a=$($(perf_cmd "$_f" "$_m") 2>/dev/null | cksum)
	# shellcheck disable=SC2046
	_b=$($(ptd_cmd "$_f" "$_m") 2>/dev/null | cksum)
	_obytes=$(echo "$_a" | awk '{ print $2 }')
	if [ "$_a" = "$_b" ]; then
		printf '%s\t%s\tsame\t%s\t%s\n' "$_w" "$_m" "$_obytes" "-" >> "$OUT/check.tsv"
		return 0
	fi
	rm -f "$OUT/a.fifo" "$OUT/b.fifo"
	mkfifo "$OUT/a.fifo" "$OUT/b.fifo"
	$(perf_cmd "$_f" "$_m") > "$OUT/a.fifo" 2>/dev/null &
	$(ptd_cmd "$_f" "$_m") > "$OUT/b.fifo" 2>/dev/null &
	_first=$(cmp "$OUT/a.fifo" "$OUT/b.fifo" 2>&1 | head -1)
	# cmp stops reading at the first difference: the writers end with SIGPIPE
	wait || :
	rm -f "$OUT/a.fifo" "$OUT/b.fifo"
	_detail="perf: $(echo "$_a" | awk '{ print $2 }') bytes, ptdecode: $(echo "$_b" | awk '{ print $2 }') bytes; ${_first#*: }"
	if [ "$(echo "$_a $_b" | awk '{ print ($2 + $4 < 400000000) }')" = 1 ]; then
		$(perf_cmd "$_f" "$_m") > "$OUT/diff.a" 2>/dev/null
		$(ptd_cmd "$_f" "$_m") > "$OUT/diff.b" 2>/dev/null
		_n=$(diff "$OUT/diff.a" "$OUT/diff.b" | grep -c '^<')
		_detail="$_detail; $_n of $(wc -l < "$OUT/diff.a") lines differ"
		diff "$OUT/diff.a" "$OUT/diff.b" | head -4 > "$OUT/diff-$_w-$_m.txt"
		rm -f "$OUT/diff.a" "$OUT/diff.b"
	fi
	printf '%s\t%s\tdiffer\t%s\t%s\n' "$_w" "$_m" "$_obytes" "$_detail" >> "$OUT/check.tsv"
}

# time_jobs W MODE FILE RUNS: ptdecode alone with -j 1 to -j $(nproc) and
#     without -j, RUNS alternating runs; appends "W MODE JOBS run wall
#     maxrss status" to $OUT/jobs.tsv, and "W MODE J:same|differs ..." (each
#     -j's output against -j 1's, by cksum) to $OUT/jobs-check.txt.
time_jobs() {
	_w=$1 _m=$2 _f=$3 _runs=$4 _n=$(nproc)
	_ref=$("$PTDECODE" -j 1 -i "$_f" --itrace="$_m" --quiet 2>/dev/null | cksum)
	_same="" _j=2
	while [ "$_j" -le "$_n" ]; do
		if [ "$("$PTDECODE" -j "$_j" -i "$_f" --itrace="$_m" --quiet 2>/dev/null | cksum)" = "$_ref" ]; then
			_same="$_same $_j:same"
		else
			_same="$_same $_j:differs"
		fi
		_j=$((_j + 1))
	done
	echo "$_w $_m$_same" >> "$OUT/jobs-check.txt"
	_r=1
	while [ "$_r" -le "$_runs" ]; do
		for _j in $(seq 1 "$_n") default; do
			if [ "$_j" = default ]; then
				_res=$("$RUNSTAT" -e /dev/null -- "$PTDECODE" -i "$_f" --itrace="$_m" --quiet)
			else
				_res=$("$RUNSTAT" -e /dev/null -- "$PTDECODE" -j "$_j" -i "$_f" --itrace="$_m" --quiet)
			fi
			printf '%s\t%s\t%s\t%s\t%s\n' "$_w" "$_m" "$_j" "$_r" "$_res" | tr ' ' '\t' >> "$OUT/jobs.tsv"
		done
		_r=$((_r + 1))
	done
}

time_pair() {
	_w=$1 _m=$2 _f=$3 _runs=$4 _r=1
	while [ "$_r" -le "$_runs" ]; do
		for _tool in perf ptdecode; do
			if [ $_tool = perf ]; then _c=$(perf_cmd "$_f" "$_m"); else _c=$(ptd_cmd "$_f" "$_m"); fi
			# shellcheck disable=SC2086
			_res=$("$RUNSTAT" -e /dev/null -- $_c)
			printf '%s\t%s\t%s\t%s\t%s\n' "$_w" "$_m" "$_tool" "$_r" "$_res" | tr ' ' '\t' >> "$OUT/times.tsv"
		done
		_r=$((_r + 1))
	done
}
