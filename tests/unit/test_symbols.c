/* Symbol lookup (src/symbols.h): perf's tie and size rules on a built ELF
 * file, hand-checked addresses in testdata/record/bin/loops, damaged files
 * (errors, never a crash), the cache, and perf itself as the oracle: every
 * `ip sym+off` and `addr sym+off` perf script prints for the committed
 * recordings (testdata/record, --itrace=b) must be what the lookup gives.
 * Without a working perf those comparisons are SKIPs. */
#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols.h"
#include "symtab_priv.h"
#include "tests/tap.h"
#include "xorshift.h"

static char dir[] = "/tmp/ptd-test-symbols.XXXXXX";
static const char *top;

static const char *path_of(const char *name)
{
	static char buf[4][512];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", dir, name);
	return buf[i];
}

static void write_file(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f))
		abort();
}

static uint8_t *read_whole(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b;
	long sz;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	sz = ftell(f);
	rewind(f);
	b = malloc(sz > 0 ? (size_t)sz : 1);
	if (!b || fread(b, 1, (size_t)sz, f) != (size_t)sz)
		abort();
	fclose(f);
	*n = (size_t)sz;
	return b;
}

/* "name+0xoff" or "[unknown]", as perf script prints it. */
static const char *show(struct ptd_symtab *t, uint64_t off)
{
	static char buf[2][600];
	static int i;
	const char *name;
	uint64_t so;

	i = !i;
	if (ptd_symtab_lookup(t, off, &name, &so))
		return "[unknown]";
	snprintf(buf[i], sizeof(buf[i]), "%s+0x%" PRIx64, name, so);
	return buf[i];
}

/* ---- a built ELF64 file ------------------------------------------------ */

struct bsym { const char *name; int type, bind, vis, sec; uint64_t value, size; };

enum { S_TEXT = 1, S_MYSEC, S_COMMENT, S_SYMTAB, S_STRTAB, S_SHSTRTAB, S_NUM };

/* .text at 0x401000 (file 0x1000), one PT_LOAD 0x400000 <- file 0, 0x2000 bytes. */
static const struct bsym bsyms[] = {
	{ "f1", STT_FUNC, STB_GLOBAL, 0, S_TEXT, 0x401000, 0x10 },
	{ "__f1_alias", STT_FUNC, STB_GLOBAL, 0, S_TEXT, 0x401000, 0x10 },   /* more underscores */
	{ "w", STT_FUNC, STB_WEAK, 0, S_TEXT, 0x401020, 0x10 },
	{ "g", STT_FUNC, STB_GLOBAL, 0, S_TEXT, 0x401020, 0x10 },            /* not weak: wins */
	{ "lbl", STT_NOTYPE, STB_GLOBAL, 0, S_TEXT, 0x401040, 0 },           /* label: to 0x401080 */
	{ "z0", STT_FUNC, STB_GLOBAL, 0, S_TEXT, 0x401080, 0 },              /* size 0 after fixup */
	{ "sized", STT_FUNC, STB_LOCAL, 0, S_TEXT, 0x401080, 8 },            /* nonzero size wins */
	{ "hid", STT_NOTYPE, STB_GLOBAL, STV_HIDDEN, S_TEXT, 0x401090, 0 },  /* hidden label: no */
	{ "short", STT_FUNC, STB_GLOBAL, 0, S_TEXT, 0x4010a0, 4 },
	{ "longer", STT_FUNC, STB_GLOBAL, 0, S_TEXT, 0x4010a0, 4 },          /* longer name wins */
	{ "first", STT_FUNC, STB_GLOBAL, 0, S_TEXT, 0x4010b0, 4 },           /* full tie: first */
	{ "secnd", STT_FUNC, STB_GLOBAL, 0, S_TEXT, 0x4010b0, 4 },
	{ "absf", STT_FUNC, STB_GLOBAL, 0, SHN_ABS, 0x4010c0, 4 },           /* ABS: no */
	{ "noalloc", STT_FUNC, STB_GLOBAL, 0, S_COMMENT, 0x4010c0, 4 },      /* not ALLOC: no */
	{ "mylabel", STT_NOTYPE, STB_GLOBAL, 0, S_MYSEC, 0x4010c0, 0 },      /* not text/data: no */
	{ "sect", STT_SECTION, STB_LOCAL, 0, S_TEXT, 0x4010c0, 0 },          /* unnamed kind: no */
	{ "obj", STT_OBJECT, STB_GLOBAL, 0, S_TEXT, 0x4010d0, 8 },           /* objects count */
	{ "last", STT_FUNC, STB_GLOBAL, 0, S_TEXT, 0x401100, 0 },            /* to 0x3000 (file) */
};
#define NB (sizeof(bsyms) / sizeof(bsyms[0]))

