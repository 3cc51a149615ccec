/* --format=ranges: see ranges.h. */
#include "config.h"

#include <inttypes.h>

#include "formats/out/ranges.h"

static const char *isa_name(uint8_t isa)
{
	static const char *const names[] = { "unknown", "A32", "T32", "A64", "TEE", "Jazelle", "custom" };

	return isa < sizeof(names) / sizeof(names[0]) ? names[isa] : "unknown";
}

static const char *class_name(const struct ptd_trace_sample *s)
{
	int ind = !!(s->flags & PTD_SF_INDIRECT);

	switch (s->iclass) {
	case PTD_INSN_CALL: return ind ? "iBR call" : "BR call";
	case PTD_INSN_RETURN: return "iBR return";
	case PTD_INSN_FAR_RETURN: return "iBR eret";
	case PTD_INSN_JUMP: return ind ? "iBR" : "BR";
	case PTD_INSN_COND_JUMP: return "BR cond";
	default: return "---";
	}
}

int ptd_ranges_print(FILE *out, const struct ptd_trace_sample *s)
{
	int n = 0;

	if (s->kind != PTD_TS_RANGE && s->kind != PTD_TS_EVENT && s->kind != PTD_TS_GAP &&
	    s->kind != PTD_TS_DIAG)
		return 0;
	fprintf(out, "ID:%x cpu:%" PRId32 " ", s->chan, s->cpu);
	switch (s->kind) {
	case PTD_TS_RANGE:
		fprintf(out, "range 0x%" PRIx64 "-0x%" PRIx64 " n=%" PRIu64 " last_sz=%u isa=%s %c %s",
			s->ip, s->to_ip + s->size, s->insn_count, s->size, isa_name(s->u.range.isa),
			(s->flags & PTD_SF_NOT_TAKEN) ? 'N' : 'E', class_name(s));
		break;
	case PTD_TS_EVENT:
		switch (s->event) {
		case PTD_EV_ENABLED: fputs("trace on", out); break;
		case PTD_EV_OVERFLOW: fputs("trace on after overflow", out); break;
		case PTD_EV_END_OF_TRACE: fputs("end of trace", out); break;
		case PTD_EV_EXCEPTION_RET: fputs("exception return", out); break;
		case PTD_EV_CONTEXT: fprintf(out, "context tid %" PRIu32, s->u.context.tid); break;
		case PTD_EV_TICK: fputs("timestamp", out); break;
		case PTD_EV_EXCEPTION:
			fprintf(out, "exception 0x%02x", s->u.exception.number);
			if (!(s->flags & PTD_SF_IP_SUPPRESSED))
				fprintf(out, " ret 0x%" PRIx64, s->ip);
			break;
		default: fprintf(out, "event %u", s->event); break;
		}
		break;
	case PTD_TS_GAP:
		fprintf(out, "error: %s", s->err.msg);
		break;
	case PTD_TS_DIAG:
		if (s->insn_count)
			fprintf(out, "range 0x%" PRIx64 "-0x%" PRIx64 " n=%" PRIu64 " path unknown",
				s->ip, s->to_ip, s->insn_count);
		else
			fprintf(out, "no memory at 0x%" PRIx64, s->ip);
		break;
	default:
		n = -2;
		break;
	}
	if (n == -2)
		return 0;
	if (s->flags & PTD_SF_TIME)
		fprintf(out, " ts=%" PRIu64, s->tsc);
	fputc('\n', out);
	return ferror(out) ? -1 : 0;
}
