/* The schema of perf's export-to-sqlite.py ("all" columns, calls): tables
 * and views with perf's names, column names and meanings (doc/formats.md).
 * 'transaction' is 'transaction_' as in perf's SQLite export (a reserved
 * word).  The views use printf() for hexadecimal addresses (SQLite 3.8.3
 * and later, as perf does when it can). */
#include "sqlite_schema.h"

#include "db_views.h"

const char *const ptd_sqlite_columns[PTD_DB_NTABLES] = {
	[PTD_DB_SELECTED_EVENTS] = "id integer NOT NULL PRIMARY KEY, name varchar(80)",
	[PTD_DB_MACHINES] = "id integer NOT NULL PRIMARY KEY, pid integer, root_dir varchar(4096)",
	[PTD_DB_THREADS] = "id integer NOT NULL PRIMARY KEY, machine_id bigint, process_id bigint, pid integer, "
		"tid integer",
	[PTD_DB_COMMS] = "id integer NOT NULL PRIMARY KEY, comm varchar(16), c_thread_id bigint, c_time bigint, "
		"exec_flag boolean",
	[PTD_DB_COMM_THREADS] = "id integer NOT NULL PRIMARY KEY, comm_id bigint, thread_id bigint",
	[PTD_DB_DSOS] = "id integer NOT NULL PRIMARY KEY, machine_id bigint, short_name varchar(256), "
		"long_name varchar(4096), build_id varchar(64)",
	[PTD_DB_SYMBOLS] = "id integer NOT NULL PRIMARY KEY, dso_id bigint, sym_start bigint, sym_end bigint, "
		"binding integer, name varchar(2048)",
	[PTD_DB_BRANCH_TYPES] = "id integer NOT NULL PRIMARY KEY, name varchar(80)",
	[PTD_DB_SAMPLES] = "id integer NOT NULL PRIMARY KEY, evsel_id bigint, machine_id bigint, thread_id bigint, "
		"comm_id bigint, dso_id bigint, symbol_id bigint, sym_offset bigint, ip bigint, "
		"time bigint, cpu integer, to_dso_id bigint, to_symbol_id bigint, to_sym_offset bigint, "
		"to_ip bigint, period bigint, weight bigint, transaction_ bigint, data_src bigint, "
		"branch_type integer, in_tx boolean, call_path_id bigint, insn_count bigint, "
		"cyc_count bigint, flags integer",
	[PTD_DB_CALL_PATHS] = "id integer NOT NULL PRIMARY KEY, parent_id bigint, symbol_id bigint, ip bigint",
	[PTD_DB_CALLS] = "id integer NOT NULL PRIMARY KEY, thread_id bigint, comm_id bigint, call_path_id bigint, "
		"call_time bigint, return_time bigint, branch_count bigint, call_id bigint, "
		"return_id bigint, parent_call_path_id bigint, flags integer, parent_id bigint, "
		"insn_count bigint, cyc_count bigint",
	[PTD_DB_PTWRITE] = "id integer NOT NULL PRIMARY KEY, payload bigint, exact_ip integer",
	[PTD_DB_CBR] = "id integer NOT NULL PRIMARY KEY, cbr integer, mhz integer, percent integer",
	[PTD_DB_MWAIT] = "id integer NOT NULL PRIMARY KEY, hints integer, extensions integer",
	[PTD_DB_PWRE] = "id integer NOT NULL PRIMARY KEY, cstate integer, subcstate integer, hw integer",
	[PTD_DB_EXSTOP] = "id integer NOT NULL PRIMARY KEY, exact_ip integer",
	[PTD_DB_PWRX] = "id integer NOT NULL PRIMARY KEY, deepest_cstate integer, last_cstate integer, "
		"wake_reason integer",
	[PTD_DB_CONTEXT_SWITCHES] = "id integer NOT NULL PRIMARY KEY, machine_id bigint, time bigint, cpu integer, "
		"thread_out_id bigint, comm_out_id bigint, thread_in_id bigint, comm_in_id bigint, "
		"flags integer",
};

#define WAKE_REASON \
	"CASE WHEN wake_reason=1 THEN 'Interrupt' WHEN wake_reason=2 THEN 'Timer Deadline' " \
	"WHEN wake_reason=4 THEN 'Monitored Address' WHEN wake_reason=8 THEN 'HW' " \
	"ELSE wake_reason END"