static size_t build_elf(uint8_t *b, size_t cap)
{
	static const char shstr[] = "\0.text\0.mysec\0.comment\0.symtab\0.strtab\0.shstrtab";
	size_t symoff = 0x1200, stroff, shstroff, shoff, n, k;
	Elf64_Ehdr *eh = (Elf64_Ehdr *)b;
	Elf64_Phdr *ph = (Elf64_Phdr *)(b + sizeof(*eh));
	Elf64_Shdr *sh;
	Elf64_Sym *sy = (Elf64_Sym *)(b + symoff);
	char *str;
	size_t strn = 1;

	memset(b, 0, cap);
	stroff = symoff + (NB + 1) * sizeof(Elf64_Sym);
	str = (char *)b + stroff;
	for (k = 0; k < NB; k++) {
		Elf64_Sym *s = &sy[k + 1];

		s->st_name = (uint32_t)strn;
		strcpy(str + strn, bsyms[k].name);
		strn += strlen(bsyms[k].name) + 1;
		s->st_info = ELF64_ST_INFO(bsyms[k].bind, bsyms[k].type);
		s->st_other = (unsigned char)bsyms[k].vis;
		s->st_shndx = (uint16_t)bsyms[k].sec;
		s->st_value = bsyms[k].value;
		s->st_size = bsyms[k].size;
	}
	shstroff = stroff + strn;
	memcpy(b + shstroff, shstr, sizeof(shstr));
	shoff = (shstroff + sizeof(shstr) + 7) & ~(size_t)7;
	sh = (Elf64_Shdr *)(b + shoff);
	n = shoff + S_NUM * sizeof(Elf64_Shdr);
	if (n > cap)
		abort();

	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_EXEC;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_phoff = sizeof(*eh);
	eh->e_shoff = shoff;
	eh->e_ehsize = sizeof(*eh);
	eh->e_phentsize = sizeof(*ph);
	eh->e_phnum = 1;
	eh->e_shentsize = sizeof(*sh);
	eh->e_shnum = S_NUM;
	eh->e_shstrndx = S_SHSTRTAB;
	ph->p_type = PT_LOAD;
	ph->p_flags = PF_R | PF_X;
	ph->p_offset = 0;
	ph->p_vaddr = 0x400000;
	ph->p_filesz = ph->p_memsz = 0x2000;

	sh[S_TEXT] = (Elf64_Shdr){ .sh_name = 1, .sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC | SHF_EXECINSTR,
				   .sh_addr = 0x401000, .sh_offset = 0x1000, .sh_size = 0x200 };
	sh[S_MYSEC] = (Elf64_Shdr){ .sh_name = 7, .sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC,
				    .sh_addr = 0x401000, .sh_offset = 0x1000, .sh_size = 0x200 };
	sh[S_COMMENT] = (Elf64_Shdr){ .sh_name = 14, .sh_type = SHT_PROGBITS, .sh_offset = 0x1000, .sh_size = 0x10 };
	sh[S_SYMTAB] = (Elf64_Shdr){ .sh_name = 23, .sh_type = SHT_SYMTAB, .sh_offset = symoff,
				     .sh_size = (NB + 1) * sizeof(Elf64_Sym), .sh_link = S_STRTAB,
				     .sh_entsize = sizeof(Elf64_Sym), .sh_info = 1 };
	sh[S_STRTAB] = (Elf64_Shdr){ .sh_name = 31, .sh_type = SHT_STRTAB, .sh_offset = stroff, .sh_size = strn };
	sh[S_SHSTRTAB] = (Elf64_Shdr){ .sh_name = 39, .sh_type = SHT_STRTAB, .sh_offset = shstroff,
				       .sh_size = sizeof(shstr) };
	return n;
}

