/* perf script 6.1's -F field sets: parsing, defaults and the checks
 * against the file's events (see script.h).  Written from reading perf's
 * behaviour; the comments name the perf function each part matches. */
#include "formats/out/script.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "formats/perf/abi.h"

#define F(x) PTD_SCRIPT_##x
#define ALLSYM (F(COMM) | F(TID) | F(CPU) | F(TIME) | F(EVNAME) | F(IP) | \
		F(SYM) | F(SYMOFFSET) | F(DSO))
#define PERF_COUNT_SW_DUMMY 9
#define PERF_SAMPLE_BRANCH_ANY (1ULL << 3)   /* attr.branch_sample_type: any branch */

/* all_output_options[], in perf's order */
static const struct { const char *str; uint64_t field; } fieldnames[] = {
	{ "comm", F(COMM) }, { "tid", F(TID) }, { "pid", F(PID) },
	{ "time", F(TIME) }, { "cpu", F(CPU) }, { "event", F(EVNAME) },
	{ "trace", F(TRACE) }, { "ip", F(IP) }, { "sym", F(SYM) },
	{ "dso", F(DSO) }, { "addr", F(ADDR) }, { "symoff", F(SYMOFFSET) },
	{ "srcline", F(SRCLINE) }, { "period", F(PERIOD) },
	{ "iregs", F(IREGS) }, { "uregs", F(UREGS) },
	{ "brstack", F(BRSTACK) }, { "brstacksym", F(BRSTACKSYM) },
	{ "data_src", F(DATA_SRC) }, { "weight", F(WEIGHT) },
	{ "bpf-output", F(BPF_OUTPUT) }, { "callindent", F(CALLINDENT) },
	{ "insn", F(INSN) }, { "insnlen", F(INSNLEN) },
	{ "brstackinsn", F(BRSTACKINSN) }, { "brstackoff", F(BRSTACKOFF) },
	{ "synth", F(SYNTH) }, { "phys_addr", F(PHYS_ADDR) },
	{ "metric", F(METRIC) }, { "misc", F(MISC) }, { "srccode", F(SRCCODE) },
	{ "ipc", F(IPC) }, { "tod", F(TOD) },
	{ "data_page_size", F(DATA_PAGE_SIZE) },
	{ "code_page_size", F(CODE_PAGE_SIZE) }, { "ins_lat", F(INS_LAT) },
	{ "brstackinsnlen", F(BRSTACKINSNLEN) },
	{ "machine_pid", F(MACHINE_PID) }, { "vcpu", F(VCPU) },
	{ "disasm", F(DISASM) },
};
#define NFIELDNAMES (sizeof(fieldnames) / sizeof(fieldnames[0]))

/* fields this module cannot print */
#define UNPRINTED (F(TRACE) | F(IREGS) | F(UREGS) | F(BRSTACKINSN) | F(BRSTACKINSNLEN) | \
		   F(DATA_SRC) | F(METRIC) | F(SRCCODE) | F(TOD) | \
		   F(DATA_PAGE_SIZE) | F(CODE_PAGE_SIZE))

static const char *field2str(uint64_t field)
{
	size_t i;

	for (i = 0; i < NFIELDNAMES; i++)
		if (fieldnames[i].field == field)
			return fieldnames[i].str;
	return "";
}

/* perf's event_type() of an output type */
static const char *event_type(int t)
{
	switch (t) {
	case PTD_SCRIPT_OT_HW: return "hardware";
	case PTD_SCRIPT_OT_SW: return "software";
	case PTD_SCRIPT_OT_TRACEPOINT: return "tracepoint";
	case PTD_SCRIPT_OT_HW_CACHE: return "hardware-cache";
	default: return "unknown";
	}
}

int ptd_script_output_type(uint32_t attr_type)
{
	if (attr_type == PTD_SCRIPT_TYPE_SYNTH)
		return PTD_SCRIPT_OT_SYNTH;
	if (attr_type < PTD_SCRIPT_OT_SYNTH)
		return (int)attr_type;
	return PTD_SCRIPT_OT_OTHER;
}

