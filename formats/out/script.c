/* perf script 6.1's sample text: one sample line, the AUX error line and
 * the error count warnings (see script.h).  Written from reading perf's
 * behaviour; the comments name the perf function each part matches. */
#include "formats/out/script_priv.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "formats/out/fmtnum.h"
#include "formats/perf/abi.h"

#define F(x) PTD_SCRIPT_##x
#define PERF_COUNT_HW_BRANCH_INSTRUCTIONS 4

/* ---- formatting --------------------------------------------------------- */

/* perf_sample__sprintf_flags() */
static const struct { uint32_t flags; const char *name; } flagnames[] = {
#define B PTD_IPF_BRANCH
#define I(x) PTD_IPF_##x
	{ B | I(CALL), "call" },
	{ B | I(RETURN), "return" },
	{ B | I(CONDITIONAL), "jcc" },
	{ B, "jmp" },
	{ B | I(CALL) | I(INTERRUPT), "int" },
	{ B | I(RETURN) | I(INTERRUPT), "iret" },
	{ B | I(CALL) | I(SYSCALLRET), "syscall" },
	{ B | I(RETURN) | I(SYSCALLRET), "sysret" },
	{ B | I(ASYNC), "async" },
	{ B | I(CALL) | I(ASYNC) | I(INTERRUPT), "hw int" },
	{ B | I(TX_ABORT), "tx abrt" },
	{ B | I(TRACE_BEGIN), "tr strt" },
	{ B | I(TRACE_END), "tr end" },
	{ B | I(CALL) | I(VMENTRY), "vmentry" },
	{ B | I(CALL) | I(VMEXIT), "vmexit" },
#undef B
};

static const char *flags_name(uint32_t flags)
{
	size_t i;

	for (i = 0; i < sizeof(flagnames) / sizeof(flagnames[0]); i++)
		if (flagnames[i].flags == flags)
			return flagnames[i].name;
	return NULL;
}

const char *ptd_script_flags_str(uint32_t flags, char *buf, size_t sz)
{
	static const char chars[] = "bcrosyiABExghDt";
	uint32_t xf = I(IN_TX) | I(INTR_DISABLE) | I(INTR_TOGGLE);
	const char *name;
	char xs[16] = "";
	size_t i, pos = 0;

	if (!sz)
		return buf;
	if (flags & xf)
		snprintf(xs, sizeof(xs), "(%s%s%s)", flags & I(IN_TX) ? "x" : "",
			 flags & I(INTR_DISABLE) ? "D" : "", flags & I(INTR_TOGGLE) ? "t" : "");
	if ((name = flags_name(flags & ~xf)) != NULL) {
		snprintf(buf, sz, "%-15s%6s", name, xs);
		return buf;
	}
	if ((flags & I(TRACE_BEGIN)) &&
	    (name = flags_name(flags & ~(xf | I(TRACE_BEGIN)))) != NULL) {
		snprintf(buf, sz, "tr strt %-7s%6s", name, xs);
		return buf;
	}
	if ((flags & I(TRACE_END)) &&
	    (name = flags_name(flags & ~(xf | I(TRACE_END)))) != NULL) {
		snprintf(buf, sz, "tr end  %-7s%6s", name, xs);
		return buf;
	}
	for (i = 0; i < 32; i++, flags >>= 1)
		if ((flags & 1) && pos + 1 < sz)
			buf[pos++] = i < sizeof(chars) - 1 ? chars[i] : '?';
	buf[pos] = '\0';
	return buf;
}
#undef I

/* map__fprintf_dsoname() with symbol_conf.pad_output_len_dso */
static void put_dso(const struct ptd_script *ps, FILE *out, const char *dso)
{
	const char *name = dso ? dso : "[unknown]";

	if (ps->pad_dso) {
		int w = (int)ps->pad_dso;

		/* scnprintf_pad(buf, w, ...): at most w-1 characters, padded to w */
		fprintf(out, "%-*.*s", w, w - 1, name);
		return;
	}
	ptd_puts(name, out);
}

