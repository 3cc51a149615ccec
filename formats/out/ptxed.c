/* --format=ptxed: the printing rules of libipt's ptxed (--no-inst). */
#include "formats/out/ptxed.h"

#include <inttypes.h>
#include <string.h>

void ptd_ptxed_init(struct ptd_ptxed *w, FILE *out, const struct ptd_ptxed_opts *opts)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
	if (opts)
		w->opts = *opts;
}

static const char *mode_name(int mode)
{
	switch (mode) {
	case PTD_MODE_16:
		return "16-bit";
	case PTD_MODE_32:
		return "32-bit";
	case PTD_MODE_64:
		return "64-bit";
	default:
		return "<unknown>";
	}
}

/* ", ip: X" when asked for and known */
static void ip_if(struct ptd_ptxed *w, const struct ptd_trace_sample *s, uint64_t ip)
{
	if (w->opts.event_ip && !(s->flags & PTD_SF_IP_SUPPRESSED))
		fprintf(w->out, ", ip: %016" PRIx64, ip);
}

static void event_body(struct ptd_ptxed *w, const struct ptd_trace_sample *s)
{
	FILE *o = w->out;

	switch (s->event) {
	case PTD_EV_ENABLED:
	case PTD_EV_RESUMED:
		fputs(s->event == PTD_EV_RESUMED ? "resumed" : "enabled", o);
		if (w->opts.event_ip)
			fprintf(o, ", ip: %016" PRIx64, s->ip);
		break;
	case PTD_EV_DISABLED:
		fputs("disabled", o);
		ip_if(w, s, s->ip);
		break;
	case PTD_EV_ASYNC_DISABLED:
		fputs("disabled", o);
		if (w->opts.event_ip) {
			fprintf(o, ", at: %016" PRIx64, s->ip);
			ip_if(w, s, s->to_ip);
		}
		break;
	case PTD_EV_INTERRUPT:
		fputs("interrupt", o);
		if (w->opts.event_ip) {
			fprintf(o, ", from: %016" PRIx64, s->ip);
			if (!(s->flags & PTD_SF_IP_SUPPRESSED))
				fprintf(o, ", to: %016" PRIx64, s->to_ip);
		}
		break;
	case PTD_EV_PAGING:
	case PTD_EV_ASYNC_PAGING:
		fprintf(o, "paging, cr3: %016" PRIx64 "%s", s->u.paging.cr3, s->u.paging.non_root ? ", nr" : "");
		if (s->event == PTD_EV_ASYNC_PAGING && w->opts.event_ip)
			fprintf(o, ", ip: %016" PRIx64, s->ip);
		break;
	case PTD_EV_OVERFLOW:
		fputs("overflow", o);
		ip_if(w, s, s->ip);
		break;
	case PTD_EV_EXEC_MODE:
		fprintf(o, "exec mode: %s", mode_name(s->u.exec_mode.mode));
		ip_if(w, s, s->ip);
		break;
	case PTD_EV_TSX:
		fputs(s->u.tsx.aborted ? "aborted" : s->u.tsx.speculative ? "begin transaction" : "committed", o);
		ip_if(w, s, s->ip);
		break;
	case PTD_EV_STOP:
		fputs("stopped", o);
		break;
	case PTD_EV_VMCS:
	case PTD_EV_ASYNC_VMCS:
		fprintf(o, "vmcs, base: %016" PRIx64, s->u.vmcs.base);
		if (s->event == PTD_EV_ASYNC_VMCS && w->opts.event_ip)
			fprintf(o, ", ip: %016" PRIx64, s->ip);
		break;
	case PTD_EV_EXSTOP:
		fputs("exstop", o);
		ip_if(w, s, s->ip);
		break;
	case PTD_EV_MWAIT:
		fprintf(o, "mwait %" PRIx32 " %" PRIx32, s->u.mwait.hints, s->u.mwait.ext);
		ip_if(w, s, s->ip);
		break;
	case PTD_EV_PWRE:
		fprintf(o, "pwre c%u.%u%s", (s->u.pwre.state + 1u) & 0xf, (s->u.pwre.sub_state + 1u) & 0xf,
			s->u.pwre.hw ? " hw" : "");
		break;
	case PTD_EV_PWRX:
		fprintf(o, "pwrx %s%s%sc%u (c%u)", s->u.pwrx.interrupt ? "int: " : "",
			s->u.pwrx.store ? "st: " : "", s->u.pwrx.autonomous ? "hw: " : "",
			(s->u.pwrx.last + 1u) & 0xf, (s->u.pwrx.deepest + 1u) & 0xf);
		break;
	case PTD_EV_PTWRITE:
		fprintf(o, "ptwrite: %" PRIx64, s->u.ptwrite.payload);
		ip_if(w, s, s->ip);
		break;
	case PTD_EV_TICK:
		fputs("tick", o);
		ip_if(w, s, s->ip);
		break;
	case PTD_EV_CBR:
		fprintf(o, "cbr: %x", (unsigned)s->u.cbr.ratio);
		break;
	case PTD_EV_MNT:
		fprintf(o, "mnt: %" PRIx64, s->u.mnt.payload);
		break;
	default:
		fprintf(o, "event %u", (unsigned)s->event);
		break;
	}
}

static void print_error(struct ptd_ptxed *w, const struct ptd_trace_sample *s, const char *what)
{
	if (s->flags & PTD_SF_NO_OFFSET)
		fprintf(w->out, "[?, %" PRIx64 ": %s: %s]\n", s->ip, what, s->err.msg);
	else
		fprintf(w->out, "[%" PRIx64 ", %" PRIx64 ": %s: %s]\n", s->offset, s->ip, what, s->err.msg);
}

void ptd_ptxed_sample(struct ptd_ptxed *w, const struct ptd_trace_sample *s)
{
	switch (s->kind) {
	case PTD_TS_INSN:
		w->ninsn++;
		if (!w->opts.quiet)
			fprintf(w->out, "%s%016" PRIx64 "\n", (s->flags & PTD_SF_SPECULATIVE) ? "? " : "", s->ip);
		break;
	case PTD_TS_EVENT:
		if (w->opts.quiet || (s->flags & PTD_SF_STATUS_UPDATE))
			break;
		if (s->event == PTD_EV_END_OF_TRACE) {
			if (!(s->flags & PTD_SF_IP_SUPPRESSED))
				fputs("[end of trace]\n", w->out);
			break;
		}
		fputc('[', w->out);
		if (w->opts.event_time && (s->flags & PTD_SF_TIME))
			fprintf(w->out, "%016" PRIx64 "  ", s->tsc);
		event_body(w, s);
		fputs("]\n", w->out);
		break;
	case PTD_TS_GAP:
		print_error(w, s, s->gap_kind == PTD_GAPK_SYNC ? "sync error" : "error");
		break;
	case PTD_TS_DIAG:
		print_error(w, s, "config error");
		break;
	default:
		break;
	}
}

int ptd_ptxed_finish(struct ptd_ptxed *w)
{
	if (w->opts.stat_insn)
		fprintf(w->out, "insn: %" PRIu64 ".\n", w->ninsn);
	if (fflush(w->out) || ferror(w->out))
		return -PTD_E_IO;
	return 0;
}
