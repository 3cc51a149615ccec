/* The schema of perf's export-to-postgresql.py ("all" columns, calls):
 * tables, views, keys and indexes with perf's names, column names, types
 * and meanings (doc/formats.md).  Unlike the SQLite schema the tables get
 * their primary keys after the rows, with perf's foreign keys. */
#include "pg_schema.h"

#include "db_views.h"

const char *const ptd_pg_columns[PTD_DB_NTABLES] = {
	[PTD_DB_SELECTED_EVENTS] = "id bigint NOT NULL, name varchar(80)",
	[PTD_DB_MACHINES] = "id bigint NOT NULL, pid integer, root_dir varchar(4096)",
	[PTD_DB_THREADS] = "id bigint NOT NULL, machine_id bigint, process_id bigint, "
		"pid integer, tid integer",
	[PTD_DB_COMMS] = "id bigint NOT NULL, comm varchar(16), c_thread_id bigint, "
		"c_time bigint, exec_flag boolean",
	[PTD_DB_COMM_THREADS] = "id bigint NOT NULL, comm_id bigint, thread_id bigint",
	[PTD_DB_DSOS] = "id bigint NOT NULL, machine_id bigint, short_name varchar(256), "
		"long_name varchar(4096), build_id varchar(64)",
	[PTD_DB_SYMBOLS] = "id bigint NOT NULL, dso_id bigint, sym_start bigint, sym_end bigint, "
		"binding integer, name varchar(2048)",
	[PTD_DB_BRANCH_TYPES] = "id integer NOT NULL, name varchar(80)",
	[PTD_DB_SAMPLES] = "id bigint NOT NULL, evsel_id bigint, machine_id bigint, "
		"thread_id bigint, comm_id bigint, dso_id bigint, symbol_id bigint, "
		"sym_offset bigint, ip bigint, time bigint, cpu integer, to_dso_id bigint, "
		"to_symbol_id bigint, to_sym_offset bigint, to_ip bigint, period bigint, "
		"weight bigint, transaction bigint, data_src bigint, branch_type integer, "
		"in_tx boolean, call_path_id bigint, insn_count bigint, cyc_count bigint, "
		"flags integer",
	[PTD_DB_CALL_PATHS] = "id bigint NOT NULL, parent_id bigint, symbol_id bigint, ip bigint",
	[PTD_DB_CALLS] = "id bigint NOT NULL, thread_id bigint, comm_id bigint, "
		"call_path_id bigint, call_time bigint, return_time bigint, branch_count bigint, "
		"call_id bigint, return_id bigint, parent_call_path_id bigint, flags integer, "
		"parent_id bigint, insn_count bigint, cyc_count bigint",
	[PTD_DB_PTWRITE] = "id bigint NOT NULL, payload bigint, exact_ip boolean",
	[PTD_DB_CBR] = "id bigint NOT NULL, cbr integer, mhz integer, percent integer",
	[PTD_DB_MWAIT] = "id bigint NOT NULL, hints integer, extensions integer",
	[PTD_DB_PWRE] = "id bigint NOT NULL, cstate integer, subcstate integer, hw boolean",
	[PTD_DB_EXSTOP] = "id bigint NOT NULL, exact_ip boolean",
	[PTD_DB_PWRX] = "id bigint NOT NULL, deepest_cstate integer, last_cstate integer, "
		"wake_reason integer",
	[PTD_DB_CONTEXT_SWITCHES] = "id bigint NOT NULL, machine_id bigint, time bigint, "
		"cpu integer, thread_out_id bigint, comm_out_id bigint, thread_in_id bigint, "
		"comm_in_id bigint, flags integer",
};

#define IPC "CASE WHEN cyc_count=0 THEN CAST(0 AS NUMERIC(20, 2)) " \
	"ELSE CAST((CAST(insn_count AS FLOAT) / cyc_count) AS NUMERIC(20, 2)) END AS IPC, "
#define WAKE_REASON(col, other) \
	"CASE WHEN " col "=1 THEN 'Interrupt' WHEN " col "=2 THEN 'Timer Deadline' " \
	"WHEN " col "=4 THEN 'Monitored Address' WHEN " col "=8 THEN 'HW' " \
	"ELSE " other " END AS wake_reason"
