# Sourced by bench/run.sh: the workloads, recorded with ptdecode-record.
#
# make_programs DIR            build bench/programs/*.c and W3's DSOs into DIR
# record_workload NAME SCALE DIR
#     record workload NAME (W1..W5) at SCALE (a multiplier of the program's
#     work: the program runs longer, nothing is repeated) into
#     DIR/NAME-xSCALE.data, and write DIR/NAME-xSCALE.info: one line
#     "trace_bytes instructions record_seconds code_bytes dsos description"
#
# Base sizes (SCALE 1) are chosen so that a full bench run, every mode
# three times on both decoders, ends in about 20 minutes on 2 cores.

PROG_CFLAGS="-std=gnu11 -O2 -fno-pie -no-pie -static"

make_programs() {
	_d=$1
	mkdir -p "$_d"
	${CC:-gcc} $PROG_CFLAGS -o "$_d/loops" "$BENCH_DIR/programs/loops.c"
	${CC:-gcc} $PROG_CFLAGS -o "$_d/calls" "$BENCH_DIR/programs/calls.c"
	${CC:-gcc} $PROG_CFLAGS -pthread -o "$_d/threads" "$BENCH_DIR/programs/threads.c"
	sh "$BENCH_DIR/gen_dsos.sh" "$_d/dsos" "${W3_LIBS:-12}" "${W3_FUNCS:-150}"
}

# text bytes of the given ELF files (binutils size, Berkeley "text")
code_bytes() {
	size "$@" 2>/dev/null | awk 'NR > 1 { s += $1 } END { print s + 0 }'
}

# the libraries a dynamic program maps (ldd), one per line, and itself
dso_list() {
	echo "$1"
	ldd "$1" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'
}

record_workload() {
	_n=$1 _s=$2 _d=$3
	_f="$_d/$_n-x$_s.data"
	_p="$_d/progs"
	case $_n in
	W1) _desc="loop-heavy (bench/programs/loops.c, long TNT runs), 1 CPU"
	    _opts="--cpus 1 --long-tnt"; set -- "$_p/loops" $((1000 * _s)) ;;
	W2) _desc="call-heavy, indirect calls and jumps (bench/programs/calls.c), 1 CPU"
	    _opts="--cpus 1"; set -- "$_p/calls" $((200 * _s)) ;;
	W3) _desc="dynamic program and $((${W3_LIBS:-12} + 3)) DSOs (bench/gen_dsos.sh), ptrace source, 1 CPU"
	    _opts="--source ptrace --cpus 1"; set -- "$_p/dsos/dsos" $((3 * _s)) ;;
	W4) _desc="W2's program with MTC (--mtc 3) and CYC packets, 1 CPU"
	    _opts="--cpus 1 --mtc 3 --cyc"; set -- "$_p/calls" $((100 * _s)) ;;
	W5) _desc="4 threads on 2 CPUs, context switches (bench/programs/threads.c)"
	    _opts="--cpus 2"; set -- "$_p/threads" 4 $((150 * _s)) ;;
	*) echo "bench: unknown workload $_n" >&2; return 1 ;;
	esac
	if [ -n "${SMOKE:-}" ]; then
		# tiny: the scripts' plumbing only
		case $_n in
		W3) set -- "$1" 1 ;;
		W5) set -- "$1" 2 2 ;;
		*) set -- "$1" 2 ;;
		esac
	fi
	rm -f "$_d/truth.fifo"
	mkfifo "$_d/truth.fifo"
	awk '$1 == "E" { s += $3 } END { print s + 0 }' "$_d/truth.fifo" > "$_d/$_n.insns" &
	_t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	"$RECORD" -q -o "$_f" --truth "$_d/truth.fifo" $_opts -- "$@" > /dev/null
	_t1=$(date +%s.%N)
	wait
	rm -f "$_d/truth.fifo"
	_bytes=$("$PTDECODE" --stats "$_f" | awk '/^AUX queues:/ { print $NF }')
	if [ "$_n" = W3 ]; then
		# shellcheck disable=SC2046
		_code=$(code_bytes $(dso_list "$1")); _ndso=$(dso_list "$1" | wc -l)
	else
		_code=$(code_bytes "$1"); _ndso=1
	fi
	echo "$_bytes $(cat "$_d/$_n.insns") $(echo "$_t1 $_t0" | awk '{ printf "%.1f", $1 - $2 }') $_code $_ndso $_desc" \
		> "$_d/$_n-x$_s.info"
}
