/* The Intel PT backend (decoders/intel-pt) through the backend interface:
 * traces written with libipt's packet encoder over a small program, decoded
 * from file sections and through the image's read callback; decode errors
 * as GAP samples followed by a resync; the errata table; options; and
 * thousands of damaged and random streams that must end in samples, never
 * in a crash or a hang. */
#include "config.h"

#ifndef HAVE_LIBIPT
#include <stdio.h>

int main(void)
{
	printf("1..0 # SKIP ptdecode was built without libipt (Debian package libipt-dev)\n");
	return 0;
}
#else
#include <intel-pt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "decoders/decoder.h"
#include "tests/tap.h"

/* 0x1000: nop; jz 0x1004; nop; jmp rax (-> 0x1010) ... 0x1010: nop; jmp rax */
static const uint8_t code[] = {
	0x90, 0x74, 0x01, 0x90, 0xff, 0xe0, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90,
	0x90, 0xff, 0xe0,
};
#define BASE 0x1000

static char dir[] = "/tmp/ptd-test-ipt.XXXXXX";
static char codefile[256];

struct enc {
	uint8_t buf[512];
	struct pt_encoder *e;
	size_t n;
};

static void enc_begin(struct enc *w)
{
	struct pt_config c;

	pt_config_init(&c);
	c.begin = w->buf;
	c.end = w->buf + sizeof(w->buf);
	w->e = pt_alloc_encoder(&c);
	if (!w->e)
		abort();
}

static void put(struct enc *w, enum pt_packet_type type, int ipc, uint64_t ip)
{
	struct pt_packet p;

	memset(&p, 0, sizeof(p));
	p.type = type;
	if (type == ppt_mode) {
		p.payload.mode.leaf = pt_mol_exec;
		p.payload.mode.bits.exec.csl = 1;
	} else if (type == ppt_tnt_8) {
		p.payload.tnt.bit_size = 1;
		p.payload.tnt.payload = 1;   /* taken */
	} else {
		p.payload.ip.ipc = (enum pt_ip_compression)ipc;
		p.payload.ip.ip = ip;
	}
	if (pt_enc_next(w->e, &p) < 0)
		abort();
}

static size_t enc_end(struct enc *w)
{
	uint64_t off;

	pt_enc_get_offset(w->e, &off);
	pt_free_encoder(w->e);
	return (size_t)off;
}

static void psb_plus(struct enc *w, uint64_t ip)
{
	put(w, ppt_psb, 0, 0);
	put(w, ppt_fup, pt_ipc_sext_48, ip);
	put(w, ppt_mode, 0, 0);
	put(w, ppt_psbend, 0, 0);
}

/* the good trace: the program once through, then disabled */
static size_t good_trace(struct enc *w)
{
	enc_begin(w);
	psb_plus(w, BASE);
	put(w, ppt_tnt_8, 0, 0);
	put(w, ppt_tip, pt_ipc_sext_48, BASE + 0x10);
	put(w, ppt_tip_pgd, pt_ipc_sext_48, 0x2000);   /* jmp rax leaves the traced area */
	return enc_end(w);
}

struct run {
	struct ptd_trace_sample s[64];
	size_t n, total;
	int rc;
};

static int decode(const struct ptd_decoder_env *env, const uint8_t *buf, size_t size, struct run *r,
		  size_t limit)
{
	const struct ptd_decoder_ops *ops = ptd_decoder_find("intel-pt");
	struct ptd_err err = { 0 };
	struct ptd_decoder *d;
	struct ptd_trace_sample s;
	struct ptd_auxbuf ab = { buf, size, 0 };
	int rc;

	memset(r, 0, sizeof(*r));
	if (!ops || ops->create(&d, NULL, env, &err))
		return -1;
	rc = ops->feed(d, &ab, &err);
	while (!rc && (rc = ops->next(d, &s, &err)) > 0) {
		if (r->n < 64)
			r->s[r->n++] = s;
		if (++r->total > limit)
			break;
		rc = 0;
	}
	ops->destroy(d);
	r->rc = rc;
	return rc < 0 ? rc : 0;
}

static int insn_ips(const struct run *r, const uint64_t *want, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < r->n; i++) {
		if (r->s[i].kind != PTD_TS_INSN)
			continue;
		if (k >= n || r->s[i].ip != want[k++])
			return 0;
	}
	return k == n;
}

