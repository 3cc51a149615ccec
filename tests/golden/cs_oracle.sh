# trc_pkt_lister's decode as the oracle for CoreSight tests: sourced by
# cs_snapshot.test and cs_perf.test.  Each function reads a log and prints
# one comparable line per item, in trace order.

# The start of the lister awk programs: hex() (a hex string without 0x
# and leading zeros), the trace ID of each element line in id, and
# range_ends(), which sets st and en to an INSTR_RANGE line's addresses.
LISTER_AWK='
function hex(s) { sub(/^0x0*/, "", s); return s == "" ? "0" : s }
function range_ends(   r) {
	match($0, /range=0x[0-9a-f]+:\[0x[0-9a-f]+\]/)
	r = substr($0, RSTART + 6, RLENGTH - 6)
	st = r; sub(/:.*/, "", st)
	en = r; sub(/^[^[]*\[/, "", en); sub(/\]/, "", en)
}
# (an element line may follow an error message on the same line)
match($0, /Idx:[0-9]+; ID:[0-9a-f]+;/) {
	id = substr($0, RSTART, RLENGTH); sub(/^.*ID:/, "", id); sub(/;$/, "", id)
}'

# lister log -> "ID START END E|N" per range, in order
lister_ranges() {
	sed -n 's/^Idx:[0-9]*; ID:\([0-9a-f]*\); OCSD_GEN_TRC_ELEM_INSTR_RANGE(exec range=\(0x[0-9a-f]*\):\[\(0x[0-9a-f]*\)\] num_i([0-9]*) last_sz([0-9]*) (ISA=[A-Za-z0-9]*) \([EN]\) .*/\1 \2 \3 \4/p' "$1"
}
ptd_ranges() {
	sed -n 's/^ID:\([0-9a-f]*\) cpu:[-0-9]* range \(0x[0-9a-f]*\)-\(0x[0-9a-f]*\) n=[0-9]* last_sz=[0-9]* isa=[A-Za-z0-9]* \([EN]\).*/\1 \2 \3 \4/p' "$1"
}
# lister log -> "IP ADDR" of each branch sample perf's rules give, in order
lister_branches() {
	awk "$LISTER_AWK"'
	# 64-bit values do not fit awk numbers: the subtraction is done
	# digit by digit
	function hexsub(s, n,   i, d, out, digits) {
		digits = "0123456789abcdef"
		s = hex(s); out = ""
		for (i = length(s); i > 0; i--) {
			d = index(digits, substr(s, i, 1)) - 1 - n
			n = 0
			if (d < 0) { d += 16; n = 1 }
			out = substr(digits, d + 1, 1) out
		}
		return hex(out)
	}
	function discont(id) {
		if (state[id] == "range") print last[id] " 0"
		state[id] = "discont"
	}
	/OCSD_GEN_TRC_ELEM_INSTR_RANGE\(/ {
		range_ends()
		match($0, /last_sz\([0-9]+\)/); sz = substr($0, RSTART + 8, RLENGTH - 9)
		if (state[id] == "discont") print "0 " hex(st)
		else if (state[id] == "range" && taken[id]) print last[id] " " hex(st)
		state[id] = "range"
		last[id] = hexsub(en, sz + 0)
		taken[id] = ($0 ~ /\) E i?BR/)
		next
	}
	/OCSD_GEN_TRC_ELEM_EXCEPTION(_RET)?\(/ { if (state[id] == "range") taken[id] = 1; next }
	/OCSD_GEN_TRC_ELEM_TRACE_ON\(|OCSD_GEN_TRC_ELEM_EO_TRACE\(/ { discont(id); next }
	/OCSD_GEN_TRC_ELEM_NO_SYNC\(/ { if ($0 !~ /init-decoder/) discont(id); next }
	' "$1"
}
ptd_branches() {
	sed -n 's/.*"ip":"0x\([0-9a-f]*\)".*"addr":"0x\([0-9a-f]*\)".*/\1 \2/p' "$1"
}

# lister log -> "ID KIND ..." of every element both decoders report:
# ranges (as lister_ranges), code without memory ("nacc ADDR"), trace on,
# end of trace, exceptions and their returns, and context IDs ("ctx HEX":
# the VMID when the element has one, else the CONTEXTIDR value)
lister_elements() {
	awk "$LISTER_AWK"'
	/OCSD_GEN_TRC_ELEM_INSTR_RANGE\(/ {
		range_ends()
		e = ($0 ~ /\) E /) ? "E" : "N"
		print id " range " hex(st) " " hex(en) " " e; next
	}
	/OCSD_GEN_TRC_ELEM_ADDR_NACC\(/ { match($0, /0x[0-9a-f]+/); print id " nacc " hex(substr($0, RSTART, RLENGTH)); next }
	/OCSD_GEN_TRC_ELEM_TRACE_ON\(/ { print id " on"; next }
	/OCSD_GEN_TRC_ELEM_EO_TRACE\(/ { print id " eot"; next }
	/OCSD_GEN_TRC_ELEM_EXCEPTION_RET\(/ { print id " excret"; next }
	/OCSD_GEN_TRC_ELEM_EXCEPTION\(/ { print id " exc"; next }
	/OCSD_GEN_TRC_ELEM_PE_CONTEXT\(/ {
		if (match($0, /VMID=0x[0-9a-f]+/)) print id " ctx " hex(substr($0, RSTART + 5, RLENGTH - 5))
		else if (match($0, /CTXTID=0x[0-9a-f]+/)) print id " ctx " hex(substr($0, RSTART + 7, RLENGTH - 7))
		next
	}' "$1"
}
ptd_elements() {
	awk '
	function hex(s) { sub(/^0x0*/, "", s); return s == "" ? "0" : s }
	{ id = $1; sub(/^ID:/, "", id) }
	$3 == "range" && $4 ~ /^0x/ {
		split($4, a, "-"); e = $8
		print id " range " hex(a[1]) " " hex(a[2]) " " e; next
	}
	$3 == "no" && $4 == "memory" { print id " nacc " hex($6); next }
	$3 == "trace" && $4 == "on" { print id " on"; next }
	$3 == "end" { print id " eot"; next }
	$3 == "exception" && $4 == "return" { print id " excret"; next }
	$3 == "exception" { print id " exc"; next }
	$3 == "context" { printf "%s ctx %x\n", id, $5; next }' "$1"
}
