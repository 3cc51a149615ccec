/* perf script's -F brstackinsn / brstackinsnlen: see brinsn.h. */
#include "brinsn.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "decoders/intel-pt/pinsn.h"
#include "dsofiles.h"
#include "srcline.h"

#define MAXBB 16384u    /* perf's largest block */
#define MAXINSN 15u     /* longest x86 instruction */
#define CROSSES (-2)    /* a block between kernel and user space */
#define KERNEL_START (1ULL << 63)

/* What one sample's printing carries from block to block. */
struct ptd_brinsn_walk {
	struct ptd_brinsn *b;
	FILE *out;
	uint64_t what;
	int is64;
	int have_last;                /* perf's lastsym */
	uint64_t last_start, last_end;
	int total_cycles;
	char text[64];
	uint8_t buf[MAXBB];
};

/* grab_bb(): the code from start to end plus one instruction, as far as
 * the file of start's map goes.  Returns its length; 0 or -1 when there
 * is none; CROSSES for a block from kernel to user space or back. */
static long grab_bb(struct ptd_brinsn_walk *w, uint64_t start, uint64_t end)
{
	struct ptd_resolver *rv = w->b->rv;
	const struct ptd_map *map;
	struct ptd_dsofile *f;
	uint64_t n, off;

	if (!start || !end)
		return 0;
	if ((start >= KERNEL_START) != (end >= KERNEL_START))
		return CROSSES;
	if (end - start > MAXBB - MAXINSN)
		return 0;
	map = ptd_machine_find_map_hint(rv->m, w->b->pid, start >= KERNEL_START, start, w->b->now,
					&rv->maps);
	if (!map)
		return 0;
	f = ptd_resolve_file(rv, map);
	if (!f || !f->data)
		return -1;
	w->is64 = f->is_64_bit;
	off = ptd_map_file_off(map, start);
	if (off > f->size)
		return -1;
	n = end - start + MAXINSN;
	if (n > f->size - off)
		n = f->size - off;
	memcpy(w->buf, f->data + off, n);
	return (long)n;
}

/* dump_insn(): "insn: 75 d1 " and the length, or "<bad>" and 0 */
static const char *dump_insn(struct ptd_brinsn_walk *w, uint64_t ip, const uint8_t *p, long len,
			     int *ilen, int *is_branch)
{
	struct pdec_insn in;
	size_t n = 0;
	unsigned i;

	*ilen = 0;
	*is_branch = 1;
	if (len <= 0 || ptd_pinsn_decode(w->b->pinsn, p, (size_t)len, ip, w->is64, &in) ||
	    in.length > len)
		return "<bad>";
	*ilen = in.length;
	*is_branch = in.branch != PDEC_BR_NO_BRANCH;
	n = (size_t)snprintf(w->text, sizeof(w->text), "insn: ");
	for (i = 0; i < in.length && n < sizeof(w->text); i++)
		n += (size_t)snprintf(w->text + n, sizeof(w->text) - n, "%02x ", p[i]);
	return w->text;
}

/* ip__fprintf_sym(): "\tsym+off:" when addr leaves the last symbol */
static void put_sym(struct ptd_brinsn_walk *w, uint64_t addr)
{
	struct ptd_script_loc loc;
	struct ptd_sym_info si;
	const struct ptd_map *map;
	uint64_t a;

	memset(&si, 0, sizeof(si));
	map = ptd_resolve(w->b->rv, w->b->pid, addr, w->b->now, &loc, &si);
	a = map ? loc.map_off : addr;
	if (w->have_last && a >= w->last_start && a < w->last_end)
		return;
	if (!loc.sym)
		return;
	fprintf(w->out, "\t%s", loc.sym);
	if ((int)loc.symoff)
		fprintf(w->out, "%+d", (int)loc.symoff);
	fputc(':', w->out);
	if ((w->what & PTD_SCRIPT_SRCLINE) && w->b->srcl) {
		const char *sl = ptd_resolve_srcline(w->b->rv, w->b->srcl, &loc);

		if (sl)
			fprintf(w->out, "\t%s", sl);
	}
	fputc('\n', w->out);
	w->have_last = 1;
	w->last_start = si.start;
	w->last_end = si.end;
}

/* ip__fprintf_jump(): the branch instruction of entry e */
static void put_jump(struct ptd_brinsn_walk *w, uint64_t ip, const struct ptd_script_branch *e,
		     const uint8_t *p, long len, int insn)
{
	int ilen, br;

	fprintf(w->out, "\t%016" PRIx64 "\t%-30s\t", ip, dump_insn(w, ip, p, len, &ilen, &br));
	if (w->what & PTD_SCRIPT_BRSTACKINSNLEN)
		fprintf(w->out, "ilen: %d\t", ilen);
	fprintf(w->out, "#%s%s%s%s", e->predicted ? " PRED" : "", e->mispred ? " MISPRED" : "",
		e->in_tx ? " INTX" : "", e->abort ? " ABORT" : "");
	if (e->cycles) {
		w->total_cycles += e->cycles;
		fprintf(w->out, " %d cycles [%d]", (int)e->cycles, w->total_cycles);
		if (insn)
			fprintf(w->out, " %.2f IPC", (double)((float)insn / e->cycles));
	}
	fputc('\n', w->out);
}

