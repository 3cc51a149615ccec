/* --format=json: see json.h and doc/formats.md. */
#include "formats/out/json.h"

#include <inttypes.h>
#include <string.h>

/* A JSON string: quotes, backslash and control characters escaped; bytes
 * outside ASCII written as \u00XX (perf's names are bytes, not UTF-8). */
static void str(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

void ptd_json_str(FILE *out, const char *s)
{
	str(out, s);
}

static void key_str(FILE *out, const char *key, const char *val)
{
	fprintf(out, ",\"%s\":", key);
	if (val)
		str(out, val);
	else
		fputs("null", out);
}

/* ,"ip":"0x...","ip_sym":...: without the comma when first */
static void loc_(FILE *out, int first, const char *prefix, uint64_t addr,
		 const struct ptd_script_loc *l)
{
	char k[32];

	fprintf(out, "%s\"%s\":\"0x%" PRIx64 "\"", first ? "" : ",", prefix, addr);
	snprintf(k, sizeof(k), "%s_sym", prefix);
	key_str(out, k, l->sym);
	if (l->sym)
		fprintf(out, ",\"%s_symoff\":%" PRIu64, prefix, l->symoff);
	snprintf(k, sizeof(k), "%s_dso", prefix);
	key_str(out, k, l->dso);
	if (l->srcline) {
		snprintf(k, sizeof(k), "%s_srcline", prefix);
		key_str(out, k, l->srcline);
	}
}

static void loc(FILE *out, const char *prefix, uint64_t addr, const struct ptd_script_loc *l)
{
	loc_(out, 0, prefix, addr, l);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int ptd_json_print_sample(FILE *out, const char *type, const struct ptd_script_sample *s,
			  const uint64_t *chain, const struct ptd_script_loc *chain_loc, size_t n)
{
	char flags[64];
	size_t len;
	unsigned i;

	fprintf(out, "{\"type\":\"%s\",\"time\":%" PRIu64 ",\"cpu\":%" PRId32 ",\"pid\":%" PRId32
		",\"tid\":%" PRId32, type, s->time, s->cpu, s->pid, s->tid);
	key_str(out, "comm", s->comm);
	key_str(out, "event", s->evsel ? s->evsel->name : NULL);
	ptd_script_flags_str(s->flags, flags, sizeof(flags));
	for (len = strlen(flags); len && flags[len - 1] == ' '; len--)
		flags[len - 1] = 0;   /* perf's words without its column padding */
	key_str(out, "flags", flags);
	loc(out, "ip", s->ip, &s->ip_loc);
	if (!strcmp(type, "branch"))
		loc(out, "addr", s->addr, &s->addr_loc);
	if (!strcmp(type, "instruction") || !strcmp(type, "branch"))
		fprintf(out, ",\"period\":%" PRIu64, s->period);
	if (s->insn_len) {
		fprintf(out, ",\"insn\":\"");
		for (i = 0; i < s->insn_len && i < 16; i++)
			fprintf(out, "%02x", s->insn[i]);
		fputc('"', out);
	}
	if (s->cyc_cnt && s->insn_cnt)
		fprintf(out, ",\"insn_cnt\":%" PRIu64 ",\"cyc_cnt\":%" PRIu64, s->insn_cnt, s->cyc_cnt);
	if (!strcmp(type, "psb") && s->raw && s->raw_size >= 12)
		fprintf(out, ",\"offset\":%" PRIu64, (uint64_t)le32(s->raw + 4) | (uint64_t)le32(s->raw + 8) << 32);
	if (!strcmp(type, "cbr") && s->raw && s->raw_size >= 8)
		fprintf(out, ",\"cbr\":%u,\"freq_mhz\":%u", le32(s->raw) & 0xff, le32(s->raw + 4) / 1000);
	if (s->brstack && s->brstack_nr) {
		fputs(",\"brstack\":[", out);
		for (len = 0; len < s->brstack_nr; len++) {
			const struct ptd_script_branch *b = &s->brstack[len];

			fputs(len ? ",{" : "{", out);
			loc_(out, 1, "from", b->from, &b->from_loc);
			loc(out, "to", b->to, &b->to_loc);
			fprintf(out, ",\"mispred\":%s,\"predicted\":%s,\"in_tx\":%s,\"abort\":%s"
				",\"cycles\":%u", b->mispred ? "true" : "false",
				b->predicted ? "true" : "false", b->in_tx ? "true" : "false",
				b->abort ? "true" : "false", (unsigned)b->cycles);
			if (b->type != PTD_SCRIPT_BR_UNKNOWN)
				key_str(out, "type", ptd_script_branch_type_str(b));
			fputc('}', out);
		}
		fputc(']', out);
	}
	if (n) {
		fputs(",\"callchain\":[", out);
		for (i = 0; i < n; i++) {
			fprintf(out, "%s{\"ip\":\"0x%" PRIx64 "\"", i ? "," : "", chain[i]);
			key_str(out, "sym", chain_loc[i].sym);
			if (chain_loc[i].sym)
				fprintf(out, ",\"symoff\":%" PRIu64, chain_loc[i].symoff);
			key_str(out, "dso", chain_loc[i].dso);
			fputc('}', out);
		}
		fputc(']', out);
	}
	fputs("}\n", out);
	return ferror(out) ? -1 : 0;
}

int ptd_json_print_error(FILE *out, const struct ptd_script_auxerr *e)
{
	fprintf(out, "{\"type\":\"error\",\"time\":%" PRIu64 ",\"cpu\":%" PRId32 ",\"pid\":%" PRId32
		",\"tid\":%" PRId32 ",\"ip\":\"0x%" PRIx64 "\",\"code\":%u", e->time, e->cpu, e->pid, e->tid,
		e->ip, e->code);
	key_str(out, "message", e->msg);
	fputs("}\n", out);
	return ferror(out) ? -1 : 0;
}
