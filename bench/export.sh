# The export mode of the bench: one call/return export to SQLite.
#   sh bench/export.sh perf|ptdecode FILE DB
# perf: perf script -s export-to-sqlite.py DB all calls (its Python script,
# which needs PySide2's QtSql); ptdecode: --export=sqlite:DB.  Both with
# --itrace=b, as perf's documentation runs the script for Intel PT; an
# existing DB is removed first (both refuse to write into one).
tool=$1 file=$2 db=$3
rm -f "$db"
case $tool in
perf) exec perf script -i "$file" --itrace=b -s "$PERF_EXPORT_SCRIPT" "$db" all calls >/dev/null ;;
ptdecode) exec "$PTDECODE" -i "$file" --itrace=b --export=sqlite:"$db" --quiet ;;
*) echo "usage: sh bench/export.sh perf|ptdecode FILE DB" >&2; exit 2 ;;
esac
