# Sourced by bench/run.sh: writes doc/performance.md from $OUT/*.tsv,
# the workloads' .info files, the profiles and bench/analysis.md.

machine_desc() {
	echo "- CPU: $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo), $(nproc) cores online (shared with other jobs)"
	echo "- memory: $(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
	echo "- kernel: $(uname -sr)"
	echo "- perf: $(perf --version 2>&1)"
	echo "- ptdecode: $("$PTDECODE" --version 2>&1 | head -1), commit $REV, $(${CC:-gcc} --version | head -1), ${BUILD_DESC:-default CFLAGS (-g -O2)}"
	echo "- date: $RUN_DATE; the run took $(( (t_end - t_start) / 60 )) min $(( (t_end - t_start) % 60 )) s"
	echo "- load average (1, 5, 15 min) at the start: $LOAD_START, at the end: $LOAD_END (2 cores)"
}

workload_table() {
	echo "| workload | what | trace (AUX) MB | instructions | recording s | code KB | DSOs |"
	echo "|---|---|---:|---:|---:|---:|---:|"
	for _i in $(ls "$WORK"/*.info | sort -V); do
		_n=$(basename "$_i" .info)
		_n=${_n%-x1}
		awk -v n="$_n" '{ d = $0; for (k = 1; k <= 5; k++) sub(/^[^ ]+ /, "", d)
			printf "| %s | %s | %.2f | %.1f M | %s | %d | %d |\n", n, d, $1 / 1e6, $2 / 1e6, $3, $4 / 1024, $5 }' "$_i"
	done
}

# awk: the timed runs of key k = $1 SUBSEP $2 SUBSEP $3 ("W MODE x run
# wall maxrss status" lines): t[k, i], n[k], the largest rss[k], a
# failed status bad[k], and median(k) of the wall times
AWK_RUNS='
	{
		t[k, ++n[k]] = $5
		if ($6 > rss[k]) rss[k] = $6
		if ($7 != 0) bad[k] = $7
	}
	function median(k,   i, j, m, v, x) {
		m = n[k]
		for (i = 1; i <= m; i++) v[i] = t[k, i]
		for (i = 2; i <= m; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
		return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
	}'

# one row per workload and mode: medians, ratio, throughput, peak RSS
results_table() {
	for _i in "$WORK"/*.info; do
		_n=$(basename "$_i" .info)
		_n=${_n%-x1}
		echo "$_n $(cut -d' ' -f1,2 "$_i")"
	done > "$OUT/sizes.txt"
	awk -F'\t' '
	FILENAME ~ /sizes/ { split($0, a, " "); bytes[a[1]] = a[2]; insns[a[1]] = a[3]; next }
	FILENAME ~ /check/ { same[$1 SUBSEP $2] = $3; next }
	{
		k = $1 SUBSEP $2 SUBSEP $3
		if (!(k in n)) { order[++nk] = $1 SUBSEP $2; n[k] = 0 }
	}
	'"$AWK_RUNS"'
	END {
		print "| workload | --itrace | runs | perf s | ptdecode s | speed-up (perf / ptdecode) | ptdecode MB/s | perf MB/s | ptdecode M insn/s | perf M insn/s | peak RSS perf / ptdecode (MB) | output |"
		print "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
		for (o = 1; o <= nk; o++) {
			if (seen[order[o]]++) continue
			split(order[o], wm, SUBSEP); w = wm[1]; m = wm[2]
			kp = w SUBSEP m SUBSEP "perf"; kd = w SUBSEP m SUBSEP "ptdecode"
			mp = median(kp); md = median(kd)
			st = same[w SUBSEP m]
			if (st == "") st = "not compared"
			if (st == "differ") st = "**differs**"
			if ((kp in bad) || (kd in bad)) st = st ", exit status " bad[kp] "/" bad[kd]
			printf "| %s | %s | %d | %.3f | %.3f | **%.2f** | %.2f | %.2f | %.2f | %.2f | %.1f / %.1f | %s |\n",
				w, m, n[kd], mp, md, (md > 0 ? mp / md : 0),
				bytes[w] / 1e6 / md, bytes[w] / 1e6 / mp,
				insns[w] / 1e6 / md, insns[w] / 1e6 / mp,
				rss[kp] / 1024, rss[kd] / 1024, st
			if (w !~ /-x/) { lr[m] += log(mp / md); cnt[m]++ }
		}
		print ""
		print "Speed-up per mode, geometric mean over W1-W5 (target: 10 for i100us, 3 for full dumps):"
		print ""
		nm = split(modes, ml, " ")
		for (i = 1; i <= nm; i++)
			if (ml[i] in cnt) printf "- %s: %.2f\n", ml[i], exp(lr[ml[i]] / cnt[ml[i]])
	}' modes="$MODES" "$OUT/sizes.txt" "$OUT/check.tsv" "$OUT/times.tsv"
}

# -j: one row per mode and -j (and the default): medians, against -j 1
jobs_table() {
	echo "| workload | --itrace | -j | runs | ptdecode s | speed-up over -j 1 | peak RSS MB | output against -j 1 |"
	echo "|---|---|---|---:|---:|---:|---:|---|"
	awk -F'\t' '
	FILENAME ~ /check/ { na = split($0, a, " "); for (i = 3; i <= na; i++) { split(a[i], b, ":"); same[a[1] SUBSEP a[2] SUBSEP b[1]] = b[2] } next }
	{
		k = $1 SUBSEP $2 SUBSEP $3
		if (!(k in n)) order[++nk] = k
	}
	'"$AWK_RUNS"'
	END {
		for (o = 1; o <= nk; o++) {
			split(order[o], k3, SUBSEP)
			base = median(k3[1] SUBSEP k3[2] SUBSEP 1); md = median(order[o])
			st = k3[3] == 1 ? "-" : (k3[3] == "default" ? "(the default)" : same[order[o]])
			if (st == "differs") st = "**differs**"
			if (order[o] in bad) st = st ", exit status " bad[order[o]]
			printf "| %s | %s | %s | %d | %.3f | **%.2f** | %.1f | %s |\n", k3[1], k3[2],
				k3[3] == "default" ? "none" : k3[3], n[order[o]], md, (md > 0 ? base / md : 0),
				rss[order[o]] / 1024, st
		}
	}' "$OUT/jobs-check.txt" "$OUT/jobs.tsv"
}

check_table() {
	echo "| workload | --itrace | output | perf's output bytes | difference |"
	echo "|---|---|---|---:|---|"
	awk -F'\t' '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3 == "same" ? "identical" : "**differs**", $4, $5 }' "$OUT/check.tsv"
}

profile_tables() {
	for _p in "$OUT"/prof-*.dso; do
		[ -f "$_p" ] || continue
		_b=${_p%.dso}; _t=${_b#"$OUT"/prof-}
		echo "ptdecode on ${_t%-*} with --itrace=${_t##*-} (perf record -e cpu-clock), share of samples by object:"
		echo
		awk '{ printf "- %s %s\n", $1, $2 }' "$_p"
		echo
		echo "hottest symbols:"
		echo
		echo "| share | object | symbol |"
		echo "|---:|---|---|"
		awk '{ printf "| %s | %s | %s |\n", $1, $2, ($3 == "[k]" ? "(a kernel function)" : $3) }' "$_b.sym"
		echo
	done
}

write_report() {
	cat <<HDR
# ptdecode performance

Generated by \`sh bench/run.sh\` (bench/README.md): do not edit by hand;
the analysis at the end comes from bench/analysis.md.$( [ -n "$SMOKE" ] && printf '\n\n**Smoke run: tiny workloads, one run each; the figures mean nothing.**')

## Machine

$(machine_desc)

## Method

- Workloads are recorded by \`ptdecode-record\` (doc/record.md) from the
  programs in bench/programs and bench/gen_dsos.sh, built with gcc by the
  bench.  Larger sizes run the same program for longer (more iterations);
  no recording is repeated or concatenated.  "instructions" is the
  recorder's ground truth: every user-mode instruction the trace encodes.
- For each workload and \`--itrace\` mode, perf script and ptdecode first
  run once with their outputs compared (cksum of the whole output, and on
  a difference cmp and diff); then $RUNS timed runs of each (at least 11
  in the modes i100us and e, whose runs take a tenth of a second: the
  "runs" column), alternating perf and ptdecode, same file, same
  \`-i FILE --itrace=MODE\`, output to
  /dev/null.  Wall times are medians of the runs; the speed-up is perf's
  median over ptdecode's (above 1: ptdecode is faster).  The machine's
  2 cores are shared with other jobs, so absolute times are noisy; the
  ratio of medians taken in one run is the figure to compare.
- MB/s is AUX trace bytes (AUXTRACE payloads) per second of wall time,
  M insn/s the trace's instructions per second; both decoders are
  single-threaded.
- Peak RSS is the child's getrusage ru_maxrss (bench/runstat.c), the
  largest over the runs.
- Mode \`export\` is the call/return export to SQLite (bench/export.sh):
  \`perf script --itrace=b -s export-to-sqlite.py DB all calls\` against
  \`ptdecode --itrace=b --export=sqlite:DB\`, compared by the row counts of
  the tables (the content is compared in tests/golden/export_sqlite.test).
  Mode \`pgexport\` is the same export to PostgreSQL,
  \`export-to-postgresql.py\` against \`--export=postgresql:dbname=DB\`,
  into a throwaway server on loopback that the bench starts
  (tests/pg_cluster.sh: fsync off, as in the tests); the database is
  dropped before each run.  Its output size is the server's
  pg_database_size of perf's database (content compared in
  tests/golden/export_postgresql.test).

## Workloads

$(workload_table)

## Identical output?

$(check_table)

## ptdecode against perf script

$(results_table)

## Peak RSS and time against trace size

The rows $SERIES_W-x4 and $SERIES_W-x16 above are $SERIES_W's program run 4 and 16
times longer (one timed run each); with $SERIES_W (x1) they show how time and
peak RSS grow with the trace.

## Not measured

- The exports on W1, W3 and W4 (perf's Python exports take minutes per
  run: the modes \`export\` and \`pgexport\` are timed once, on W2 and
  W5, when perf's scripts and PySide2's QtSql drivers are here).

## Scaling with -j

$JOBS_W-x$JOBS_SCALE ($JOBS_W's program run $JOBS_SCALE times longer: two AUX queues) and
${SPLIT_W:-W2}-x${SPLIT_SCALE:-16} (one queue, decoded on two threads from the middle of its trace),
ptdecode alone with -j 1 (one thread) up to one thread per online CPU,
and without -j (the default: threads only in modes where they were
measured to pay, for two queues or more, 512 KiB of trace and 512 bytes
of it a record, or one queue of 256 KiB; doc/design.md, "Decoding ahead").  The outputs of every -j
are compared with -j 1's; the tests compare them with perf script
(tests/golden/jobs.test).

$(jobs_table)

## Where ptdecode spends its time

$(profile_tables)

$(cat "$BENCH_DIR/analysis.md")
HDR
}