/* ptd_symset_index leaves the symbols by (start, seq), perf's tree in
 * order, whether they came unsorted or sorted with more appended (the
 * PLT's, which sort_syms sorts alone and merges in): random tables with
 * repeated starts, checked for that order and for every symbol kept. */
static int by_start_seq(const struct ptd_symtab *t, size_t n)
{
	uint8_t *seen = calloc(n ? n : 1, 1);
	size_t i;
	int good = t->n == n && seen;

	for (i = 0; good && i < t->n; i++) {
		if (t->syms[i].seq >= n || seen[t->syms[i].seq]++)
			good = 0;
		if (i && (t->syms[i - 1].start > t->syms[i].start ||
			  (t->syms[i - 1].start == t->syms[i].start &&
			   t->syms[i - 1].seq > t->syms[i].seq)))
			good = 0;
	}
	free(seen);
	return good;
}

static void test_sort(void)
{
	unsigned round, bad_unsorted = 0, bad_appended = 0;
	uint64_t x = 88172645463325252ULL;

	for (round = 0; round < 200; round++) {
		struct ptd_symtab *t = calloc(1, sizeof(*t));
		size_t n = 2 + round * 7 % 300, tail = round % 5 ? 1 + round % 40 : n, i;
		uint64_t start = 0x1000;

		if (!t || ptd_symset_reserve(t, n + tail))
			abort();
		/* round even: sorted (repeated starts in seq order), then a
		 * tail appended; odd: all in random order */
		for (i = 0; i < n; i++) {
			xorshift64(&x);
			if (round % 2)
				start = 0x1000 + x % 4096 * (round % 3 ? 16 : 0x10001);
			else if (x % 4)
				start += x % 64 * 16;
			ptd_symset_insert(t, start, start + 16, 0, STB_GLOBAL);
		}
		for (i = 0; !(round % 2) && i < tail; i++) {
			xorshift64(&x);
			/* half of them at a start the table has */
			start = x % 2 ? t->syms[x / 2 % n].start : 0x1000 + x % 8192 * 8;
			ptd_symset_insert(t, start, start + 8, 0, STB_GLOBAL);
		}
		if (ptd_symset_index(t) || !by_start_seq(t, round % 2 ? n : n + tail)) {
			if (round % 2)
				bad_unsorted++;
			else
				bad_appended++;
		}
		ptd_symtab_free(t);
	}
	ok(!bad_unsorted, "unsorted symbols come out by start, then insertion (100 tables; %u wrong)",
	   bad_unsorted);
	ok(!bad_appended, "sorted symbols with more appended come out by start, then insertion "
	   "(100 tables; %u wrong)", bad_appended);
}