static int read_code(void *ctx, uint8_t *buf, size_t size, uint64_t vaddr, uint64_t asid)
{
	(void)asid;
	(*(int *)ctx)++;
	if (vaddr < BASE || vaddr >= BASE + sizeof(code))
		return -1;
	if (size > BASE + sizeof(code) - vaddr)
		size = (size_t)(BASE + sizeof(code) - vaddr);
	memcpy(buf, code + (vaddr - BASE), size);
	return (int)size;
}

static const struct ptd_trace_sample *find(const struct run *r, int kind)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->s[i].kind == kind)
			return &r->s[i];
	return NULL;
}

/* Code that loops for ever without trace: "jmp ." at 0x3000, a three
 * instruction loop at 0x3010, then straight code to a jmp rax at 0x3020.
 * Each PSB+ lands in one: the decoder reports the loop and goes on at the
 * next PSB instead of decoding for ever. */
static void never_ending(struct ptd_err *err)
{
	uint8_t loops[0x23];
	struct ptd_decoder_env env = { 0 };
	struct ptd_image *im = NULL;
	struct enc w;
	struct run r;
	size_t n, i, errs = 0, at3000 = 0, at3010 = 0, end = 0;
	char file[300];
	FILE *f;

	memset(loops, 0x90, sizeof(loops));
	loops[0x00] = 0xeb, loops[0x01] = 0xfe;                 /* 0x3000: jmp 0x3000 */
	loops[0x12] = 0xeb, loops[0x13] = 0xfc;                 /* 0x3012: jmp 0x3010 */
	loops[0x21] = 0xff, loops[0x22] = 0xe0;                 /* 0x3021: jmp rax */
	snprintf(file, sizeof(file), "%s/loops.bin", dir);
	f = fopen(file, "wb");
	if (!f || fwrite(loops, 1, sizeof(loops), f) != sizeof(loops) || fclose(f) ||
	    ptd_image_new(&im, err) || ptd_image_add_file(im, file, 0, 0, 0x3000, err)) {
		ok(0, "never-ending loops: set up");
		goto out;
	}
	env.image = im;
	enc_begin(&w);
	/* each TNT stops libipt's read-ahead: the next PSB is still ahead */
	psb_plus(&w, 0x3000);
	put(&w, ppt_tnt_8, 0, 0);
	psb_plus(&w, 0x3010);
	put(&w, ppt_tnt_8, 0, 0);
	psb_plus(&w, 0x3020);
	put(&w, ppt_tip_pgd, pt_ipc_sext_48, 0x4000);
	n = enc_end(&w);
	i = (size_t)decode(&env, w.buf, n, &r, 1000);
	ok(!i && r.total < 1000, "never-ending loops end (%zu samples)", r.total);
	for (i = 0; i < r.n; i++) {
		if (r.s[i].kind == PTD_TS_GAP && strstr(r.s[i].err.msg, "never-ending loop")) {
			errs++;
			at3000 += r.s[i].ip == 0x3000;
			at3010 += r.s[i].ip >= 0x3010 && r.s[i].ip <= 0x3012;
		}
		end = errs == 2 && r.s[i].kind == PTD_TS_INSN && r.s[i].ip == 0x3021 ? 1 : end;
	}
	ok(errs == 2 && at3000 == 1 && at3010 == 1, "each loop is reported once, at its ips (%zu errors)", errs);
	ok(end, "decoding goes on at the next PSB to the jmp rax at 0x3021");
out:
	ptd_image_free(im);
	unlink(file);
}

/* Trace without a PSB that ends with half a PSB's payload, at an 8-aligned
 * address followed by unreadable memory: libipt 2.0.5's sync reads the
 * byte after such a buffer, the backend must not let it. */
static void psb_at_the_end(const struct ptd_decoder_env *env)
{
	long page = sysconf(_SC_PAGESIZE);
	uint8_t *map, *t;
	struct run r;
	size_t i;

	map = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED || mprotect(map + page, (size_t)page, PROT_NONE)) {
		ok(0, "PSB payload at the end of readable memory: cannot map a guard page");
		return;
	}
	t = map + page - 24;
	memset(t, 0, 16);
	for (i = 16; i < 24; i += 2) {
		t[i] = 0x02;
		t[i + 1] = 0x82;
	}
	ok(!decode(env, t, 24, &r, 1000) && !find(&r, PTD_TS_INSN),
	   "PSB payload at the end of readable memory: no sync, nothing read after it");
	munmap(map, 2 * (size_t)page);
}