/* " sym[+0xoff]" */
static void put_sym(FILE *out, const struct ptd_script_loc *l, int offs)
{
	if (!l->sym)
		ptd_puts(" [unknown]", out);
	else if (offs) {
		ptd_putc(' ', out);
		ptd_puts(l->sym, out);
		ptd_puts("+0x", out);
		ptd_put_hex(out, l->symoff, 0);
	} else {
		ptd_putc(' ', out);
		ptd_puts(l->sym, out);
	}
}

#define PF(x) (o->fields & F(x))

/* map__fprintf_srcline(): "\n  file:line" for an address in a map */
static void put_srcline(const struct ptd_script *ps, FILE *out, const struct ptd_script_loc *l)
{
	const char *t;

	if (!l->dso)
		return;
	t = l->srcline ? l->srcline : ps->srcline ? ps->srcline(ps->srcline_ctx, l) : NULL;
	if (t) {
		fputs("\n  ", out);
		fputs(t, out);
	}
}

/* An address as put_ip and put_addr print it (the hex value, when hex,
 * then the symbol and the dso as the fields ask): the bytes last written
 * for it, kept by its value in a table of PTD_SCRIPT_LOCTEXTS (allocated
 * once PTD_SCRIPT_LOCTEXT_AFTER have been printed: the sampling modes'
 * few lines touch no new pages), and written again while what they are
 * made of is the same.  A dump's addresses come again and again (loops,
 * the same calls), and one copy costs a tenth of formatting them (the
 * bench's W3 in b mode: 101 M instructions of 390 M in put_ip and
 * put_addr).  The symbol and dso names are compared by address: the
 * caller says when names may have been freed (sym_gen); the machine
 * keeps its file names for its lifetime. */
#define PTD_SCRIPT_LOCTEXT_BITS 10
#define PTD_SCRIPT_LOCTEXTS (1u << PTD_SCRIPT_LOCTEXT_BITS)
#define PTD_SCRIPT_LOCTEXT_AFTER 4096
struct ptd_script_loctext {
	uint64_t v, symoff;
	const char *sym, *dso;
	uint64_t fields;    /* the output's */
	uint8_t len, hex;   /* len 0: empty */
	char text[86];      /* an entry of 128 bytes */
};
_Static_assert(sizeof(struct ptd_script_loctext) == 128, "an entry of two cache lines");

static void put_loc_fields(const struct ptd_script *ps, const struct ptd_script_out *o, FILE *out,
			   uint64_t v, const struct ptd_script_loc *l, int hex)
{
	if (hex)
		ptd_put_hex(out, v, 16);
	if (PF(SYM))
		put_sym(out, l, PF(SYMOFFSET) != 0);
	if (PF(DSO)) {
		ptd_puts(" (", out);
		put_dso(ps, out, l->dso);
		ptd_putc(')', out);
	}
}

static void put_loc(struct ptd_script *ps, const struct ptd_script_out *o, FILE *out, uint64_t v,
		    const struct ptd_script_loc *l, int hex)
{
	struct ptd_script_loctext *e;
	const char *mark;
	size_t n;

	if (!ps->loctext) {
		if (++ps->nlocs < PTD_SCRIPT_LOCTEXT_AFTER ||
		    !(ps->loctext = calloc(PTD_SCRIPT_LOCTEXTS, sizeof(*ps->loctext)))) {
			put_loc_fields(ps, o, out, v, l, hex);
			return;
		}
		ps->loctext_gen = ps->sym_gen;
		ps->loctext_pad = ps->pad_dso;
	}
	if (ps->loctext_gen != ps->sym_gen || ps->loctext_pad != ps->pad_dso) {
		memset(ps->loctext, 0, PTD_SCRIPT_LOCTEXTS * sizeof(*ps->loctext));
		ps->loctext_gen = ps->sym_gen;
		ps->loctext_pad = ps->pad_dso;
	}
	e = &ps->loctext[(v * 0x9e3779b97f4a7c15ULL) >> (64 - PTD_SCRIPT_LOCTEXT_BITS)];
	if (e->len && e->v == v && e->sym == l->sym && e->dso == l->dso && e->fields == o->fields &&
	    e->hex == hex && e->symoff == l->symoff) {
		ptd_write(out, e->text, e->len);
		return;
	}
	mark = ptd_write_mark(out, sizeof(e->text));
	put_loc_fields(ps, o, out, v, l, hex);
	if (!mark || !(n = ptd_written_since(out, mark, e->text, sizeof(e->text)))) {
		e->len = 0;
		return;
	}
	e->v = v;
	e->symoff = l->symoff;
	e->sym = l->sym;
	e->dso = l->dso;
	e->fields = o->fields;
	e->hex = (uint8_t)hex;
	e->len = (uint8_t)n;
}

