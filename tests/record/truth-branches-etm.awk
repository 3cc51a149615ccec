# The taken branches perf script --itrace=b prints for an emulated
# CoreSight ETMv4 recording (ptdecode-record --etm), derived from its ground
# truth (doc/record.md): one line "tid from to" per branch, addresses in
# hex without 0x, 0 for trace start and end, as truth-branches.awk makes
# them for Intel PT.  The caller compares per thread.
#
# perf makes a branch sample from each instruction range OpenCSD decodes to
# the start of the next one, so where ETMv4 differs from Intel PT:
# - every branch is an atom, so direct jumps and calls show at once;
# - a system call (SVC, an Exception packet) shows "svc -> 0" only when
#   trace of the thread follows (the Trace On that ends it flushes it): the
#   last one, the exit call, has none;
# - an asynchronous exit (a signal, a preemption: an IRQ Exception packet
#   at the interrupted instruction) ends the range before it, so perf shows
#   the last instruction executed: the one before the interrupted
#   instruction ("from - 4 -> 0"), or when the range is empty (interrupted
#   at the target of the last branch) that branch, in place of its own
#   line; interrupted right where the trace started, nothing, not even the
#   trace start.
function hex(v) { sub(/^0x/, "", v); return v }
function h(v) { return sprintf("%x", v) }
# hex to number (portable awk: no strtonum); addresses are below 2^53
function num(v,    i, n) {
	n = 0
	for (i = 1; i <= length(v); i++) n = n * 16 + index("0123456789abcdef", substr(v, i, 1)) - 1
	return n
}
# lines go through last[] so that an empty range can take back the line of
# the branch before it
function emit(tid, line) {
	if (tid in last) print last[tid]
	last[tid] = line
}
function out(tid, line) {
	if (tid in sysout) { emit(tid, sysout[tid]); delete sysout[tid] }
	if (line != "") emit(tid, line)
}
# the thread leaves user mode asynchronously before the instruction at ip
function interrupt(tid, ip) {
	if (tid in start) {
		if (start[tid] != ip) {
			out(tid, tid " 0 " start[tid])
			out(tid, tid " " h(num(ip) - 4) " 0")
		}
		delete start[tid]
	} else if (pto[tid] == ip) {
		if (pline[tid]) delete last[tid]
		out(tid, tid " " pfrom[tid] " 0")
	} else {
		out(tid, tid " " h(num(ip) - 4) " 0")
	}
}
$1 == "S" { start[$5] = hex($6); next }
$1 == "P" { interrupt($2, hex($3)); start[$2] = hex($3); next }
$1 == "X" {
	tid = $2; cls = $3; from = hex($4); to = hex($5); taken = $6
	if (cls == 7) { interrupt(tid, from); start[tid] = to; next }
	if (tid in start) { out(tid, tid " 0 " start[tid]); delete start[tid] }
	pfrom[tid] = from; pto[tid] = to; pline[tid] = cls != 6 && (cls != 0 || taken)
	if (cls == 6) { out(tid, ""); sysout[tid] = tid " " from " 0"; start[tid] = to; next }
	out(tid, pline[tid] ? tid " " from " " to : "")
}
END { for (tid in last) print last[tid] }