void ptd_script_init(struct ptd_script *ps)
{
	static const uint64_t hw = ALLSYM | F(PERIOD);
	struct ptd_script_out *o = ps->out;
	int t;

	memset(ps, 0, sizeof(*ps));
	for (t = 0; t < PTD_SCRIPT_OT_MAX; t++) {
		o[t].fields = hw;
		o[t].invalid_fields = F(TRACE) | F(BPF_OUTPUT);
	}
	o[PTD_SCRIPT_OT_SW].fields |= F(BPF_OUTPUT);
	o[PTD_SCRIPT_OT_SW].invalid_fields = F(TRACE);
	o[PTD_SCRIPT_OT_TRACEPOINT].fields = F(COMM) | F(TID) | F(CPU) | F(TIME) |
					     F(EVNAME) | F(TRACE);
	o[PTD_SCRIPT_OT_TRACEPOINT].invalid_fields = 0;
	o[PTD_SCRIPT_OT_RAW].fields |= F(ADDR) | F(DATA_SRC) | F(WEIGHT) | F(PHYS_ADDR) |
				       F(DATA_PAGE_SIZE) | F(CODE_PAGE_SIZE) | F(INS_LAT);
	o[PTD_SCRIPT_OT_SYNTH].fields = ALLSYM | F(SYNTH);
}

static int any_user_set(const struct ptd_script *ps)
{
	int t;

	for (t = 0; t < PTD_SCRIPT_OT_MAX; t++)
		if (ps->out[t].user_set)
			return 1;
	return 0;
}

