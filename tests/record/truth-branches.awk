# The taken branches perf script --itrace=b prints for an emulated
# recording, derived from its ground truth (doc/record.md): one line
# "tid from to" per branch, addresses in hex without 0x, 0 for trace start
# and end.  The caller compares per thread.
#
# A transfer that a TSX transaction aborts at (--tsx: a T ... abort line,
# then its X line) did not complete; execution went on at its target, the
# abort's fallback address, and perf shows a "tx abrt" branch from the
# transfer to its target, whatever the transfer (even a conditional branch
# not taken), at once (even a direct jump or call).  With -v tx=1 such
# branches end in " a", and the branches inside a transaction in " x", as
# perf flags them (x); perf flags the branches it walks inside a
# transaction, trace starts and ends ("0" lines) never.
#
# Direct jumps and calls make no packets: a decoder sees them only when it
# walks past them to a later packet.  When trace is lost after them (an
# injected fault), nothing shows they ran; they are held until a packet of
# their thread follows, and dropped at a loss.
function hex(v) { sub(/^0x/, "", v); return v }
function out(tid, line) {
	if (tid in held) { printf "%s", held[tid]; delete held[tid] }
	if (line != "") print line
}
$1 == "S" { start[$5] = hex($6); next }
# a transaction's state changes, lost or not (the next PSB+ tells it); one
# in the trace is a packet of its thread (MODE.TSX and a FUP at its ip)
$1 == "T" {
	intx[$2] = $4 == "begin"; if ($4 == "abort") abort[$2] = 1
	if ($5 != "lost") out($2, "")
	next
}
$1 == "P" { if (!($2 in start)) out($2, $2 " " hex($3) " 0"); start[$2] = hex($3); enabled[$2] = 0; next }
# A trace start pending when a loss begins (after a syscall, an interrupt,
# a fault's resumption) is in the trace before the loss: the recorder
# enables tracing when the thread runs again.  Whether perf sees it depends
# on the loss: an overflow or a truncation keeps it (its resumption, O,
# follows), a dropped chunk or a snapshot gap loses it with the rest (R,
# Y), a pause (Z ... O) enables nothing.
$1 == "O" {
	if (!($2 in paused)) printf "%s", lstart[$2]
	delete lstart[$2]; delete paused[$2]
	delete held[$3]; start[$3] = hex($4); next
}
$1 == "Z" { paused[$2] = 1; next }
# After a dropped chunk perf, which sees consecutive buffers, reads on
# through the PSB+ that follows: a new trace start only if the trace it saw
# last had ended (at a syscall or an interrupt).
$1 == "R" { delete lstart[$2]; delete held[$3]; if (!enabled[$3]) start[$3] = hex($4); next }
# a decoder that starts at a snapshot's first PSB shows no trace start;
# when tracing is disabled at that PSB (ip 0: the thread is in a syscall
# whose trace was lost), the TIP.PGE where the syscall returns (res) is one
$1 == "Y" && $4 == "0" {
	delete lstart[$2]; delete held[$3]
	if ($3 in res) start[$3] = res[$3]
	enabled[$3] = 0; next
}
$1 == "Y" { delete lstart[$2]; delete held[$3]; delete start[$3]; enabled[$3] = 1; next }
$1 == "X" {
	tid = $2; cls = $3; from = hex($4); to = hex($5); taken = $6
	aborted = abort[tid]; delete abort[tid]
	mark = !tx ? "" : aborted ? " a" : intx[tid] && cls <= 5 ? " x" : ""
	if ($10 == "lost") {
		if (cls >= 6) res[tid] = to; else delete res[tid]
		delete held[tid]
		if (tid in start) lstart[$8] = lstart[$8] tid " 0 " start[tid] "\n"
		delete start[tid]
		next
	}
	if (tid in start) { out(tid, tid " 0 " start[tid]); delete start[tid] }
	enabled[tid] = cls < 6
	if (aborted) { out(tid, tid " " from " " to mark); next }
	if (cls == 1 || cls == 2) { held[tid] = held[tid] tid " " from " " to mark "\n"; next }
	if (cls == 0) { out(tid, taken ? tid " " from " " to mark : ""); next }
	if (cls <= 5) { out(tid, tid " " from " " to mark); next }
	out(tid, tid " " from " 0")
	start[tid] = to
}
END { for (tid in held) printf "%s", held[tid] }
