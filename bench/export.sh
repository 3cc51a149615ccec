# The export modes of the bench: one call/return export.
#   sh bench/export.sh perf|ptdecode sqlite|postgresql FILE DB
# perf: perf script -s export-to-sqlite.py (or export-to-postgresql.py) DB
# all calls, its Python scripts, which need PySide2's QtSql; ptdecode:
# --export=sqlite:DB (or postgresql:dbname=DB).  Both with --itrace=b, as
# perf's documentation runs the scripts for Intel PT; an existing DB is
# removed first (both refuse to write into one).  PostgreSQL: the server
# of PGHOST/PGPORT (bench/run.sh starts one); perf's script writes its
# temporary files into the working directory, $OUT here.
tool=$1 kind=$2 file=$3 db=$4
case $kind in
sqlite) rm -f "$db"; script=$PERF_EXPORT_SCRIPT target=sqlite:$db ;;
postgresql)
	psql -X -q -d postgres -c "DROP DATABASE IF EXISTS \"$db\"" >/dev/null 2>&1
	script=$PERF_PG_EXPORT_SCRIPT target=postgresql:dbname=$db
	cd "$OUT" || exit 1 ;;
*) echo "usage: sh bench/export.sh perf|ptdecode sqlite|postgresql FILE DB" >&2; exit 2 ;;
esac
case $tool in
perf) exec perf script -i "$file" --itrace=b -s "$script" "$db" all calls >/dev/null ;;
ptdecode) exec "$PTDECODE" -i "$file" --itrace=b --export="$target" --quiet ;;
*) echo "usage: sh bench/export.sh perf|ptdecode sqlite|postgresql FILE DB" >&2; exit 2 ;;
esac