void ptd_script_fini(struct ptd_script *ps)
{
	free(ps->loctext);
	ps->loctext = NULL;
}

/* sample__fprintf_sym() without a callchain, and sample__fprintf_callchain() */
static void put_ip(struct ptd_script *ps, const struct ptd_script_out *o, FILE *out,
		   const struct ptd_script_sample *s, int srcline)
{
	size_t i;

	if (!ps->use_callchain || !s->callchain) {
		put_loc(ps, o, out, s->ip, &s->ip_loc, PF(IP) != 0);
		if (srcline && PF(SRCLINE))
			put_srcline(ps, out, &s->ip_loc);
		return;
	}
	for (i = 0; i < s->callchain_nr; i++) {
		const struct ptd_script_frame *fr = &s->callchain[i];

		if (PF(IP)) {
			ptd_putc('\t', out);
			ptd_put_hex(out, fr->addr, 16);
		}
		if (PF(SYM))
			put_sym(out, &fr->loc, PF(SYMOFFSET) != 0);
		if (PF(DSO)) {
			ptd_puts(" (", out);
			put_dso(ps, out, fr->loc.dso);
			ptd_putc(')', out);
		}
		if (PF(SRCLINE))
			put_srcline(ps, out, &fr->loc);
		ptd_putc('\n', out);
	}
}

/* sample_addr_correlates_sym(): branches (BTS-like) and page faults */
static int is_bts(const struct ptd_script_evsel *ev)
{
	return ev->type == 0 && (ev->config & PERF_COUNT_HW_BRANCH_INSTRUCTIONS) &&
	       ev->sample_period == 1;
}

int ptd_script_addr_correlates(const struct ptd_script_evsel *ev)
{
	/* PERF_COUNT_SW_PAGE_FAULTS 2, _MIN 5, _MAJ 6 */
	if (ev->type == 1 && (ev->config == 2 || ev->config == 5 || ev->config == 6))
		return 1;
	return is_bts(ev);
}

/* perf_sample__fprintf_addr() */
static void put_addr(struct ptd_script *ps, const struct ptd_script_out *o, FILE *out,
		     const struct ptd_script_sample *s)
{
	if (!ptd_script_addr_correlates(s->evsel)) {
		ptd_put_hex(out, s->addr, 16);
		return;
	}
	put_loc(ps, o, out, s->addr, &s->addr_loc, 1);
}