/* parse_output_fields() */
int ptd_script_parse_fields(struct ptd_script *ps, const char *arg, FILE *err)
{
	enum { DEFAULT, SET, ADD, REMOVE } change = DEFAULT;
	char *str, *tok, *save = NULL;
	int type = -1, rc = 0, t;
	size_t i;

	if (!err)
		err = stderr;
	str = strdup(arg);
	if (!str)
		return -PTD_E_NOMEM;
	tok = strchr(str, ':');
	if (tok) {
		static const char *const names[] = { "hw", "sw", "trace", "raw", "break" };

		*tok++ = '\0';
		for (t = 0; t < 5; t++)
			if (!strcmp(str, names[t]))
				type = t == 4 ? PTD_SCRIPT_OT_BREAKPOINT : t == 3 ? PTD_SCRIPT_OT_RAW : t;
		if (!strcmp(str, "synth"))
			type = PTD_SCRIPT_OT_SYNTH;
		if (type < 0) {
			fprintf(err, "Invalid event type in field string.\n");
			rc = -PTD_E_INVAL;
			goto out;
		}
		if (ps->out[type].user_set)
			fprintf(err, "Overriding previous field request for %s events.\n",
				event_type(type));
		if (!strchr(tok, '+') && !strchr(tok, '-')) {
			ps->out[type].fields = 0;
			ps->out[type].user_set = 1;
			ps->out[type].wildcard_set = 0;
		}
	} else {
		tok = str;
		if (!*str) {
			fprintf(err, "Cannot set fields to 'none' for all event types.\n");
			rc = -PTD_E_INVAL;
			goto out;
		}
		if (!strchr(str, '+') && !strchr(str, '-')) {
			if (any_user_set(ps))
				fprintf(err, "Overriding previous field request for all events.\n");
			for (t = 0; t < PTD_SCRIPT_OT_MAX; t++) {
				ps->out[t].fields = 0;
				ps->out[t].user_set = 1;
				ps->out[t].wildcard_set = 1;
			}
		}
	}

	for (tok = strtok_r(tok, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t f;

		if (*tok == '+' || *tok == '-') {
			if (change == SET)
				goto badmix;
			change = *tok++ == '+' ? ADD : REMOVE;
		} else {
			if (change != SET && change != DEFAULT)
				goto badmix;
			change = SET;
		}
		for (i = 0; i < NFIELDNAMES; i++)
			if (!strcmp(tok, fieldnames[i].str))
				break;
		if (i == NFIELDNAMES && !strcmp(tok, "flags")) {
			ps->print_flags = change != REMOVE;
			continue;
		}
		if (i == NFIELDNAMES) {
			fprintf(err, "Invalid field requested.\n");
			rc = -PTD_E_INVAL;
			goto out;
		}
		f = fieldnames[i].field;
		if (type >= 0) {
			struct ptd_script_out *o = &ps->out[type];

			if (o->invalid_fields & f) {
				fprintf(err, "'%s' not valid for %s events.\n", tok, event_type(type));
				rc = -PTD_E_INVAL;
				goto out;
			}
			if (change == REMOVE)
				o->fields &= ~f;
			else
				o->fields |= f;
			o->user_set = o->wildcard_set = 1;
			continue;
		}
		for (t = 0; t < PTD_SCRIPT_OT_MAX; t++) {
			struct ptd_script_out *o = &ps->out[t];

			if (o->invalid_fields & f) {
				fprintf(err, "'%s' not valid for %s events. Ignoring.\n",
					tok, event_type(t));
				continue;
			}
			if (change == REMOVE) {
				o->fields &= ~f;
				o->user_set_fields &= ~f;
				o->user_unset_fields |= f;
			} else {
				o->fields |= f;
				o->user_set_fields |= f;
				o->user_unset_fields &= ~f;
			}
			o->user_set = o->wildcard_set = 1;
		}
	}
	goto out;
badmix:
	fprintf(err, "Cannot mix +-field with overridden fields\n");
	rc = -PTD_E_INVAL;
out:
	free(str);
	return rc;
}

/* parse_call_trace(), parse_callret_trace(), parse_insn_trace() */
int ptd_script_preset(struct ptd_script *ps, int which, FILE *err)
{
	static const char *const f[] = {
		"-ip,-addr,-event,-period,+callindent",
		"-ip,-addr,-event,-period,+callindent,+flags",
		"+insn,-event,-period",
	};
	int rc;

	if (which < 0 || which > PTD_SCRIPT_INSN_TRACE)
		return -PTD_E_INVAL;
	rc = ptd_script_parse_fields(ps, f[which], err);
	if (which == PTD_SCRIPT_INSN_TRACE && rc < 0)
		return rc;
	if (which == PTD_SCRIPT_CALL_TRACE)
		ps->pad_dso = 50;
	ps->ns = 1;
	return 0;
}

/* evsel__do_check_stype(): 0, or -1 after the error */
static int check_stype(struct ptd_script_out *o, const struct ptd_script_evsel *ev, uint64_t st,
		       const char *msg, uint64_t field, int allow_user_set, FILE *err)
{
	if (ev->sample_type & st)
		return 0;
	if (o->user_set_fields & field) {
		if (allow_user_set)
			return 0;
		fprintf(err, "Samples for '%s' event do not have %s attribute set. "
			"Cannot print '%s' field.\n",
			ev->check_name ? ev->check_name : ev->name ? ev->name : "", msg,
			field2str(field));
		return -1;
	}
	o->fields &= ~field;
	return 0;
}

/* evsel__check_attr().  brstack, brstacksym and brstackoff have no check:
 * perf prints nothing for them when a sample has no branch stack. */
static int check_attr(const struct ptd_script *ps, struct ptd_script_out *o,
		      const struct ptd_script_evsel *ev, int allow, FILE *err)
{
	uint64_t st = ev->sample_type;

#define PF(x) (o->fields & F(x))
#define CHK(x, bit, msg, al) \
	if (PF(x) && check_stype(o, ev, bit, msg, F(x), al, err)) return -1
	CHK(IP, PTD_SAMPLE_IP, "IP", 0);
	CHK(ADDR, PTD_SAMPLE_ADDR, "ADDR", allow);
	CHK(DATA_SRC, PTD_SAMPLE_DATA_SRC, "DATA_SRC", allow);
	CHK(WEIGHT, PTD_SAMPLE_WEIGHT | PTD_SAMPLE_WEIGHT_STRUCT, "WEIGHT", allow);
	if (PF(SYM) && !(st & (PTD_SAMPLE_IP | PTD_SAMPLE_ADDR))) {
		fprintf(err, "Display of symbols requested but neither sample IP nor "
			"sample address\navailable. Hence, no addresses to convert "
			"to symbols.\n");
		return -1;
	}
	if (PF(SYMOFFSET) && !PF(SYM)) {
		fprintf(err, "Display of offsets requested but symbol is not" "selected.\n");
		return -1;
	}
	if (PF(DSO) && !(st & (PTD_SAMPLE_IP | PTD_SAMPLE_ADDR))) {
		fprintf(err, "Display of DSO requested but no address to convert.\n");
		return -1;
	}
	if ((PF(SRCLINE) || PF(SRCCODE)) && !PF(IP)) {
		fprintf(err, "Display of source line number requested but sample IP is not\n"
			"selected. Hence, no address to lookup the source line number.\n");
		return -1;
	}
	if ((PF(BRSTACKINSN) || PF(BRSTACKINSNLEN)) && !allow &&
	    !(ps->branch_sample_type & PERF_SAMPLE_BRANCH_ANY)) {
		fprintf(err, "Display of branch stack assembler requested, but non all-branch "
			"filter set\nHint: run 'perf record -b ...'\n");
		return -1;
	}
	if ((PF(PID) || PF(TID)) &&
	    check_stype(o, ev, PTD_SAMPLE_TID, "TID", F(TID) | F(PID), 0, err))
		return -1;
	CHK(TIME, PTD_SAMPLE_TIME, "TIME", 0);
	CHK(CPU, PTD_SAMPLE_CPU, "CPU", allow);
	CHK(IREGS, PTD_SAMPLE_REGS_INTR, "IREGS", allow);
	CHK(UREGS, PTD_SAMPLE_REGS_USER, "UREGS", 0);
	CHK(PHYS_ADDR, PTD_SAMPLE_PHYS_ADDR, "PHYS_ADDR", allow);
	CHK(DATA_PAGE_SIZE, PTD_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE", 0);
	CHK(CODE_PAGE_SIZE, PTD_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE", 0);
	CHK(INS_LAT, PTD_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT", 0);
#undef CHK
#undef PF
	return 0;
}

static int is_dummy(const struct ptd_script_evsel *ev)
{
	return ev->type == 1 && ev->config == PERF_COUNT_SW_DUMMY;
}

/* The checks of perf_session__check_output_opt() (the file's events, at
 * the start) and of process_attr() (each synthesized event whose attr.type
 * is new), with evlist__max_name_len() and the callchain switch. */
int ptd_script_setup(struct ptd_script *ps, const struct ptd_script_evsel *evs, size_t n,
		     size_t n_file, int has_auxtrace, FILE *err)
{
	uint64_t combined = 0;
	int t, seen[PTD_SCRIPT_OT_MAX] = { 0 };
	size_t i, j;

	if (!err)
		err = stderr;
	if (n_file > n)
		n_file = n;
	ps->failed = (size_t)-1;
	ps->name_width = 0;
	ps->use_callchain = 0;
	for (i = 0; i < n; i++) {
		int len = evs[i].name ? (int)strlen(evs[i].name) : 0;

		if (len > ps->name_width)
			ps->name_width = len;
		if (evs[i].sample_type & PTD_SAMPLE_CALLCHAIN)
			ps->use_callchain = 1;
	}
	for (t = 0; t < PTD_SCRIPT_OT_MAX; t++) {
		struct ptd_script_out *o = &ps->out[t];
		const struct ptd_script_evsel *ev = NULL;

		for (i = 0; i < n_file && !ev; i++)
			if (!is_dummy(&evs[i]) && ptd_script_output_type(evs[i].type) == t)
				ev = &evs[i];
		if (!ev && o->user_set && !o->wildcard_set && t != PTD_SCRIPT_OT_SYNTH) {
			fprintf(err, "%s events do not exist. "
				"Remove corresponding -F option to proceed.\n", event_type(t));
			return -PTD_E_INVAL;
		}
		if (ev && o->fields && check_attr(ps, o, ev, has_auxtrace, err))
			return -PTD_E_INVAL;
		if (ev && (o->fields & F(TOD))) {
			fprintf(err, "Can't provide 'tod' time, missing clock data. "
				"Please record with -k/--clockid option.\n");
			return -PTD_E_INVAL;
		}
	}
	for (i = 0; i < n_file; i++)
		combined |= evs[i].sample_type;
	for (i = n_file; i < n; i++) {
		const struct ptd_script_evsel *ev = &evs[i];
		struct ptd_script_out *o = &ps->out[ptd_script_output_type(ev->type)];

		combined |= ev->sample_type;
		if (ev->type >= PTD_SCRIPT_OT_SYNTH && ev->type != PTD_SCRIPT_TYPE_SYNTH)
			continue;
		for (j = 0; j < i && evs[j].type != ev->type; j++)
			;
		if (j < i)
			continue;
		if (ev->sample_type && check_attr(ps, o, ev, has_auxtrace, err)) {
			ps->failed = i;
			return -PTD_E_INVAL;
		}
		if (ps->use_callchain &&
		    ((combined & (PTD_SAMPLE_CALLCHAIN | PTD_SAMPLE_BRANCH_STACK)) ||
		     ((combined & PTD_SAMPLE_REGS_USER) && (combined & PTD_SAMPLE_STACK_USER)))) {
			o->fields |= (F(IP) | F(SYM)) & ~o->user_unset_fields;
		}
	}
	for (i = 0; i < n; i++)
		if (!is_dummy(&evs[i]))
			seen[ptd_script_output_type(evs[i].type)] = 1;
	for (t = 0; t < PTD_SCRIPT_OT_MAX; t++) {
		uint64_t f = ps->out[t].fields & UNPRINTED;

		if (ps->brstackinsn)
			f &= ~(F(BRSTACKINSN) | F(BRSTACKINSNLEN));

		if (seen[t] && f) {
			fprintf(err, "ptdecode: perf script field '%s' is not supported\n",
				field2str(f & -f));
			return -PTD_E_UNSUPPORTED;
		}
	}
	return 0;
}