int main(void)
{
	static const uint64_t path[] = { 0x1000, 0x1001, 0x1004, 0x1010, 0x1011 };
	struct ptd_decoder_env env = { 0 };
	struct ptd_err err = { 0 };
	struct ptd_image *im, *cbim;
	const struct ptd_trace_sample *g;
	struct enc w;
	struct run r;
	uint8_t buf[512], fuzz[512];
	size_t n, i, gaps = 0, bad = 0, longest = 0;
	uint64_t after_tip;   /* offset of the packet after the bad TIP */
	int reads = 0;
	FILE *f;

	if (!ptd_decoder_find("intel-pt")) {
		plan(1);
		ok(0, "the intel-pt backend is registered");
		return done_testing();
	}
	ok(ptd_decoder_for_auxtrace(1) == ptd_decoder_find("intel-pt"), "auxtrace type 1 is intel-pt");
	if (!mkdtemp(dir))
		return 1;
	snprintf(codefile, sizeof(codefile), "%s/code.bin", dir);
	f = fopen(codefile, "wb");
	if (!f || fwrite(code, 1, sizeof(code), f) != sizeof(code) || fclose(f))
		return 1;
	if (ptd_image_new(&im, &err) || ptd_image_add_file(im, codefile, 0, 0, BASE, &err))
		return 1;
	env.image = im;

	/* the good trace */
	n = good_trace(&w);
	memcpy(buf, w.buf, n);
	ok(!decode(&env, buf, n, &r, 1000) && insn_ips(&r, path, 5), "good trace: the five instructions");
	g = &r.s[r.n - 1];
	ok(r.n >= 2 && g[-1].kind == PTD_TS_EVENT && g[-1].event == PTD_EV_DISABLED && g->event == PTD_EV_END_OF_TRACE &&
	   (g->flags & PTD_SF_IP_SUPPRESSED), "good trace: DISABLED, then the end (with tracing off)");
	ok(!find(&r, PTD_TS_GAP) && !find(&r, PTD_TS_DIAG), "good trace: no gap, no diagnostic");
	g = find(&r, PTD_TS_INSN);
	ok(g && g[0].mode == PTD_MODE_64 && g[0].iclass == PTD_INSN_OTHER && g[1].iclass == PTD_INSN_COND_JUMP &&
	   g[1].size == 2 && g[1].raw[0] == 0x74 && g[2].iclass == PTD_INSN_JUMP && g[0].insn_count == 1,
	   "good trace: modes, classes and bytes of the instructions");
	ok(r.s[0].kind == PTD_TS_EVENT && r.s[0].event == PTD_EV_EXEC_MODE && (r.s[0].flags & PTD_SF_STATUS_UPDATE),
	   "good trace: the PSB+'s exec mode comes first, as a status update");

	/* the same through the image's read callback, without sections */
	if (ptd_image_new(&cbim, &err))
		return 1;
	ptd_image_set_reader(cbim, read_code, &reads);
	env.image = cbim;
	ok(!decode(&env, buf, n, &r, 1000) && insn_ips(&r, path, 5) && reads > 0,
	   "read callback: the same instructions (%d reads)", reads);
	env.image = im;

	/* no image at all: an error at the first instruction, a GAP, no crash */
	env.image = NULL;
	ok(!decode(&env, buf, n, &r, 1000) && (g = find(&r, PTD_TS_GAP)) && g->ip == BASE &&
	   g->err.code == -pte_nomap, "no image: a GAP at the first instruction");
	env.image = im;

	/* an indirect jump to unmapped memory, more trace, a second PSB+ (a
	 * PSB+ right after the error would be read ahead with it: libipt
	 * resynchronizes at the next PSB after where decoding stopped) */
	enc_begin(&w);
	psb_plus(&w, BASE);
	put(&w, ppt_tnt_8, 0, 0);
	put(&w, ppt_tip, pt_ipc_sext_48, 0x5000);
	after_tip = 0;
	pt_enc_get_offset(w.e, &after_tip);
	put(&w, ppt_tnt_8, 0, 0);
	put(&w, ppt_tip, pt_ipc_sext_48, 0x1234);
	psb_plus(&w, BASE + 0x10);
	put(&w, ppt_tip_pgd, pt_ipc_sext_48, 0x2000);
	n = enc_end(&w);
	memcpy(buf, w.buf, n);
	ok(!decode(&env, buf, n, &r, 1000), "nomap trace decodes");
	g = find(&r, PTD_TS_GAP);
	ok(g && g->gap_kind == PTD_GAPK_DECODE && g->ip == 0x5000 && g->err.code == -pte_nomap &&
	   g->offset == after_tip && !strcmp(g->err.msg, "no memory mapped at this address"),
	   "nomap: a GAP with the target ip, the error and its offset (%#llx)",
	   g ? (unsigned long long)g->offset : 0ull);
	{
		static const uint64_t after[] = { 0x1000, 0x1001, 0x1004, 0x1010, 0x1011 };

		ok(insn_ips(&r, after, 5) && r.n >= 2 && r.s[r.n - 2].event == PTD_EV_DISABLED,
		   "nomap: decoding resumes at the next PSB");
	}

	/* errata and the CPU */
	env.cpu.vendor = PTD_CPU_INTEL;
	env.cpu.family = 0;
	memcpy(buf, w.buf, n);
	n = good_trace(&w);
	memcpy(buf, w.buf, n);
	ok(!decode(&env, buf, n, &r, 1000) && r.s[0].kind == PTD_TS_DIAG && r.s[0].err.code == -pte_bad_cpu &&
	   insn_ips(&r, path, 5), "unknown cpu: a DIAG first, then the normal decode");
	env.cpu.family = 6;
	env.cpu.model = 170;
	ok(!decode(&env, buf, n, &r, 1000) && !find(&r, PTD_TS_DIAG), "cpu 6/170 (newer than libipt 2.0.5) is known");
	env.cpu.model = 142;
	ok(!decode(&env, buf, n, &r, 1000) && !find(&r, PTD_TS_DIAG), "cpu 6/142 is known");
	memset(&env.cpu, 0, sizeof(env.cpu));

	/* options */
	{
		const struct ptd_decoder_ops *ops = ptd_decoder_find("intel-pt");
		struct ptd_decoder_opt o[2] = { { "mtc-freq", "3" }, { "filter:addr0_cfg", "1" } };
		struct ptd_decoder *d = NULL;

		env.opts = o;
		env.nopts = 2;
		ok(!ops->create(&d, NULL, &env, &err), "options: known keys accepted");
		ops->destroy(d);
		o[1].key = "bogus";
		ok(ops->create(&d, NULL, &env, &err) == -PTD_E_INVAL && strstr(err.msg, "bogus"),
		   "options: an unknown key is named (%s)", err.msg);
		o[1].key = "mtc-freq";
		o[1].value = "16";
		ok(ops->create(&d, NULL, &env, &err) == -PTD_E_INVAL, "options: an out-of-range value is refused");
		o[1].value = "0x1z";
		ok(ops->create(&d, NULL, &env, &err) == -PTD_E_INVAL, "options: a non-number is refused");
		env.opts = NULL;
		env.nopts = 0;
	}

	/* damaged streams: every truncation, every byte set to a few values */
	n = good_trace(&w);
	for (i = 0; i <= n; i++) {
		if (decode(&env, w.buf, i, &r, 100000) || r.total > 100000)
			bad++;
	}
	ok(!bad, "every truncation of the good trace decodes to an end (%zu failed)", bad);
	bad = 0;
	for (i = 0; i < n; i++) {
		static const uint8_t vals[] = { 0x00, 0xff, 0x02, 0x82, 0x0d, 0x71, 0x19, 0x99 };
		size_t v;

		for (v = 0; v < sizeof(vals); v++) {
			memcpy(fuzz, w.buf, n);
			fuzz[i] = vals[v];
			if (decode(&env, fuzz, n, &r, 100000) || r.total > 100000)
				bad++;
			if (find(&r, PTD_TS_GAP))
				gaps++;
		}
	}
	ok(!bad && gaps > 0, "every damaged byte decodes to an end (%zu failed, %zu runs with gaps)", bad, gaps);

	/* random streams with a valid PSB+ in front */
	bad = 0;
	srand(7);
	for (i = 0; i < 3000; i++) {
		size_t k, len = 16 + (size_t)rand() % 400;

		enc_begin(&w);
		psb_plus(&w, BASE);
		n = enc_end(&w);
		memcpy(fuzz, w.buf, n);
		for (k = n; k < len; k++)
			fuzz[k] = (uint8_t)rand();
		if (decode(&env, fuzz, len > n ? len : n, &r, 100000) || r.total > 100000)
			bad++;
		else if (r.total > longest)
			longest = r.total;
		for (k = 0; k < r.n; k++)
			if (r.s[k].kind == PTD_TS_GAP && r.s[k].offset > len && !(r.s[k].flags & PTD_SF_NO_OFFSET))
				bad++;
	}
	ok(!bad, "3000 random streams decode to an end, gap offsets inside the trace (%zu bad, longest %zu samples)",
	   bad, longest);

	psb_at_the_end(&env);
	never_ending(&err);

	ptd_image_free(im);
	ptd_image_free(cbim);
	unlink(codefile);
	rmdir(dir);
	return done_testing();
}
#endif