/* perf_sample__fprintf_start() */
static void put_start(struct ptd_script *ps, const struct ptd_script_out *o, FILE *out,
		      const struct ptd_script_sample *s)
{
	if (PF(MACHINE_PID) && s->machine_pid)
		fprintf(out, "VM:%5d ", (int)s->machine_pid);
	if (PF(VCPU) && s->machine_pid)
		fprintf(out, "VCPU:%03d ", (int)s->vcpu);
	if (PF(COMM)) {
		const char *comm = s->comm ? s->comm : ":-1";

		if (PF(IP) && (s->evsel->sample_type & PTD_SAMPLE_CALLCHAIN) && ps->use_callchain) {
			ptd_puts(comm, out);
			ptd_putc(' ', out);
		} else {
			ptd_put_str(out, comm, 16);
			ptd_putc(' ', out);
		}
	}
	if (PF(PID) && PF(TID)) {
		ptd_put_int(out, (int)s->pid, 5, ' ');
		ptd_putc('/', out);
		ptd_put_int_left(out, (int)s->tid, 5);
		ptd_putc(' ', out);
	} else if (PF(PID) || PF(TID)) {
		ptd_put_int(out, (int)(PF(PID) ? s->pid : s->tid), 5, ' ');
		ptd_putc(' ', out);
	}
	if (PF(CPU)) {
		ptd_putc('[', out);
		ptd_put_int(out, (int)s->cpu, 3, '0');
		ptd_puts("] ", out);
	}
	if (PF(MISC)) {
		int n = 0;
		unsigned m = s->misc;

		/* perf tests (misc & MODE) == MODE for each cpumode value */
		if ((m & PTD_MISC_KERNEL) == PTD_MISC_KERNEL)
			n += fprintf(out, "K");
		if ((m & PTD_MISC_USER) == PTD_MISC_USER)
			n += fprintf(out, "U");
		if ((m & PTD_MISC_HYPERVISOR) == PTD_MISC_HYPERVISOR)
			n += fprintf(out, "H");
		if ((m & PTD_MISC_GUEST_KERNEL) == PTD_MISC_GUEST_KERNEL)
			n += fprintf(out, "G");
		if ((m & PTD_MISC_GUEST_USER) == PTD_MISC_GUEST_USER)
			n += fprintf(out, "g");
		fprintf(out, "%*s", 6 - n, " ");
	}
	if (PF(TIME)) {
		uint64_t t = s->time;

		if (ps->reltime) {
			if (!ps->initial_time)
				ps->initial_time = s->time;
			t = s->time - ps->initial_time;
		} else if (ps->deltatime) {
			t = ps->previous_time ? s->time - ps->previous_time : 0;
			ps->previous_time = s->time;
		}
		if (ps->ns) {
			ptd_put_udec(out, t / 1000000000, 5, ' ');
			ptd_putc('.', out);
			ptd_put_udec(out, t % 1000000000, 9, '0');
			ptd_puts(": ", out);
		} else {
			/* "%12s" of "SECONDS.MICROSECONDS": 7 columns after the seconds */
			ptd_put_udec(out, t / 1000000000, 5, ' ');
			ptd_putc('.', out);
			ptd_put_udec(out, t % 1000000000 / 1000, 6, '0');
			ptd_puts(": ", out);
		}
	}
}

/* perf_sample__fprintf_callindent(): the name of the function entered
 * (call, trace begin) or left (return, trace end), indented by depth */
static void put_callindent(struct ptd_script *ps, const struct ptd_script_out *o, FILE *out,
			   const struct ptd_script_sample *s)
{
	size_t depth = s->call_depth;
	const char *name = NULL;
	uint64_t ip = 0;
	int len = 0;

	if ((s->flags & PTD_IPF_RETURN) && !s->no_tstack)
		depth += 1;
	if (s->flags & (PTD_IPF_CALL | PTD_IPF_TRACE_BEGIN)) {
		if (ptd_script_addr_correlates(s->evsel) && s->addr_loc.sym)
			name = s->addr_loc.sym;
		else
			ip = s->addr;
	} else if (s->flags & (PTD_IPF_RETURN | PTD_IPF_TRACE_END)) {
		if (s->ip_loc.sym)
			name = s->ip_loc.sym;
		else
			ip = s->ip;
	}
	if (PF(DSO) && !(PF(IP) || PF(ADDR))) {
		ptd_putc('(', out);
		put_dso(ps, out, s->ip_loc.dso);
		ptd_puts(")\t", out);
	}
	if (name)
		len = fprintf(out, "%*s%s", (int)depth * 4, "", name);
	else if (ip)
		len = fprintf(out, "%*s%16" PRIx64, (int)depth * 4, "", ip);
	if (len < 0)
		return;
	if (len > ps->spacing || (len && len < ps->spacing - 52))
		ps->spacing = (len + 4 + 31) / 32 * 32;
	if (len < ps->spacing)
		fprintf(out, "%*s", ps->spacing - len, "");
}

