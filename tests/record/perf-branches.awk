# perf script --itrace=b -F tid,ip,addr,flags output as "tid from to"
# (hex without 0x), for comparison with truth-branches.awk.
NF >= 4 && $(NF - 1) == "=>" { print $1, $(NF - 2), $NF }