#define TRUE_FALSE(col, as) \
	"CASE WHEN " col "=FALSE THEN 'False' WHEN " col "=TRUE THEN 'True' ELSE NULL END AS " as

const char *const ptd_pg_views[] = {
	PTD_DB_VIEW_MACHINES,

	PTD_DB_VIEW_DSOS,

	PTD_DB_VIEW_SYMBOLS,

	PTD_DB_VIEW_THREADS,

	PTD_DB_VIEW_COMM_THREADS,

	"CREATE VIEW call_paths_view AS SELECT c.id, to_hex(c.ip) AS ip, c.symbol_id, "
	"(SELECT name FROM symbols WHERE id = c.symbol_id) AS symbol, "
	"(SELECT dso_id FROM symbols WHERE id = c.symbol_id) AS dso_id, "
	"(SELECT dso FROM symbols_view WHERE id = c.symbol_id) AS dso_short_name, "
	"c.parent_id, to_hex(p.ip) AS parent_ip, p.symbol_id AS parent_symbol_id, "
	"(SELECT name FROM symbols WHERE id = p.symbol_id) AS parent_symbol, "
	"(SELECT dso_id FROM symbols WHERE id = p.symbol_id) AS parent_dso_id, "
	"(SELECT dso FROM symbols_view WHERE id = p.symbol_id) AS parent_dso_short_name "
	"FROM call_paths c INNER JOIN call_paths p ON p.id = c.parent_id",

	"CREATE VIEW calls_view AS SELECT calls.id, thread_id, "
	"(SELECT pid FROM threads WHERE id = thread_id) AS pid, "
	"(SELECT tid FROM threads WHERE id = thread_id) AS tid, "
	"(SELECT comm FROM comms WHERE id = comm_id) AS command, call_path_id, "
	"to_hex(ip) AS ip, symbol_id, (SELECT name FROM symbols WHERE id = symbol_id) AS symbol, "
	"call_time, return_time, return_time - call_time AS elapsed_time, branch_count, "
	"insn_count, cyc_count, " IPC "call_id, return_id, "
	"CASE WHEN flags=0 THEN '' WHEN flags=1 THEN 'no call' WHEN flags=2 THEN 'no return' "
	"WHEN flags=3 THEN 'no call/return' WHEN flags=6 THEN 'jump' "
	"ELSE CAST ( flags AS VARCHAR(6) ) END AS flags, parent_call_path_id, calls.parent_id "
	"FROM calls INNER JOIN call_paths ON call_paths.id = call_path_id",

	"CREATE VIEW samples_view AS SELECT id, time, cpu, "
	"(SELECT pid FROM threads WHERE id = thread_id) AS pid, "
	"(SELECT tid FROM threads WHERE id = thread_id) AS tid, "
	"(SELECT comm FROM comms WHERE id = comm_id) AS command, "
	"(SELECT name FROM selected_events WHERE id = evsel_id) AS event, "
	"to_hex(ip) AS ip_hex, (SELECT name FROM symbols WHERE id = symbol_id) AS symbol, "
	"sym_offset, (SELECT short_name FROM dsos WHERE id = dso_id) AS dso_short_name, "
	"to_hex(to_ip) AS to_ip_hex, "
	"(SELECT name FROM symbols WHERE id = to_symbol_id) AS to_symbol, to_sym_offset, "
	"(SELECT short_name FROM dsos WHERE id = to_dso_id) AS to_dso_short_name, "
	"(SELECT name FROM branch_types WHERE id = branch_type) AS branch_type_name, in_tx, "
	"insn_count, cyc_count, " IPC "flags FROM samples",

	"CREATE VIEW ptwrite_view AS SELECT ptwrite.id, time, cpu, "
	"to_hex(payload) AS payload_hex, "
	"CASE WHEN exact_ip=FALSE THEN 'False' ELSE 'True' END AS exact_ip "
	"FROM ptwrite INNER JOIN samples ON samples.id = ptwrite.id",

	PTD_DB_VIEW_CBR,

	"CREATE VIEW mwait_view AS SELECT mwait.id, time, cpu, to_hex(hints) AS hints_hex, "
	"to_hex(extensions) AS extensions_hex "
	"FROM mwait INNER JOIN samples ON samples.id = mwait.id",

	"CREATE VIEW pwre_view AS SELECT pwre.id, time, cpu, cstate, subcstate, "
	"CASE WHEN hw=FALSE THEN 'False' ELSE 'True' END AS hw "
	"FROM pwre INNER JOIN samples ON samples.id = pwre.id",

	"CREATE VIEW exstop_view AS SELECT exstop.id, time, cpu, "
	"CASE WHEN exact_ip=FALSE THEN 'False' ELSE 'True' END AS exact_ip "
	"FROM exstop INNER JOIN samples ON samples.id = exstop.id",

	"CREATE VIEW pwrx_view AS SELECT pwrx.id, time, cpu, deepest_cstate, last_cstate, "
	WAKE_REASON("wake_reason", "CAST ( wake_reason AS VARCHAR(2) )")
	" FROM pwrx INNER JOIN samples ON samples.id = pwrx.id",

	"CREATE VIEW power_events_view AS SELECT samples.id, samples.time, samples.cpu, "
	"selected_events.name AS event, FORMAT('%6s', cbr.cbr) AS cbr, "
	"FORMAT('%6s', cbr.mhz) AS MHz, FORMAT('%5s', cbr.percent) AS percent, "
	"to_hex(mwait.hints) AS hints_hex, to_hex(mwait.extensions) AS extensions_hex, "
	"FORMAT('%3s', pwre.cstate) AS cstate, FORMAT('%3s', pwre.subcstate) AS subcstate, "
	TRUE_FALSE("pwre.hw", "hw") ", " TRUE_FALSE("exstop.exact_ip", "exact_ip") ", "
	"FORMAT('%3s', pwrx.deepest_cstate) AS deepest_cstate, "
	"FORMAT('%3s', pwrx.last_cstate) AS last_cstate, "
	WAKE_REASON("pwrx.wake_reason", "FORMAT('%2s', pwrx.wake_reason)")
	" FROM cbr FULL JOIN mwait ON mwait.id = cbr.id FULL JOIN pwre ON pwre.id = cbr.id "
	"FULL JOIN exstop ON exstop.id = cbr.id FULL JOIN pwrx ON pwrx.id = cbr.id "
	"INNER JOIN samples ON samples.id = coalesce(cbr.id, mwait.id, pwre.id, exstop.id, pwrx.id) "
	"INNER JOIN selected_events ON selected_events.id = samples.evsel_id ORDER BY samples.id",

	"CREATE VIEW context_switches_view AS SELECT context_switches.id, "
	"context_switches.machine_id, context_switches.time, context_switches.cpu, "
	"th_out.pid AS pid_out, th_out.tid AS tid_out, comm_out.comm AS comm_out, "
	"th_in.pid AS pid_in, th_in.tid AS tid_in, comm_in.comm AS comm_in, "
	"CASE WHEN context_switches.flags = 0 THEN 'in' WHEN context_switches.flags = 1 THEN 'out' "
	"WHEN context_switches.flags = 3 THEN 'out preempt' "
	"ELSE CAST ( context_switches.flags AS VARCHAR(11) ) END AS flags "
	"FROM context_switches "
	"INNER JOIN threads AS th_out ON th_out.id = context_switches.thread_out_id "
	"INNER JOIN threads AS th_in ON th_in.id = context_switches.thread_in_id "
	"INNER JOIN comms AS comm_out ON comm_out.id = context_switches.comm_out_id "
	"INNER JOIN comms AS comm_in ON comm_in.id = context_switches.comm_in_id",
	NULL
};