/* perf_sample__fprintf_insn(), and the disasm field of later perf
 * versions */
static void put_insn(const struct ptd_script *ps, const struct ptd_script_out *o, FILE *out,
		     const struct ptd_script_sample *s)
{
	unsigned i;

	if (PF(INSNLEN))
		fprintf(out, " ilen: %d", (int)s->insn_len);
	if (PF(INSN) && s->insn_len) {
		ptd_puts(" insn:", out);
		for (i = 0; i < s->insn_len; i++)
			fprintf(out, " %02x", s->insn[i]);
	}
	/* perf 6.10's disasm (capstone's text, else the bytes) */
	if (PF(DISASM) && s->insn_len) {
		ptd_puts("\t\t", out);
		if (s->disasm)
			ptd_puts(s->disasm, out);
		else
			for (i = 0; i < s->insn_len; i++)
				fprintf(out, i ? " %02x" : "%02x", s->insn[i]);
	}
	if ((PF(BRSTACKINSN) || PF(BRSTACKINSNLEN)) && ps->brstackinsn)
		ps->brstackinsn(ps->brstackinsn_ctx, out, s, o->fields);
}

/* perf_sample__fprintf_ipc() */
static void put_ipc(const struct ptd_script_out *o, FILE *out, const struct ptd_script_sample *s)
{
	unsigned ipc;

	if (!PF(IPC) || !s->cyc_cnt || !s->insn_cnt)
		return;
	ipc = (unsigned)(s->insn_cnt * 100 / s->cyc_cnt);
	fprintf(out, " \t IPC: %u.%02u (%" PRIu64 "/%" PRIu64 ") ", ipc / 100, ipc % 100,
		s->insn_cnt, s->cyc_cnt);
}

/* perf_sample__fprintf_bts(): branch events */
static void put_bts(struct ptd_script *ps, const struct ptd_script_out *o, FILE *out,
		    const struct ptd_script_sample *s)
{
	if (PF(CALLINDENT))
		put_callindent(ps, o, out, s);
	if (PF(IP)) {
		ptd_putc(ps->use_callchain && s->callchain ? '\n' : ' ', out);
		put_ip(ps, o, out, s, 0);
	}
	if (PF(ADDR) || ((s->evsel->sample_type & PTD_SAMPLE_ADDR) && !o->user_set)) {
		ptd_puts(" => ", out);
		put_addr(ps, o, out, s);
	}
	put_ipc(o, out, s);
	if (PF(IP) && PF(SRCLINE) && !(ps->use_callchain && s->callchain))
		put_srcline(ps, out, &s->ip_loc);
	put_insn(ps, o, out, s);
	ptd_putc('\n', out);
}

/* get_branch_type() (util/branch.c): no name for PERF_BR_UNKNOWN, the
 * PERF_BR_NEW_* name for PERF_BR_EXTEND_ABI (perf built for x86 names the
 * architecture specific ones ARCH_1..ARCH_5); past either table perf
 * passes NULL to "%s", which glibc prints as "(null)". */
const char *ptd_script_branch_type_str(const struct ptd_script_branch *b)
{
	static const char *const names[] = { "N/A", "COND", "UNCOND", "IND", "CALL",
		"IND_CALL", "RET", "SYSCALL", "SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ",
		"SERROR", "NO_TX", "" };
	static const char *const new_names[] = { "FAULT_ALGN", "FAULT_DATA", "FAULT_INST",
		"ARCH_1", "ARCH_2", "ARCH_3", "ARCH_4", "ARCH_5" };

	if (b->type == PTD_SCRIPT_BR_UNKNOWN)
		return "";
	if (b->type == PTD_SCRIPT_BR_EXTEND_ABI)
		return b->new_type < 8 ? new_names[b->new_type] : "(null)";
	return b->type < 16 ? names[b->type] : "(null)";
}

