/* The views perf's export-to-sqlite.py and export-to-postgresql.py define
 * alike (the others differ in their functions: printf against to_hex,
 * casts), for sqlite_schema.c and pg_schema.c. */
#ifndef PTD_OUT_DB_VIEWS_H
#define PTD_OUT_DB_VIEWS_H

#define PTD_DB_HOST_OR_GUEST \
	"(SELECT host_or_guest FROM machines_view WHERE id = machine_id) AS host_or_guest, "

#define PTD_DB_VIEW_MACHINES \
	"CREATE VIEW machines_view AS SELECT id, pid, root_dir, " \
	"CASE WHEN id=0 THEN 'unknown' WHEN pid=-1 THEN 'host' ELSE 'guest' END AS host_or_guest " \
	"FROM machines"

#define PTD_DB_VIEW_DSOS \
	"CREATE VIEW dsos_view AS SELECT id, machine_id, " PTD_DB_HOST_OR_GUEST \
	"short_name, long_name, build_id FROM dsos"

#define PTD_DB_VIEW_SYMBOLS \
	"CREATE VIEW symbols_view AS SELECT id, name, " \
	"(SELECT short_name FROM dsos WHERE id=dso_id) AS dso, dso_id, sym_start, sym_end, " \
	"CASE WHEN binding=0 THEN 'local' WHEN binding=1 THEN 'global' ELSE 'weak' END AS binding " \
	"FROM symbols"

#define PTD_DB_VIEW_THREADS \
	"CREATE VIEW threads_view AS SELECT id, machine_id, " PTD_DB_HOST_OR_GUEST \
	"process_id, pid, tid FROM threads"

#define PTD_DB_VIEW_COMM_THREADS \
	"CREATE VIEW comm_threads_view AS SELECT comm_id, " \
	"(SELECT comm FROM comms WHERE id = comm_id) AS command, thread_id, " \
	"(SELECT pid FROM threads WHERE id = thread_id) AS pid, " \
	"(SELECT tid FROM threads WHERE id = thread_id) AS tid FROM comm_threads"

#define PTD_DB_VIEW_CBR \
	"CREATE VIEW cbr_view AS SELECT cbr.id, time, cpu, cbr, mhz, percent " \
	"FROM cbr INNER JOIN samples ON samples.id = cbr.id"

#endif