#define FK(name, col, table) "ADD CONSTRAINT " name " FOREIGN KEY (" col ") REFERENCES " table " (id)"
#define IDFK(t) "ALTER TABLE " t " " FK("idfk", "id", "samples")
/* the keys of the two large tables, checked after the load (ptd_pg_checks) */
#define NV " NOT VALID"
#define CHECK(t, name) "ALTER TABLE " t " VALIDATE CONSTRAINT " name ";"

const char *const ptd_pg_keys[] = {
	"ALTER TABLE selected_events ADD PRIMARY KEY (id)",
	"ALTER TABLE machines ADD PRIMARY KEY (id)",
	"ALTER TABLE threads ADD PRIMARY KEY (id)",
	"ALTER TABLE comms ADD PRIMARY KEY (id)",
	"ALTER TABLE comm_threads ADD PRIMARY KEY (id)",
	"ALTER TABLE dsos ADD PRIMARY KEY (id)",
	"ALTER TABLE symbols ADD PRIMARY KEY (id)",
	"ALTER TABLE branch_types ADD PRIMARY KEY (id)",
	"ALTER TABLE call_paths ADD PRIMARY KEY (id)",
	"ALTER TABLE calls ADD PRIMARY KEY (id)",
	"ALTER TABLE ptwrite ADD PRIMARY KEY (id)",
	"ALTER TABLE cbr ADD PRIMARY KEY (id)",
	"ALTER TABLE mwait ADD PRIMARY KEY (id)",
	"ALTER TABLE pwre ADD PRIMARY KEY (id)",
	"ALTER TABLE exstop ADD PRIMARY KEY (id)",
	"ALTER TABLE pwrx ADD PRIMARY KEY (id)",
	"ALTER TABLE context_switches ADD PRIMARY KEY (id)",
	"ALTER TABLE threads " FK("machinefk", "machine_id", "machines") ", "
	FK("processfk", "process_id", "threads"),
	"ALTER TABLE comms " FK("threadfk", "c_thread_id", "threads"),
	"ALTER TABLE comm_threads " FK("commfk", "comm_id", "comms") ", "
	FK("threadfk", "thread_id", "threads"),
	"ALTER TABLE dsos " FK("machinefk", "machine_id", "machines"),
	"ALTER TABLE symbols " FK("dsofk", "dso_id", "dsos"),
	"ALTER TABLE samples " FK("evselfk", "evsel_id", "selected_events") NV ", "
	FK("machinefk", "machine_id", "machines") NV ", " FK("threadfk", "thread_id", "threads") NV ", "
	FK("commfk", "comm_id", "comms") NV ", " FK("dsofk", "dso_id", "dsos") NV ", "
	FK("symbolfk", "symbol_id", "symbols") NV ", " FK("todsofk", "to_dso_id", "dsos") NV ", "
	FK("tosymbolfk", "to_symbol_id", "symbols") NV,
	"ALTER TABLE call_paths " FK("parentfk", "parent_id", "call_paths") ", "
	FK("symbolfk", "symbol_id", "symbols"),
	"ALTER TABLE calls " FK("threadfk", "thread_id", "threads") NV ", "
	FK("commfk", "comm_id", "comms") NV ", " FK("call_pathfk", "call_path_id", "call_paths") NV ", "
	FK("callfk", "call_id", "samples") NV ", " FK("returnfk", "return_id", "samples") NV ", "
	FK("parent_call_pathfk", "parent_call_path_id", "call_paths") NV,
	"CREATE INDEX pcpid_idx ON calls (parent_call_path_id)",
	"CREATE INDEX pid_idx ON calls (parent_id)",
	"ALTER TABLE comms ADD has_calls boolean",
	"UPDATE comms SET has_calls = TRUE WHERE comms.id IN (SELECT DISTINCT comm_id FROM calls)",
	IDFK("ptwrite"), IDFK("cbr"), IDFK("mwait"), IDFK("pwre"), IDFK("exstop"), IDFK("pwrx"),
	"ALTER TABLE context_switches " FK("machinefk", "machine_id", "machines") ", "
	FK("toutfk", "thread_out_id", "threads") ", " FK("tinfk", "thread_in_id", "threads") ", "
	FK("coutfk", "comm_out_id", "comms") ", " FK("cinfk", "comm_in_id", "comms"),
	NULL
};

const char *const ptd_pg_checks[2] = {
	CHECK("samples", "evselfk") CHECK("samples", "machinefk") CHECK("samples", "threadfk")
	CHECK("samples", "commfk") CHECK("samples", "dsofk") CHECK("samples", "symbolfk")
	CHECK("samples", "todsofk") CHECK("samples", "tosymbolfk"),
	CHECK("calls", "threadfk") CHECK("calls", "commfk") CHECK("calls", "call_pathfk")
	CHECK("calls", "callfk") CHECK("calls", "returnfk") CHECK("calls", "parent_call_pathfk"),
};