static void test_rules(void)
{
	static uint8_t b[0x4000];
	size_t n = build_elf(b, sizeof(b));
	struct ptd_symtab *t;
	struct ptd_err err;
	uint64_t off = 0;
	int rc;

	write_file(path_of("built"), b, n);
	rc = ptd_symtab_load(path_of("built"), &t, &err);
	if (!ok(rc == 0, "built ELF loads")) {
		printf("#   %s\n", err.msg);
		return;
	}
	is_u64(ptd_symtab_count(t), 8, "8 symbols survive the filter and the duplicate pass");
	ok(!ptd_symtab_vaddr_to_offset(t, 0x401000, &off) && off == 0x1000, "vaddr 0x401000 is file offset 0x1000");
	ok(ptd_symtab_vaddr_to_offset(t, 0x402000, &off) == -PTD_E_NOTFOUND, "vaddr past the PT_LOAD: not found");
	is_str(show(t, 0x1000), "f1+0x0", "fewer leading underscores win");
	is_str(show(t, 0x100f), "f1+0xf", "inside a sized symbol");
	is_str(show(t, 0x1010), "[unknown]", "past a sized symbol's end, before the next");
	is_str(show(t, 0x1024), "g+0x4", "global beats weak");
	is_str(show(t, 0x107f), "lbl+0x3f", "a zero-size label ends at the next symbol");
	is_str(show(t, 0x1084), "sized+0x4", "nonzero size beats zero size, binding aside");
	is_str(show(t, 0x1090), "[unknown]", "hidden labels are not symbols");
	is_str(show(t, 0x10a3), "longer+0x3", "the longer name wins");
	is_str(show(t, 0x10b0), "first+0x0", "full tie: the first in the table");
	is_str(show(t, 0x10c0), "[unknown]", "ABS, non-ALLOC, non-text labels and sections skipped");
	is_str(show(t, 0x10d7), "obj+0x7", "OBJECT symbols are kept");
	is_str(show(t, 0x2fff), "last+0x1eff", "the last zero-size symbol: to its page rounded up plus 4 KiB");
	is_str(show(t, 0x3000), "[unknown]", "and not beyond");
	is_str(show(t, 0xfff), "[unknown]", "below the first symbol");
	ptd_symtab_free(t);
}

/* ---- damaged files ------------------------------------------------------- */

static int load_rc(const uint8_t *b, size_t n, const char *what)
{
	struct ptd_symtab *t = NULL;
	struct ptd_err err;
	int rc;

	write_file(path_of("damaged"), b, n);
	ptd_err_clear(&err);
	rc = ptd_symtab_load(path_of("damaged"), &t, &err);
	if (!rc) {
		const char *name;
		uint64_t so;
		uint64_t k;

		/* whatever loaded must answer lookups */
		for (k = 0; k < 0x4000; k += 3)
			(void)ptd_symtab_lookup(t, k, &name, &so);
		ptd_symtab_free(t);
	} else if (what && !err.msg[0]) {
		printf("# %s: error without a message\n", what);
		rc = 1;
	}
	return rc;
}

static void test_damaged(const uint8_t *orig, size_t n)
{
	uint8_t *b = malloc(n);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)orig;
	size_t cuts[] = { 0, 3, 16, 63, 1000, n / 2, n - 1 };
	size_t i, symtab = 0, fails = 0;
	Elf64_Shdr *sh;
	Elf64_Sym *sy;
	unsigned seed = 12345;

	for (i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		char what[64];

		snprintf(what, sizeof(what), "truncated at %zu bytes", cuts[i]);
		ok(load_rc(orig, cuts[i], what) < 0, "%s: an error", what);
	}

