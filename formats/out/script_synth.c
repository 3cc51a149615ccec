/* The text of synthesized events (ptwrite, power, cbr, psb, evt, iflag)
 * from their raw payloads, as perf's perf_sample__fprintf_synth_*() print
 * it (script_priv.h). */
#include "formats/out/script_priv.h"

#include <ctype.h>
#include <inttypes.h>
#include <string.h>

/* little-endian fields of the raw payload (perf's struct offset less 4) */
static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p)
{
	return rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

/* perf_sample__fprintf_synth_*(): the text, padded to 34 columns */
void ptd_script_put_synth(FILE *out, const struct ptd_script_sample *s)
{
	static const char *const cfe[32] = { NULL, "INTR", "IRET", "SMI", "RSM", "SIPI",
		"INIT", "VMENTRY", "VMEXIT", "VMEXIT_INTR", "SHUTDOWN" };
	static const char *const evd[64] = { "PFA", "VMXQ", "VMXR" };
	static const uint32_t need[] = { 12, 12, 12, 4, 12, 12, 12, 4, 12 };
	const uint8_t *r = s->raw;
	uint64_t cfg = s->evsel->config, v;
	uint32_t w, i;
	char str[9] = "";
	int len = 0;

	if (cfg >= sizeof(need) / sizeof(need[0]) || !r || s->raw_size < need[cfg])
		return;
	w = rd32(r);
	switch (cfg) {
	case PTD_SCRIPT_SYNTH_PTWRITE:
		v = rd64(r + 4);
		for (i = 0; i < 8 && r[4 + i]; i++)
			if (!isprint(r[4 + i]) || !isascii(r[4 + i]))
				break;
		if (i == 8 || !r[4 + i]) {
			uint32_t j = i;

			while (j < 8 && !r[4 + j])
				j++;
			if (j == 8)
				memcpy(str, r + 4, 8);
		}
		len = fprintf(out, " IP: %u payload: %#" PRIx64 " %s ", w & 1, v, str);
		break;
	case PTD_SCRIPT_SYNTH_MWAIT:
		v = rd64(r + 4);
		len = fprintf(out, " hints: %#x extensions: %#x ", (unsigned)(v & 0xff),
			      (unsigned)(v >> 32 & 3));
		break;
	case PTD_SCRIPT_SYNTH_PWRE:
		v = rd64(r + 4);
		len = fprintf(out, " hw: %u cstate: %u sub-cstate: %u ", (unsigned)(v >> 7 & 1),
			      (unsigned)(v >> 12 & 15), (unsigned)(v >> 8 & 15));
		break;
	case PTD_SCRIPT_SYNTH_EXSTOP:
		len = fprintf(out, " IP: %u ", w & 1);
		break;
	case PTD_SCRIPT_SYNTH_PWRX:
		v = rd64(r + 4);
		len = fprintf(out, " deepest cstate: %u last cstate: %u wake reason: %#x ",
			      (unsigned)(v & 15), (unsigned)(v >> 4 & 15), (unsigned)(v >> 8 & 15));
		break;
	case PTD_SCRIPT_SYNTH_CBR: {
		unsigned cbr = w & 0xff, max = w >> 16 & 0xff;

		len = fprintf(out, " cbr: %2u freq: %4u MHz ", cbr, (rd32(r + 4) + 500) / 1000);
		if (max)
			len += fprintf(out, "(%3u%%) ", (5 + (1000 * cbr) / max) / 10);
		break;
	}
	case PTD_SCRIPT_SYNTH_PSB:
		len = fprintf(out, " psb offs: %#" PRIx64, rd64(r + 4));
		break;
	case PTD_SCRIPT_SYNTH_EVT:
		if (cfe[w & 31])
			len = fprintf(out, " cfe: %s IP: %d vector: %u", cfe[w & 31],
				      (int)(w >> 7 & 1), w >> 8 & 0xff);
		else
			len = fprintf(out, " cfe: %u IP: %d vector: %u", w & 31,
				      (int)(w >> 7 & 1), w >> 8 & 0xff);
		/* perf reads evd_cnt entries whatever the size; stop at the end here */
		for (i = 0; i < (w >> 16) && 4 + 16 * (i + 1) <= s->raw_size; i++) {
			unsigned et = r[4 + 16 * i] & 0x3f;

			v = rd64(r + 4 + 16 * i + 8);
			if (evd[et])
				len += fprintf(out, " %s: %#" PRIx64, evd[et], v);
			else
				len += fprintf(out, " EVD_%u: %#" PRIx64, et, v);
		}
		break;
	case PTD_SCRIPT_SYNTH_IFLAG_CHG:
		len = fprintf(out, " IFLAG: %d->%d %s branch", !(w & 1), (int)(w & 1),
			      w & 2 ? "via" : "non");
		break;
	}
	if (len > 0 && len < 34)
		fprintf(out, "%*s", 34 - len, "");
}