/* print_bstack_flags() with mispred_str(): "/P/X/A/12/COND " */
static void put_br_flags(FILE *out, const struct ptd_script_branch *b)
{
	char pred = !(b->mispred || b->predicted) ? '-' : b->predicted ? 'P' : 'M';

	fprintf(out, "/%c/%c/%c/%d/%s ", pred, b->in_tx ? 'X' : '-', b->abort ? 'A' : '-',
		(int)b->cycles, ptd_script_branch_type_str(b));
}

/* "(dso)" after a branch address or symbol */
static void put_br_dso(const struct ptd_script *ps, FILE *out, const char *dso)
{
	ptd_putc('(', out);
	put_dso(ps, out, dso);
	ptd_putc(')', out);
}

/* symbol__fprintf_symname_offs(): the offset always, no leading space */
static void put_br_sym(FILE *out, const struct ptd_script_loc *l)
{
	if (l->sym) {
		ptd_puts(l->sym, out);
		ptd_puts("+0x", out);
		ptd_put_hex(out, l->symoff, 0);
	} else
		ptd_puts("[unknown]", out);
}

/* perf_sample__fprintf_brstack(), _brstacksym(), _brstackoff(): one of
 * them, in that order of preference; nothing without entries */
static void put_brstack(const struct ptd_script *ps, const struct ptd_script_out *o, FILE *out,
			const struct ptd_script_sample *s)
{
	size_t i;

	if (!s->brstack || !s->brstack_nr || !(PF(BRSTACK) || PF(BRSTACKSYM) || PF(BRSTACKOFF)))
		return;
	for (i = 0; i < s->brstack_nr; i++) {
		const struct ptd_script_branch *b = &s->brstack[i];

		if (PF(BRSTACK) || !PF(BRSTACKSYM)) {
			int off = !PF(BRSTACK);

			fprintf(out, " 0x%" PRIx64, off ? b->from_off : b->from);
			if (PF(DSO))
				put_br_dso(ps, out, b->from_loc.dso);
			fprintf(out, "/0x%" PRIx64, off ? b->to_off : b->to);
			if (PF(DSO))
				put_br_dso(ps, out, b->to_loc.dso);
		} else {
			put_br_sym(out, &b->from_loc);
			if (PF(DSO))
				put_br_dso(ps, out, b->from_loc.dso);
			ptd_putc('/', out);
			put_br_sym(out, &b->to_loc);
			if (PF(DSO))
				put_br_dso(ps, out, b->to_loc.dso);
		}
		put_br_flags(out, b);
	}
}

/* Does ps->start hold what put_start would write for s? */
static int same_start(const struct ptd_script *ps, const struct ptd_script_out *o,
		      const struct ptd_script_sample *s)
{
	const struct ptd_script_start *c = &ps->start;

	return c->len && !ps->deltatime && c->time == s->time && c->tid == s->tid &&
	       c->comm == s->comm && c->evsel == s->evsel && c->fields == o->fields && c->pid == s->pid &&
	       c->cpu == s->cpu && c->misc == s->misc && c->machine_pid == s->machine_pid &&
	       c->vcpu == s->vcpu && c->ns == ps->ns && c->reltime == ps->reltime &&
	       c->use_callchain == ps->use_callchain;
}

/* put_start, or the bytes it wrote for the last line when it would write
 * them again: a queue's consecutive samples mostly share their thread,
 * CPU and time, and one copy costs a tenth of formatting the fields (the
 * bench's W3 in b mode: 62.7 M instructions of 439 M in put_start).  The
 * bytes are read back from the stream's buffer, where they were written
 * with room to spare (ptd_write_mark, ptd_written_since); not
 * with --deltatime, whose time is the one since the line before.  The
 * comm is compared by address (script.h). */
