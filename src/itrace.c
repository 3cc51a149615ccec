/* perf's --itrace options (itrace.h): the grammar of perf 6.1, written from
 * its documented and observed behaviour. */
#include "itrace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ptd_itrace_init(struct ptd_itrace *o)
{
	memset(o, 0, sizeof(*o));
	o->default_no_sample = 1;
}

void ptd_itrace_unset(struct ptd_itrace *o)
{
	o->set = 1;
	o->dont_decode = 1;
}

void ptd_itrace_set_default(struct ptd_itrace *o, int no_sample)
{
	o->branches = 1;
	o->transactions = 1;
	o->ptwrites = 1;
	o->pwr_events = 1;
	o->other_events = 1;
	o->intr_events = 1;
	o->errors = 1;
	o->flc = 1;
	o->llc = 1;
	o->tlb = 1;
	o->mem = 1;
	o->remote_access = 1;
	if (no_sample) {
		o->period_type = PTD_ITRACE_PERIOD_INSTRUCTIONS;
		o->period = 1;
		o->calls = 1;
	} else {
		o->instructions = 1;
		o->period_type = PTD_ITRACE_DEFAULT_PERIOD_TYPE;
		o->period = PTD_ITRACE_DEFAULT_PERIOD;
	}
	o->callchain_sz = PTD_ITRACE_DEFAULT_CALLCHAIN_SZ;
	o->last_branch_sz = PTD_ITRACE_DEFAULT_LAST_BRANCH_SZ;
	o->initial_skip = 0;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static const char *skip_sep(const char *p)
{
	while (*p == ' ' || *p == ',')
		p++;
	return p;
}

/* "+X" / "-X" flags after e or d.  Returns 0, or -1 for a sign without a
 * lowercase letter. */
static int parse_flags(const char **pp, unsigned int *plus, unsigned int *minus)
{
	const char *p = *pp;
	unsigned int *mask;

	for (;;) {
		if (*p == ' ') {
			p++;
			continue;
		}
		if (*p != '+' && *p != '-')
			break;
		mask = *p++ == '+' ? plus : minus;
		while (*p == ' ')
			p++;
		if (*p < 'a' || *p > 'z')
			return -1;
		*mask |= PTD_ITRACE_FLAG(*p);
		p++;
	}
	*pp = p;
	return 0;
}

/* The optional period after 'i' (p after any separators, at a digit).
 * Returns the rest of the string, NULL when it ends the string, or
 * (const char *)-1 for a bad unit. */
static const char *parse_period(struct ptd_itrace *o, const char *p, int *type_set)
{
	char *end;
	uint64_t mult = 1;

	o->period = strtoull(p, &end, 10);
	p = skip_sep(end);
	switch (*p) {
	case '\0':
		return NULL;
	case 'i':
		o->period_type = PTD_ITRACE_PERIOD_INSTRUCTIONS;
		*type_set = 1;
		return p + 1;
	case 't':
		o->period_type = PTD_ITRACE_PERIOD_TICKS;
		*type_set = 1;
		return p + 1;
	case 'm':
		mult = 1000000;
		break;
	case 'u':
		mult = 1000;
		break;
	case 'n':
		break;
	default:
		return (const char *)-1;
	}
	/* perf scales before checking the 's' (no matter: it fails then) */
	o->period *= mult;
	if (p[1] != 's')
		return (const char *)-1;
	o->period_type = PTD_ITRACE_PERIOD_NANOSECS;
	*type_set = 1;
	return p + 2;
}

/* g / G / l / L: an optional size 1..max after any separators.  Returns the
 * rest of the string, or NULL for a bad size. */
static const char *parse_size(const char *p, unsigned int *sz, unsigned int dflt, unsigned int max)
{
	unsigned int val;
	char *end;

	*sz = dflt;
	p = skip_sep(p);
	if (!is_digit(*p))
		return p;
	/* strtoul's value cut to 32 bits, as perf stores it */
	val = (unsigned int)strtoul(p, &end, 10);
	if (!val || val > max)
		return NULL;
	*sz = val;
	return end;
}

int ptd_itrace_parse(struct ptd_itrace *o, const char *str, struct ptd_err *err)
{
	const char *p, *q;
	char *end;
	int period_set = 0, type_set = 0;

	o->set = 1;
	if (!str) {
		ptd_itrace_set_default(o, o->default_no_sample);
		return 0;
	}
	for (p = str; *p;) {
		char c = *p++;

		switch (c) {
		case 'i':
			o->instructions = 1;
			p = skip_sep(p);
			if (!is_digit(*p))
				break;
			period_set = 1;
			q = parse_period(o, p, &type_set);
			if (q == (const char *)-1)
				goto bad;
			if (!q)
				goto out;
			p = q;
			break;
		case 'b':
			o->branches = 1;
			break;
		case 'x':
			o->transactions = 1;
			break;
		case 'w':
			o->ptwrites = 1;
			break;
		case 'p':
			o->pwr_events = 1;
			break;
		case 'o':
			o->other_events = 1;
			break;
		case 'I':
			o->intr_events = 1;
			break;
		case 'e':
			o->errors = 1;
			if (parse_flags(&p, &o->error_plus_flags, &o->error_minus_flags))
				goto bad;
			break;
		case 'd':
			o->log = 1;
			if (parse_flags(&p, &o->log_plus_flags, &o->log_minus_flags))
				goto bad;
			if (o->log_plus_flags & PTD_ITRACE_LOG_ON_ERROR)
				o->log_on_error_size = o->debug_log_buffer_size ?
					o->debug_log_buffer_size : PTD_ITRACE_DEFAULT_LOG_ON_ERROR_SZ;
			break;
		case 'c':
			o->branches = 1;
			o->calls = 1;
			break;
		case 'r':
			o->branches = 1;
			o->returns = 1;
			break;
		case 'g':
		case 'G':
			if (c == 'G')
				o->add_callchain = 1;
			else
				o->callchain = 1;
			p = parse_size(p, &o->callchain_sz, PTD_ITRACE_DEFAULT_CALLCHAIN_SZ,
				       PTD_ITRACE_MAX_CALLCHAIN_SZ);
			if (!p)
				goto bad;
			break;
		case 'l':
		case 'L':
			if (c == 'L')
				o->add_last_branch = 1;
			else
				o->last_branch = 1;
			p = parse_size(p, &o->last_branch_sz, PTD_ITRACE_DEFAULT_LAST_BRANCH_SZ,
				       PTD_ITRACE_MAX_LAST_BRANCH_SZ);
			if (!p)
				goto bad;
			break;
		case 's':
			/* strtoul's own syntax: white space, a sign */
			o->initial_skip = strtoul(p, &end, 10);
			if (end == p)
				goto bad;
			p = end;
			break;
		case 'f':
			o->flc = 1;
			break;
		case 'm':
			o->llc = 1;
			break;
		case 't':
			o->tlb = 1;
			break;
		case 'a':
			o->remote_access = 1;
			break;
		case 'M':
			o->mem = 1;
			break;
		case 'q':
			o->quick++;
			break;
		case 'A':
			o->approx_ipc = 1;
			break;
		case 'Z':
			o->timeless_decoding = 1;
			break;
		case ' ':
		case ',':
			break;
		default:
			goto bad;
		}
	}
out:
	if (o->instructions) {
		if (!type_set)
			o->period_type = PTD_ITRACE_DEFAULT_PERIOD_TYPE;
		if (!period_set)
			o->period = PTD_ITRACE_DEFAULT_PERIOD;
	}
	return 0;
bad:
	return ptd_err_set(err, PTD_E_INVAL, "Bad Instruction Tracing options '%s'", str);
}

void ptd_itrace_resolve(const struct ptd_itrace *cmdline, struct ptd_itrace *out)
{
	if (cmdline->set) {
		*out = *cmdline;
		return;
	}
	memset(out, 0, sizeof(*out));
	ptd_itrace_set_default(out, cmdline->default_no_sample);
	if (!cmdline->default_no_sample && !cmdline->inject) {
		out->branches = 0;
		out->callchain = 1;
		out->add_callchain = 1;
	}
	out->thread_stack = cmdline->thread_stack;
	/* perf filters CPUs and times with the session's copy, not this one */
	out->cpu_bitmap = cmdline->cpu_bitmap;
	out->ranges = cmdline->ranges;
	out->nranges = cmdline->nranges;
}

void ptd_itrace_default(struct ptd_itrace *o)
{
	struct ptd_itrace cmdline;

	ptd_itrace_init(&cmdline);
	ptd_itrace_resolve(&cmdline, o);
}

int ptd_itrace_shortcut(struct ptd_itrace *o, enum ptd_itrace_shortcut which, const char *arg,
			struct ptd_itrace_shortcut_fx *fx, struct ptd_err *err)
{
	struct ptd_itrace_shortcut_fx f = { NULL, NULL, 1, 0 };

	switch (which) {
	case PTD_ITRACE_INSN_TRACE:
		if (arg && !strcmp(arg, "disasm"))
			return ptd_err_set(err, PTD_E_UNSUPPORTED, "Invalid field requested.");
		if (arg && *arg && strcmp(arg, "raw"))
			return ptd_err_set(err, PTD_E_INVAL, "Only accept raw|disasm");
		f.itrace = "i0nse";
		f.fields = "+insn,-event,-period";
		break;
	case PTD_ITRACE_CALL_TRACE:
		f.itrace = "cewp";
		f.fields = "-ip,-addr,-event,-period,+callindent";
		f.pad_output_len_dso = 50;
		break;
	case PTD_ITRACE_CALL_RET_TRACE:
		f.itrace = "crewp";
		f.fields = "-ip,-addr,-event,-period,+callindent,+flags";
		break;
	default:
		return ptd_err_set(err, PTD_E_INVAL, "unknown itrace shortcut %d", (int)which);
	}
	if (fx)
		*fx = f;
	return ptd_itrace_parse(o, f.itrace, err);
}

/* "+abc-de" for a pair of masks */
static void flags_str(char *s, unsigned int plus, unsigned int minus)
{
	int i;

	*s++ = '+';
	for (i = 0; i < 26; i++)
		if (plus & (1u << i))
			*s++ = (char)('a' + i);
	*s++ = '-';
	for (i = 0; i < 26; i++)
		if (minus & (1u << i))
			*s++ = (char)('a' + i);
	*s = '\0';
}

int ptd_itrace_format(const struct ptd_itrace *o, char *buf, size_t size)
{
	static const char *const unit[] = { "i", "t", "ns" };
	const struct { char c; int on; } letters[] = {
		{ 'i', o->instructions }, { 'b', o->branches }, { 'c', o->calls },
		{ 'r', o->returns }, { 'x', o->transactions }, { 'w', o->ptwrites },
		{ 'p', o->pwr_events }, { 'o', o->other_events }, { 'I', o->intr_events },
		{ 'e', o->errors }, { 'd', o->log }, { 'f', o->flc }, { 'm', o->llc },
		{ 't', o->tlb }, { 'a', o->remote_access }, { 'M', o->mem },
		{ 'g', o->callchain }, { 'G', o->add_callchain }, { 'l', o->last_branch },
		{ 'L', o->add_last_branch }, { 'A', o->approx_ipc }, { 'Z', o->timeless_decoding },
	};
	char s[512], fl[64];
	size_t i, n = 0;

	for (i = 0; i < sizeof(letters) / sizeof(letters[0]); i++)
		if (letters[i].on)
			s[n++] = letters[i].c;
	if (!n)
		s[n++] = '-';
	s[n] = '\0';
#define ADD(...) do { \
	if (n < sizeof(s)) \
		n += (size_t)snprintf(s + n, sizeof(s) - n, __VA_ARGS__); \
} while (0)
	if (o->set)
		ADD(" set");
	if (o->default_no_sample)
		ADD(" no_sample");
	if (o->inject)
		ADD(" inject");
	if (o->dont_decode)
		ADD(" dont_decode");
	if (o->thread_stack)
		ADD(" thread_stack");
	if (o->vm_time_correlation)
		ADD(" vmtc");
	if (o->vm_tm_corr_dry_run)
		ADD(" vmtc_dry");
	if (o->period_type >= 0 && o->period_type <= PTD_ITRACE_PERIOD_NANOSECS)
		ADD(" period=%llu%s", (unsigned long long)o->period, unit[o->period_type]);
	else
		ADD(" period=%llu?%d", (unsigned long long)o->period, o->period_type);
	ADD(" g=%u l=%u s=%llu q=%u", o->callchain_sz, o->last_branch_sz,
	    (unsigned long long)o->initial_skip, o->quick);
	if (o->error_plus_flags || o->error_minus_flags) {
		flags_str(fl, o->error_plus_flags, o->error_minus_flags);
		ADD(" e=%s", fl);
	}
	if (o->log_plus_flags || o->log_minus_flags) {
		flags_str(fl, o->log_plus_flags, o->log_minus_flags);
		ADD(" d=%s", fl);
	}
	if (o->log_on_error_size)
		ADD(" logsz=%u", o->log_on_error_size);
	if (o->cpu_bitmap)
		ADD(" cpus");
	if (o->nranges)
		ADD(" ranges=%d", o->nranges);
#undef ADD
	return snprintf(buf, size, "%s", s);
}
