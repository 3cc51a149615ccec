# perf script --itrace=b -F tid,ip,addr,flags output as "tid from to"
# (hex without 0x), for comparison with truth-branches.awk; with -v tx=1
# followed by " x" for a branch flagged (x), in a TSX transaction, and " a"
# for a "tx abrt" one.
NF >= 4 && $(NF - 1) == "=>" {
	mark = ""
	if (tx && index($0, " tx abrt ")) mark = " a"
	else if (tx && index($0, "(x)")) mark = " x"
	print $1, $(NF - 2), $NF mark
}