#define DAMAGE(stmt, what) do { memcpy(b, orig, n); stmt; ok(load_rc(b, n, what) < 0, "%s: an error", what); } while (0)
	sh = (Elf64_Shdr *)(b + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++)
		if (((const Elf64_Shdr *)(orig + eh->e_shoff))[i].sh_type == SHT_SYMTAB)
			symtab = i;
	ok(symtab != 0, "loops has a .symtab (section %zu)", symtab);
	sy = (Elf64_Sym *)(b + ((const Elf64_Shdr *)(orig + eh->e_shoff))[symtab].sh_offset);
	DAMAGE(((Elf64_Ehdr *)b)->e_shoff = n + 8, "e_shoff past the end");
	DAMAGE(((Elf64_Ehdr *)b)->e_shoff = UINT64_MAX - 8, "e_shoff near 2^64");
	DAMAGE(((Elf64_Ehdr *)b)->e_shentsize = 8, "e_shentsize too small");
	DAMAGE(((Elf64_Ehdr *)b)->e_phoff = n - 8, "e_phoff at the end");
	DAMAGE(sh[symtab].sh_offset = n - 16, "symtab sh_offset near the end");
	DAMAGE(sh[symtab].sh_offset = UINT64_MAX - 100, "symtab sh_offset near 2^64");
	DAMAGE(sh[symtab].sh_size = UINT64_MAX / 2, "symtab sh_size huge");
	DAMAGE(sh[symtab].sh_entsize = 7, "symtab sh_entsize 7");
	DAMAGE(sh[symtab].sh_link = 60000, "symtab sh_link out of range");
	DAMAGE(sh[sh[symtab].sh_link].sh_offset = n - 1, "strtab sh_offset at the end");
	DAMAGE(sh[sh[symtab].sh_link].sh_size = 3, "strtab cut to 3 bytes");
	DAMAGE(sy[5].st_name = 0xfffffff0u, "a symbol's name outside the strtab");
	/* which file has a .symtab: its section headers say, as perf's
	 * symsrc__init reads them, whatever the table holds */
	ok(ptd_symtab_has_symtab(path_of("damaged")) == 1,
	   "a .symtab whose symbols do not load is still a .symtab (headers only)");
	memcpy(b, orig, n);
	sh[symtab].sh_type = SHT_PROGBITS;
	write_file(path_of("damaged"), b, n);
	ok(ptd_symtab_has_symtab(path_of("damaged")) == 0, "no SHT_SYMTAB section: no .symtab");
	((Elf64_Ehdr *)b)->e_shoff = n + 8;
	sh[symtab].sh_type = SHT_SYMTAB;
	write_file(path_of("damaged"), b, n);
	ok(ptd_symtab_has_symtab(path_of("damaged")) == 0, "section headers past the end: no .symtab");
	DAMAGE((sy[40].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), sy[40].st_name = 1,
		sy[40].st_shndx = 0xfff0), "a function's section index out of range");
	DAMAGE((sy[40].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_NOTYPE), sy[40].st_name = 1,
		sy[40].st_shndx = 1, ((Elf64_Ehdr *)b)->e_shstrndx = 999), "a label with a bad section name table");
#undef DAMAGE

	/* random damage to the headers and the symbol table: errors or tables,
	 * never a crash (the ASan build runs this) */
	for (i = 0; i < 300; i++) {
		const Elf64_Shdr *osh = (const Elf64_Shdr *)(orig + eh->e_shoff);
		size_t k, m = 1 + (seed = seed * 1103515245 + 12345) % 8;

		memcpy(b, orig, n);
		for (k = 0; k < m; k++) {
			size_t r = (seed = seed * 1103515245 + 12345) >> 4, pos;

			switch (r % 3) {
			case 0: pos = r / 3 % 64; break;
			case 1: pos = eh->e_shoff + r / 3 % (eh->e_shnum * sizeof(Elf64_Shdr)); break;
			default: pos = osh[symtab].sh_offset + r / 3 % 4096; break;
			}
			b[pos] = (uint8_t)(seed >> 8);
		}
		if (load_rc(b, n, NULL) > 0)
			fails++;
	}
	ok(fails == 0, "300 randomly damaged copies: errors or tables, no crash");
	free(b);
}

/* ---- perf as the oracle ---------------------------------------------- */

static int perf_usable(void)
{
	return system("perf --version >/dev/null 2>&1") == 0;
}

struct seen { uint64_t addr; uint32_t dso; };

