#!/bin/sh
# A throwaway PostgreSQL server for the tests, on the loopback interface
# (127.0.0.1, a free port) and a unix socket in DIR.
#   tests/pg_cluster.sh start DIR   initdb + pg_ctl start in DIR (created);
#                                   prints "127.0.0.1 PORT", or the reason
#                                   it cannot start (exit 1)
#   tests/pg_cluster.sh stop DIR    stop it (DIR is left to the caller)
# As root the server runs as the "postgres" system user (else "nobody"):
# PostgreSQL refuses to run as root.  The superuser is the caller's user
# name, trusted on the socket and on loopback.
set -u
cmd=$1 dir=$2
bin=""
for b in /usr/lib/postgresql/*/bin; do
	[ -x "$b/initdb" ] && [ -x "$b/pg_ctl" ] && bin=$b
done
as() { "$@"; }
if [ "$(id -u)" = 0 ]; then
	user=postgres
	id -u postgres >/dev/null 2>&1 || user=nobody
	command -v runuser >/dev/null 2>&1 || { echo "runuser is missing (util-linux)"; exit 1; }
	as() { runuser -u "$user" -- "$@"; }
fi
case $cmd in
start)
	[ -n "$bin" ] || { echo "no PostgreSQL server (Debian package postgresql)"; exit 1; }
	mkdir -p "$dir/data" "$dir/sock" || exit 1
	if [ "$(id -u)" = 0 ]; then
		# the server's user must reach DIR
		chmod 711 "$dir" "$(dirname "$dir")" && chown "$user" "$dir/data" "$dir/sock" || exit 1
	fi
	if ! as "$bin/initdb" -D "$dir/data" -U "$(id -un)" --auth=trust -E UTF8 --no-locale -N \
		>"$dir/initdb.log" 2>&1; then
		echo "initdb failed: $(tail -c 200 "$dir/initdb.log" | tr '\n' ' ')"
		exit 1
	fi
	# a port no other server holds: a few tries from one the process id picks
	try=0
	while :; do
		port=$((20000 + ($$ * 7 + try * 7919) % 40000))
		as "$bin/pg_ctl" -D "$dir/data" -l "$dir/data/server.log" -w -t 60 \
			-o "-c listen_addresses=127.0.0.1 -c port=$port -k $dir/sock -c fsync=off -c full_page_writes=off" \
			start >"$dir/pg_ctl.log" 2>&1 && break
		try=$((try + 1))
		if [ $try = 5 ]; then
			echo "pg_ctl start failed: $(tail -c 200 "$dir/data/server.log" 2>/dev/null | tr '\n' ' ')"
			exit 1
		fi
	done
	echo "127.0.0.1 $port"
	;;
stop)
	[ -n "$bin" ] && [ -f "$dir/data/postmaster.pid" ] &&
		as "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1
	exit 0
	;;
esac
