# Sourced by bench/run.sh: comparing and timing ptdecode against perf script.
#
# check_same W MODE FILE     run both decoders once, output compared through
#     cksum (no copy on disk); on a difference, the first differing line
#     (cmp) and, when the outputs are small, the count of differing lines.
#     Appends "W MODE same|differ OUTPUT_BYTES DETAIL" to $OUT/check.tsv.
# time_pair W MODE FILE RUNS  RUNS alternating runs of perf, then ptdecode,
#     output to /dev/null; appends "W MODE tool run wall maxrss status" to
#     $OUT/times.tsv.

# mode "export": the SQLite export of calls (bench/export.sh), not an
# --itrace mode; compared by the rows of each table
perf_cmd() {
	if [ "$2" = export ]; then echo "sh $BENCH_DIR/export.sh perf $1 $OUT/perf.db"
	else echo "perf script -i $1 --itrace=$2"; fi
}
ptd_cmd() {
	if [ "$2" = export ]; then echo "sh $BENCH_DIR/export.sh ptdecode $1 $OUT/ptdecode.db"
	else echo "$PTDECODE -i $1 --itrace=$2 --quiet"; fi
}

# the tables' row counts of an exported database, one line
db_rows() {
	for _t in threads comms dsos symbols samples call_paths calls; do
		printf '%s=%s ' "$_t" "$(sqlite3 "$1" "select count(*) from $_t" 2>&1)"
	done
}

check_export() {
	_w=$1 _f=$3
	# shellcheck disable=SC2046
	$(perf_cmd "$_f" export) 2>/dev/null
	# shellcheck disable=SC2046
	$(ptd_cmd "$_f" export) 2>/dev/null
	_a=$(db_rows "$OUT/perf.db") _b=$(db_rows "$OUT/ptdecode.db")
	_bytes=$(wc -c < "$OUT/perf.db" 2>/dev/null || echo 0)
	if [ "$_a" = "$_b" ]; then
		printf '%s\texport\tsame\t%s\t%s\n' "$_w" "$_bytes" "rows: $_a" >> "$OUT/check.tsv"
	else
		printf '%s\texport\tdiffer\t%s\t%s\n' "$_w" "$_bytes" "perf: $_a; ptdecode: $_b" >> "$OUT/check.tsv"
	fi
	rm -f "$OUT/perf.db" "$OUT/ptdecode.db"
}

check_same() {
	_w=$1 _m=$2 _f=$3
	if [ "$_m" = export ]; then
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