#define POWER_COL(ev, expr, as) \
	"CASE WHEN selected_events.name='" ev "' THEN (" expr ") ELSE \"\" END AS " as ", "

const char *const ptd_sqlite_views[] = {
	PTD_DB_VIEW_MACHINES,

	PTD_DB_VIEW_DSOS,

	PTD_DB_VIEW_SYMBOLS,

	PTD_DB_VIEW_THREADS,

	PTD_DB_VIEW_COMM_THREADS,

	"CREATE VIEW call_paths_view AS SELECT c.id, printf(\"%x\", c.ip) AS ip, c.symbol_id, "
	"(SELECT name FROM symbols WHERE id = c.symbol_id) AS symbol, "
	"(SELECT dso_id FROM symbols WHERE id = c.symbol_id) AS dso_id, "
	"(SELECT dso FROM symbols_view WHERE id = c.symbol_id) AS dso_short_name, "
	"c.parent_id, printf(\"%x\", p.ip) AS parent_ip, p.symbol_id AS parent_symbol_id, "
	"(SELECT name FROM symbols WHERE id = p.symbol_id) AS parent_symbol, "
	"(SELECT dso_id FROM symbols WHERE id = p.symbol_id) AS parent_dso_id, "
	"(SELECT dso FROM symbols_view WHERE id = p.symbol_id) AS parent_dso_short_name "
	"FROM call_paths c INNER JOIN call_paths p ON p.id = c.parent_id",

	"CREATE VIEW calls_view AS SELECT calls.id, thread_id, "
	"(SELECT pid FROM threads WHERE id = thread_id) AS pid, "
	"(SELECT tid FROM threads WHERE id = thread_id) AS tid, "
	"(SELECT comm FROM comms WHERE id = comm_id) AS command, call_path_id, "
	"printf(\"%x\", ip) AS ip, symbol_id, (SELECT name FROM symbols WHERE id = symbol_id) AS symbol, "
	"call_time, return_time, return_time - call_time AS elapsed_time, branch_count, insn_count, "
	"cyc_count, CASE WHEN cyc_count=0 THEN CAST(0 AS FLOAT) "
	"ELSE ROUND(CAST(insn_count AS FLOAT) / cyc_count, 2) END AS IPC, call_id, return_id, "
	"CASE WHEN flags=0 THEN '' WHEN flags=1 THEN 'no call' WHEN flags=2 THEN 'no return' "
	"WHEN flags=3 THEN 'no call/return' WHEN flags=6 THEN 'jump' ELSE flags END AS flags, "
	"parent_call_path_id, calls.parent_id "
	"FROM calls INNER JOIN call_paths ON call_paths.id = call_path_id",

	"CREATE VIEW samples_view AS SELECT id, time, cpu, "
	"(SELECT pid FROM threads WHERE id = thread_id) AS pid, "
	"(SELECT tid FROM threads WHERE id = thread_id) AS tid, "
	"(SELECT comm FROM comms WHERE id = comm_id) AS command, "
	"(SELECT name FROM selected_events WHERE id = evsel_id) AS event, "
	"printf(\"%x\", ip) AS ip_hex, (SELECT name FROM symbols WHERE id = symbol_id) AS symbol, "
	"sym_offset, (SELECT short_name FROM dsos WHERE id = dso_id) AS dso_short_name, "
	"printf(\"%x\", to_ip) AS to_ip_hex, "
	"(SELECT name FROM symbols WHERE id = to_symbol_id) AS to_symbol, to_sym_offset, "
	"(SELECT short_name FROM dsos WHERE id = to_dso_id) AS to_dso_short_name, "
	"(SELECT name FROM branch_types WHERE id = branch_type) AS branch_type_name, in_tx, "
	"insn_count, cyc_count, CASE WHEN cyc_count=0 THEN CAST(0 AS FLOAT) "
	"ELSE ROUND(CAST(insn_count AS FLOAT) / cyc_count, 2) END AS IPC, flags FROM samples",

	"CREATE VIEW ptwrite_view AS SELECT ptwrite.id, time, cpu, "
	"printf(\"%x\", payload) AS payload_hex, "
	"CASE WHEN exact_ip=0 THEN 'False' ELSE 'True' END AS exact_ip "
	"FROM ptwrite INNER JOIN samples ON samples.id = ptwrite.id",

	PTD_DB_VIEW_CBR,

	"CREATE VIEW mwait_view AS SELECT mwait.id, time, cpu, printf(\"%x\", hints) AS hints_hex, "
	"printf(\"%x\", extensions) AS extensions_hex "
	"FROM mwait INNER JOIN samples ON samples.id = mwait.id",

	"CREATE VIEW pwre_view AS SELECT pwre.id, time, cpu, cstate, subcstate, "
	"CASE WHEN hw=0 THEN 'False' ELSE 'True' END AS hw "
	"FROM pwre INNER JOIN samples ON samples.id = pwre.id",

	"CREATE VIEW exstop_view AS SELECT exstop.id, time, cpu, "
	"CASE WHEN exact_ip=0 THEN 'False' ELSE 'True' END AS exact_ip "
	"FROM exstop INNER JOIN samples ON samples.id = exstop.id",

	"CREATE VIEW pwrx_view AS SELECT pwrx.id, time, cpu, deepest_cstate, last_cstate, "
	WAKE_REASON " AS wake_reason FROM pwrx INNER JOIN samples ON samples.id = pwrx.id",

	"CREATE VIEW power_events_view AS SELECT samples.id, time, cpu, "
	"selected_events.name AS event, "
	POWER_COL("cbr", "SELECT cbr FROM cbr WHERE cbr.id = samples.id", "cbr")
	POWER_COL("cbr", "SELECT mhz FROM cbr WHERE cbr.id = samples.id", "mhz")
	POWER_COL("cbr", "SELECT percent FROM cbr WHERE cbr.id = samples.id", "percent")
	POWER_COL("mwait", "SELECT printf(\"%x\", hints) FROM mwait WHERE mwait.id = samples.id", "hints_hex")
	POWER_COL("mwait", "SELECT printf(\"%x\", extensions) FROM mwait WHERE mwait.id = samples.id",
		  "extensions_hex")
	POWER_COL("pwre", "SELECT cstate FROM pwre WHERE pwre.id = samples.id", "cstate")
	POWER_COL("pwre", "SELECT subcstate FROM pwre WHERE pwre.id = samples.id", "subcstate")
	POWER_COL("pwre", "SELECT hw FROM pwre WHERE pwre.id = samples.id", "hw")
	POWER_COL("exstop", "SELECT exact_ip FROM exstop WHERE exstop.id = samples.id", "exact_ip")
	POWER_COL("pwrx", "SELECT deepest_cstate FROM pwrx WHERE pwrx.id = samples.id", "deepest_cstate")
	POWER_COL("pwrx", "SELECT last_cstate FROM pwrx WHERE pwrx.id = samples.id", "last_cstate")
	"CASE WHEN selected_events.name='pwrx' THEN (SELECT " WAKE_REASON
	" FROM pwrx WHERE pwrx.id = samples.id) ELSE \"\" END AS wake_reason "
	"FROM samples INNER JOIN selected_events ON selected_events.id = evsel_id "
	"WHERE selected_events.name IN ('cbr','mwait','exstop','pwre','pwrx')",

	"CREATE VIEW context_switches_view AS SELECT context_switches.id, "
	"context_switches.machine_id, context_switches.time, context_switches.cpu, "
	"th_out.pid AS pid_out, th_out.tid AS tid_out, comm_out.comm AS comm_out, "
	"th_in.pid AS pid_in, th_in.tid AS tid_in, comm_in.comm AS comm_in, "
	"CASE WHEN context_switches.flags = 0 THEN 'in' WHEN context_switches.flags = 1 THEN 'out' "
	"WHEN context_switches.flags = 3 THEN 'out preempt' ELSE context_switches.flags END AS flags "
	"FROM context_switches "
	"INNER JOIN threads AS th_out ON th_out.id = context_switches.thread_out_id "
	"INNER JOIN threads AS th_in ON th_in.id = context_switches.thread_in_id "
	"INNER JOIN comms AS comm_out ON comm_out.id = context_switches.comm_out_id "
	"INNER JOIN comms AS comm_in ON comm_in.id = context_switches.comm_in_id",
	NULL
};