/* one instruction that is not a block's branch: "\tADDR\tinsn: ..." */
static int put_plain(struct ptd_brinsn_walk *w, uint64_t ip, const uint8_t *p, long len, int *is_branch)
{
	int ilen;

	fprintf(w->out, "\t%016" PRIx64 "\t%s", ip, dump_insn(w, ip, p, len, &ilen, is_branch));
	if (w->what & PTD_SCRIPT_BRSTACKINSNLEN)
		fprintf(w->out, "\tilen: %d", ilen);
	fputc('\n', w->out);
	return ilen;
}

/* the blocks between the entries, oldest first */
static void put_blocks(struct ptd_brinsn_walk *w, const struct ptd_script_branch *e, int nr)
{
	int i, br;

	for (i = nr - 2; i >= 0; i--) {
		uint64_t start = e[i + 1].to, end = e[i].from, off = 0;
		long len = grab_bb(w, start, end);
		int insn = 0;

		if (len == CROSSES && i > 0) {
			/* perf patches up kernel entries lost to ring filters */
			end = e[--i].from;
			len = grab_bb(w, start, end);
		}
		if (len <= 0)
			continue;
		for (off = 0; off < (uint64_t)len;) {
			uint64_t ip = start + off;
			int ilen;

			put_sym(w, ip);
			if (ip == end) {
				put_jump(w, ip, &e[i], w->buf + off, len - (long)off, ++insn);
				break;
			}
			ilen = put_plain(w, ip, w->buf + off, len - (long)off, &br);
			if (!ilen)
				break;
			insn++;
			off += (uint64_t)ilen;
		}
		if (off != end - start)
			fputs("\tmismatch of LBR data and executable\n", w->out);
	}
}

/* the block from the newest entry's target up to the sample */
static void put_last(struct ptd_brinsn_walk *w, const struct ptd_script_sample *s,
		     const struct ptd_script_branch *e0)
{
	uint64_t start = e0->to, end = s->ip, off;
	long len;
	int br;

	if (e0->from == s->ip || e0->abort)
		return;
	if (end < start)
		end = start + 128;   /* a branch the stack missed: scan on */
	len = grab_bb(w, start, end);
	put_sym(w, start);
	if (len <= 0) {
		/* at least the sample's instruction */
		len = grab_bb(w, s->ip, s->ip);
		if (len > 0)
			put_plain(w, s->ip, w->buf, len, &br);
		return;
	}
	for (off = 0; off <= end - start;) {
		int ilen = put_plain(w, start + off, w->buf + off,
				     off < (uint64_t)len ? len - (long)off : 0, &br);

		if (!ilen)
			break;
		if (br && start + off != s->ip) {
			fputs("\t... not reaching sample ...\n", w->out);
			break;
		}
		off += (uint64_t)ilen;
	}
}

void ptd_brinsn_print(struct ptd_brinsn *b, FILE *out, const struct ptd_script_sample *s,
		      uint64_t what)
{
	struct ptd_brinsn_walk *w = b->walk;
	const struct ptd_script_branch *e = s->brstack;
	int nr = (int)s->brstack_nr;
	long len;

	if (!e || !nr)
		return;
	if (b->max_blocks && nr > b->max_blocks + 1)
		nr = b->max_blocks + 1;
	w->b = b;
	w->out = out;
	w->what = what;
	w->is64 = 1;
	w->have_last = 0;
	w->total_cycles = 0;
	fputc('\n', out);
	/* the oldest branch, whose block's start is not known */
	len = grab_bb(w, e[nr - 1].from, e[nr - 1].from);
	if (len > 0) {
		put_sym(w, e[nr - 1].from);
		put_jump(w, e[nr - 1].from, &e[nr - 1], w->buf, len, 0);
	}
	put_blocks(w, e, nr);
	put_last(w, s, &e[0]);
}

int ptd_brinsn_init(struct ptd_brinsn *b, struct ptd_resolver *rv, struct ptd_srcline *srcl,
		    int max_blocks)
{
	memset(b, 0, sizeof(*b));
	b->rv = rv;
	b->srcl = srcl;
	b->max_blocks = max_blocks;
	b->pinsn = ptd_pinsn_new();
	b->walk = malloc(sizeof(*b->walk));
	if (!b->pinsn || !b->walk) {
		ptd_brinsn_fini(b);
		return -1;
	}
	return 0;
}

void ptd_brinsn_fini(struct ptd_brinsn *b)
{
	ptd_pinsn_free(b->pinsn);
	free(b->walk);
	b->pinsn = NULL;
	b->walk = NULL;
}
