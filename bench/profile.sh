# Sourced by bench/run.sh: where ptdecode spends its time.
#
# profile_mode W MODE FILE   perf record -e cpu-clock of one ptdecode run;
#     writes $OUT/prof-W-MODE.dso (share per shared object) and
#     $OUT/prof-W-MODE.sym (the 15 hottest symbols).

profile_mode() {
	_p=$OUT/prof-$1-$2
	# shellcheck disable=SC2046
	perf record -q -e cpu-clock -o "$_p.data" -- $(ptd_cmd "$3" "$2") > /dev/null 2>&1 || {
		echo "profile not available (perf record -e cpu-clock failed)" > "$_p.dso"
		: > "$_p.sym"
		return 0
	}
	perf report -i "$_p.data" --stdio --sort dso 2>/dev/null |
		awk '/^#/ || NF == 0 { next } { printf "%s %s\n", $1, $2 }' | head -8 > "$_p.dso"
	perf report -i "$_p.data" --stdio --sort dso,sym 2>/dev/null |
		awk '/^#/ || NF == 0 { next } { sub(/\[[.k]\] /, ""); printf "%s %s %s\n", $1, $2, $3 }' |
		head -15 > "$_p.sym"
	rm -f "$_p.data"
}