static void put_start_again(struct ptd_script *ps, const struct ptd_script_out *o, FILE *out,
			    const struct ptd_script_sample *s)
{
	struct ptd_script_start *c = &ps->start;
	const char *mark;

	if (same_start(ps, o, s)) {
		ptd_write(out, c->buf, c->len);
		return;
	}
	mark = ps->deltatime ? NULL : ptd_write_mark(out, sizeof(c->buf));
	put_start(ps, o, out, s);
	if (!mark || !(c->len = ptd_written_since(out, mark, c->buf, sizeof(c->buf))))
		return;
	c->fields = o->fields;
	c->evsel = s->evsel;
	c->comm = s->comm;
	c->pid = s->pid;
	c->tid = s->tid;
	c->cpu = s->cpu;
	c->machine_pid = s->machine_pid;
	c->vcpu = s->vcpu;
	c->misc = s->misc;
	c->time = s->time;
	c->ns = ps->ns;
	c->reltime = ps->reltime;
	c->use_callchain = ps->use_callchain;
}

/* process_event() */
int ptd_script_print(struct ptd_script *ps, FILE *out, const struct ptd_script_sample *s)
{
	const struct ptd_script_out *o = &ps->out[ptd_script_output_type(s->evsel->type)];

	if (!o->fields)
		return 0;
	put_start_again(ps, o, out, s);
	if (PF(PERIOD)) {
		ptd_put_udec(out, s->period, 10, ' ');
		ptd_putc(' ', out);
	}
	if (PF(EVNAME)) {
		ptd_put_str(out, s->evsel->name ? s->evsel->name : "[unknown]", ps->name_width);
		ptd_puts(": ", out);
	}
	if (ps->print_flags) {
		char buf[64];

		ptd_puts("  ", out);
		ptd_put_str(out, ptd_script_flags_str(s->flags, buf, sizeof(buf)), -21);
		ptd_putc(' ', out);
	}
	if (is_bts(s->evsel)) {
		put_bts(ps, o, out, s);
		return ferror(out) ? -PTD_E_IO : 0;
	}
	if (s->evsel->type == PTD_SCRIPT_TYPE_SYNTH && PF(SYNTH))
		ptd_script_put_synth(out, s);
	if (PF(ADDR))
		put_addr(ps, o, out, s);
	if (PF(WEIGHT))
		fprintf(out, "%16" PRIu64, s->weight);
	if (PF(INS_LAT))
		fprintf(out, "%16" PRIu16, s->ins_lat);
	if (PF(IP)) {
		ptd_putc(ps->use_callchain && s->callchain ? '\n' : ' ', out);
		put_ip(ps, o, out, s, 1);
	}
	put_brstack(ps, o, out, s);
	put_insn(ps, o, out, s);
	if (PF(PHYS_ADDR))
		fprintf(out, "%16" PRIx64, s->phys_addr);
	put_ipc(o, out, s);
	ptd_putc('\n', out);
	return ferror(out) ? -PTD_E_IO : 0;
}
#undef PF

/* ---- AUX area errors ------------------------------------------------------ */

static const char *auxerr_name(uint32_t type)
{
	return type == 1 ? "instruction trace" : "unknown AUX";
}

/* perf_event__fprintf_auxtrace_error() */
int ptd_script_print_auxerr(FILE *out, const struct ptd_script_auxerr *e)
{
	fprintf(out, " %s error type %u", auxerr_name(e->type), e->type);
	if (e->fmt && e->time)
		fprintf(out, " time %" PRIu64 ".%09" PRIu64, e->time / 1000000000,
			e->time % 1000000000);
	else
		ptd_puts(" time 0", out);
	if (e->fmt >= 2 && e->machine_pid)
		fprintf(out, " machine_pid %d vcpu %d", (int)e->machine_pid, (int)e->vcpu);
	fprintf(out, " cpu %d pid %d tid %d ip %#" PRIx64 " code %u: %.63s\n", (int)e->cpu,
		(int)e->pid, (int)e->tid, e->ip, e->code, e->msg ? e->msg : "");
	return ferror(out) ? -PTD_E_IO : 0;
}

/* events_stats__auxtrace_error_warn() through ui__warning() */
void ptd_script_auxerr_warn(FILE *err, const unsigned *nr, size_t ntypes)
{
	size_t i;

	if (!err)
		err = stderr;
	for (i = 0; i < ntypes && i < 2; i++)
		if (nr[i])
			fprintf(err, "Warning:\n%u %s errors\n", nr[i], auxerr_name((uint32_t)i));
}