static int by_seen(const void *a, const void *b)
{
	const struct seen *x = a, *y = b;

	if (x->dso != y->dso)
		return x->dso < y->dso ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static const char *dsos[] = { "/bin/loops", "/bin/recursion", "/bin/threads" };

static int check_one(struct ptd_symcache *c, const char *dso, uint64_t addr, const char *want,
		     struct seen *s, size_t *ns, const char *rec)
{
	char path[1024], got[600];
	struct ptd_err err;
	const char *name;
	uint64_t off, so;
	uint32_t d;

	for (d = 0; d < 3; d++)
		if (!strcmp(dso, dsos[d]))
			break;
	if (d == 3)
		return 0;  /* [unknown] and other dsos */
	snprintf(path, sizeof(path), "%s/testdata/record%s", top, dso);
	if (ptd_symcache_vaddr_to_offset(c, path, addr, &off, &err) ||
	    ptd_symcache_lookup(c, path, off, &name, &so, &err))
		snprintf(got, sizeof(got), "[unknown]");
	else
		snprintf(got, sizeof(got), "%s+0x%" PRIx64, name, so);
	s[*ns].addr = addr;
	s[(*ns)++].dso = d;
	if (strcmp(got, want)) {
		printf("# %s: %s %#" PRIx64 ": perf %s, ptdecode %s\n", rec, dso, addr, want, got);
		return -1;
	}
	return 1;
}

static void test_perf(struct ptd_symcache *c, const char *rec, size_t *total, size_t *uniq)
{
	char cmd[2048], line[2048];
	FILE *p;
	size_t cap = 1 << 16, ns = 0, compared = 0, bad = 0, u, i;
	struct seen *s = malloc(cap * sizeof(*s));

	snprintf(cmd, sizeof(cmd),
		 "perf script -i '%s/testdata/record/%s.data' --symfs '%s/testdata/record' --itrace=b "
		 "-F ip,sym,symoff,addr,dso 2>/dev/null", top, rec, top);
	p = popen(cmd, "r");
	if (!p || !s)
		abort();
	while (fgets(line, sizeof(line), p)) {
		uint64_t ip, addr;
		char ssym[600], sdso[600], tsym[600], tdso[600];
		int r;

		if (sscanf(line, "%" SCNx64 " %599s (%599[^)]) => %" SCNx64 " %599s (%599[^)])",
			   &ip, ssym, sdso, &addr, tsym, tdso) != 6)
			continue;
		if (ns + 2 > cap) {
			cap *= 2;
			s = realloc(s, cap * sizeof(*s));
			if (!s)
				abort();
		}
		r = check_one(c, sdso, ip, ssym, s, &ns, rec);
		compared += r != 0, bad += r < 0;
		r = check_one(c, tdso, addr, tsym, s, &ns, rec);
		compared += r != 0, bad += r < 0;
		if (bad > 20)
			break;
	}
	pclose(p);
	qsort(s, ns, sizeof(*s), by_seen);
	for (i = 0, u = 0; i < ns; i++)
		u += !i || by_seen(&s[i - 1], &s[i]);
	ok(compared > 1000 && bad == 0, "%s: %zu addresses in the binaries (%zu distinct) resolve as perf prints them",
	   rec, compared, u);
	*total += compared;
	*uniq += u;
	free(s);
}

int main(void)
{
	static const char *recs[] = { "loops", "loops-snapshot-timing", "recursion-faults",
				      "recursion-per-thread", "threads-2cpu" };
	struct ptd_symcache *c, *small;
	struct ptd_symtab *t;
	struct ptd_err err;
	char loops[1024], recursion[1024];
	const char *name;
	uint64_t off = 0, so;
	uint8_t *bin;
	size_t n, i, total = 0, uniq = 0;
	int rc;

	top = getenv("top_srcdir");
	if (!top)
		top = ".";
	if (!mkdtemp(dir))
		abort();
	snprintf(loops, sizeof(loops), "%s/testdata/record/bin/loops", top);
	snprintf(recursion, sizeof(recursion), "%s/testdata/record/bin/recursion", top);

	test_rules();
	test_sort();

	/* hand-checked against readelf -s (static, non-PIE: vaddr - 0x400000) */
	rc = ptd_symtab_load(loops, &t, &err);
	ok(rc == 0, "loops loads");
	if (rc) {
		printf("# %s\n", err.msg);
		return done_testing();
	}
	ok(ptd_symtab_count(t) > 1000, "loops: %zu symbols", ptd_symtab_count(t));
	ok(!ptd_symtab_vaddr_to_offset(t, 0x401510, &off) && off == 0x1510, "loops: 0x401510 is offset 0x1510");
	is_str(show(t, 0x1510), "_start+0x0", "loops: _start");
	is_str(show(t, 0x1531), "_start+0x21", "loops: inside _start (size 0x22)");
	is_str(show(t, 0x28d9), "__libc_start_main_impl+0x49", "loops: __libc_start_main_impl, not its aliases");
	ok(ptd_symtab_lookup(t, 0, &name, &so) == -PTD_E_NOTFOUND, "loops: offset 0 has no symbol");
	ok(ptd_symtab_full(t) == 1 && ptd_symtab_has_symtab(loops) == 1,
	   "loops: its loaded symbols come from .symtab, as its headers say");
	ok(ptd_symtab_has_symtab(path_of("missing")) == 0, "a missing file has no .symtab");
	write_file(path_of("built"), "not an ELF file\n", 16);
	ok(ptd_symtab_has_symtab(path_of("built")) == 0, "a file that is not ELF has no .symtab");
	ptd_symtab_free(t);

	bin = read_whole(loops, &n);
	ok(bin != NULL, "read loops");
	if (bin)
		test_damaged(bin, n);
	free(bin);

	/* the cache: one file at a time, failures remembered */
	small = ptd_symcache_new(1, 0);
	c = ptd_symcache_new(0, 0);
	ok(small && c, "caches made");
	for (i = 0; i < 4; i++) {
		const char *p = i % 2 ? recursion : loops;

		rc = ptd_symcache_lookup(small, p, 0x1510, &name, &so, &err);
		ok(rc == 0 && !strcmp(name, "_start") && so == 0, "one-file cache, lookup %zu (%s): _start", i,
		   i % 2 ? "recursion" : "loops");
	}
	ok(ptd_symcache_lookup(small, path_of("missing"), 0, &name, &so, &err) == -PTD_E_IO &&
	   ptd_symcache_lookup(small, path_of("missing"), 0, &name, &so, &err) == -PTD_E_IO &&
	   strstr(err.msg, "missing"), "a missing file: -PTD_E_IO, twice, with its name");
	ok(ptd_symcache_lookup(c, loops, 1ull << 40, &name, &so, &err) == -PTD_E_NOTFOUND, "no symbol: NOTFOUND");
	ok(ptd_symcache_full(c, loops) == 1 && ptd_symcache_full(c, path_of("missing")) == 0 &&
	   ptd_symcache_full(c, loops) == 1, "the cache's .symtab answers, asked twice");

	if (!perf_usable()) {
		for (i = 0; i < sizeof(recs) / sizeof(recs[0]); i++)
			printf("ok %d - %s: perf script as the oracle # SKIP perf is not installed "
			       "(Debian package linux-perf)\n", ++tap_n, recs[i]);
	} else {
		for (i = 0; i < sizeof(recs) / sizeof(recs[0]); i++)
			test_perf(c, recs[i], &total, &uniq);
		printf("# perf oracle: %zu addresses compared, %zu distinct (dso, address)\n", total, uniq);
	}
	ptd_symcache_free(small);
	ptd_symcache_free(c);
	unlink(path_of("built"));
	unlink(path_of("damaged"));
	rmdir(dir);
	return done_testing();
}
