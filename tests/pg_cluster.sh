#!/bin/sh
# A throwaway PostgreSQL server for the tests, on a unix socket only.
#   tests/pg_cluster.sh start DIR   initdb + pg_ctl start in DIR (created);
#                                   prints the socket directory, or the
#                                   reason it cannot start (exit 1)
#   tests/pg_cluster.sh stop DIR    stop it (DIR is left to the caller)
# As root the server runs as the "postgres" system user (else "nobody"):
# PostgreSQL refuses to run as root.  The superuser is the caller's user
# name, trusted on the socket.
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
	if ! as "$bin/pg_ctl" -D "$dir/data" -l "$dir/data/server.log" -w -t 60 \
		-o "-c listen_addresses='' -k $dir/sock -c fsync=off -c full_page_writes=off" \
		start >"$dir/pg_ctl.log" 2>&1; then
		echo "pg_ctl start failed: $(tail -c 200 "$dir/data/server.log" 2>/dev/null | tr '\n' ' ')"
		exit 1
	fi
	echo "$dir/sock"
	;;
stop)
	[ -n "$bin" ] && [ -f "$dir/data/postmaster.pid" ] &&
		as "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1
	exit 0
	;;
esac
