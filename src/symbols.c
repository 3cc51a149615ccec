/* Symbols of an ELF dso as perf script prints them (see symbols.h for the
 * rules).  The ELF headers and tables are read directly with pread and
 * checked against the file size: ELF32 and ELF64, little-endian. */
#include "symtab_priv.h"

#include "common/prefault.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_SECTIONS (1u << 20)

struct shdr {
	uint32_t name, type, link;
	uint64_t flags, addr, offset, size, entsize;
};

/* What one load needs while it reads. */
struct elf {
	const char *path;
	int fd;
	uint64_t fsize;
	int is64;
	uint16_t machine;
	struct shdr *sh;
	uint32_t shnum;
	char *shstr;          /* section names (NULL until needed) */
	uint64_t shstrsz;
	uint32_t shstrndx;
	struct ptd_err *err;
};

static int bad(struct elf *e, int code, const char *what)
{
	return ptd_err_set(e->err, code, "%s: %s", e->path, what);
}

/* [off, off+size) inside the file? */
static int in_file(const struct elf *e, uint64_t off, uint64_t size)
{
	return size <= e->fsize && off <= e->fsize - size;
}

static int read_at(struct elf *e, void *buf, uint64_t size, uint64_t off, const char *what)
{
	ssize_t got;

	if (!in_file(e, off, size))
		return ptd_err_set(e->err, PTD_E_TRUNCATED, "%s: %s (%#llx bytes at %#llx) runs past the end of the file (%#llx bytes)",
				   e->path, what, (unsigned long long)size, (unsigned long long)off,
				   (unsigned long long)e->fsize);
	got = pread(e->fd, buf, size, (off_t)off);
	if (got < 0)
		return ptd_err_set(e->err, PTD_E_IO, "%s: reading %s: %s", e->path, what, strerror(errno));
	if ((uint64_t)got != size)
		return ptd_err_set(e->err, PTD_E_TRUNCATED, "%s: %s: short read", e->path, what);
	return 0;
}

/* Whether section s (named what in errors) has contents, within the size
 * limit, inside the file: 0, or the error. */
static int section_ok(struct elf *e, const struct shdr *s, const char *what)
{
	if (s->type == SHT_NOBITS)
		return ptd_err_set(e->err, PTD_E_FORMAT, "%s: %s has no contents (NOBITS)", e->path, what);
	if (s->size > PTD_SYMTAB_MAX_BYTES)
		return ptd_err_set(e->err, PTD_E_LIMIT, "%s: %s is %llu bytes (limit %u)", e->path, what,
				   (unsigned long long)s->size, PTD_SYMTAB_MAX_BYTES);
	if (!in_file(e, s->offset, s->size))
		return read_at(e, NULL, s->size, s->offset, what);
	return 0;
}

/* A whole section's bytes plus a NUL, malloc'd. */
static int read_section(struct elf *e, const struct shdr *s, char **out, const char *what)
{
	char *buf;
	int rc;

	if ((rc = section_ok(e, s, what)))
		return rc;
	buf = malloc(s->size + 1);
	if (!buf)
		return bad(e, PTD_E_NOMEM, "out of memory");
	rc = read_at(e, buf, s->size, s->offset, what);
	if (rc) {
		free(buf);
		return rc;
	}
	buf[s->size] = 0;
	*out = buf;
	return 0;
}

static int read_ehdr(struct elf *e, Elf64_Ehdr *h)
{
	unsigned char id[EI_NIDENT];
	int rc;

	if (e->fsize < EI_NIDENT)
		return bad(e, PTD_E_TRUNCATED, "shorter than an ELF identification");
	rc = read_at(e, id, EI_NIDENT, 0, "ELF identification");
	if (rc)
		return rc;
	if (memcmp(id, ELFMAG, SELFMAG))
		return bad(e, PTD_E_UNSUPPORTED, "not an ELF file");
	if (id[EI_CLASS] != ELFCLASS32 && id[EI_CLASS] != ELFCLASS64)
		return bad(e, PTD_E_FORMAT, "bad ELF class");
	if (id[EI_DATA] != ELFDATA2LSB)
		return bad(e, PTD_E_UNSUPPORTED, "not a little-endian ELF file");
	e->is64 = id[EI_CLASS] == ELFCLASS64;
	if (e->is64)
		return read_at(e, h, sizeof(*h), 0, "ELF header");
	{
		Elf32_Ehdr h32;

		rc = read_at(e, &h32, sizeof(h32), 0, "ELF header");
		if (rc)
			return rc;
		memset(h, 0, sizeof(*h));
		h->e_machine = h32.e_machine;
		h->e_phoff = h32.e_phoff;
		h->e_shoff = h32.e_shoff;
		h->e_phentsize = h32.e_phentsize;
		h->e_phnum = h32.e_phnum;
		h->e_shentsize = h32.e_shentsize;
		h->e_shnum = h32.e_shnum;
		h->e_shstrndx = h32.e_shstrndx;
	}
	return 0;
}

static void decode_shdr(const struct elf *e, const unsigned char *p, struct shdr *s)
{
	if (e->is64) {
		Elf64_Shdr h;

		memcpy(&h, p, sizeof(h));
		*s = (struct shdr){ h.sh_name, h.sh_type, h.sh_link, h.sh_flags, h.sh_addr,
				    h.sh_offset, h.sh_size, h.sh_entsize };
	} else {
		Elf32_Shdr h;

		memcpy(&h, p, sizeof(h));
		*s = (struct shdr){ h.sh_name, h.sh_type, h.sh_link, h.sh_flags, h.sh_addr,
				    h.sh_offset, h.sh_size, h.sh_entsize };
	}
}

/* The section header table (extended numbering through section 0). */
static int read_sections(struct elf *e, const Elf64_Ehdr *h)
{
	size_t shsz = e->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	unsigned char *buf;
	uint64_t num = h->e_shnum;
	uint32_t i;
	int rc;

	e->shstrndx = h->e_shstrndx;
	if (!h->e_shoff)
		return 0;  /* no sections: no symbols */
	if (h->e_shentsize < shsz)
		return bad(e, PTD_E_FORMAT, "section header entries too small");
	if (num == 0 || e->shstrndx == SHN_XINDEX) {
		unsigned char first[sizeof(Elf64_Shdr)];
		struct shdr s0;

		rc = read_at(e, first, shsz, h->e_shoff, "section header 0");
		if (rc)
			return rc;
		decode_shdr(e, first, &s0);
		if (num == 0)
			num = s0.size;
		if (e->shstrndx == SHN_XINDEX)
			e->shstrndx = s0.link;
	}
	if (num > MAX_SECTIONS)
		return bad(e, PTD_E_LIMIT, "too many sections");
	if (!in_file(e, h->e_shoff, num * h->e_shentsize))
		return read_at(e, NULL, num * h->e_shentsize, h->e_shoff, "section header table");
	buf = malloc(num * h->e_shentsize + 1);
	e->sh = calloc(num ? num : 1, sizeof(*e->sh));
	if (!buf || !e->sh) {
		free(buf);
		return bad(e, PTD_E_NOMEM, "out of memory");
	}
	rc = read_at(e, buf, num * h->e_shentsize, h->e_shoff, "section header table");
	if (!rc) {
		for (i = 0; i < num; i++)
			decode_shdr(e, buf + (size_t)i * h->e_shentsize, &e->sh[i]);
		e->shnum = (uint32_t)num;
	}
	free(buf);
	return rc;
}

/* PT_LOAD segments with contents (max(filesz, memsz) > 0). */
static int read_loads(struct elf *e, const Elf64_Ehdr *h, struct ptd_symtab *t)
{
	size_t phsz = e->is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	unsigned char *buf;
	uint32_t i;
	int rc;

	if (!h->e_phoff || !h->e_phnum)
		return 0;
	if (h->e_phentsize < phsz)
		return bad(e, PTD_E_FORMAT, "program header entries too small");
	buf = malloc((size_t)h->e_phnum * h->e_phentsize);
	t->loads = calloc(h->e_phnum, sizeof(*t->loads));
	if (!buf || !t->loads) {
		free(buf);
		return bad(e, PTD_E_NOMEM, "out of memory");
	}
	rc = read_at(e, buf, (uint64_t)h->e_phnum * h->e_phentsize, h->e_phoff, "program header table");
	for (i = 0; !rc && i < h->e_phnum; i++) {
		const unsigned char *p = buf + (size_t)i * h->e_phentsize;
		uint64_t type, vaddr, offset, filesz, memsz;

		if (e->is64) {
			Elf64_Phdr ph;

			memcpy(&ph, p, sizeof(ph));
			type = ph.p_type, vaddr = ph.p_vaddr, offset = ph.p_offset;
			filesz = ph.p_filesz, memsz = ph.p_memsz;
		} else {
			Elf32_Phdr ph;

			memcpy(&ph, p, sizeof(ph));
			type = ph.p_type, vaddr = ph.p_vaddr, offset = ph.p_offset;
			filesz = ph.p_filesz, memsz = ph.p_memsz;
		}
		if (type != PT_LOAD || (!filesz && !memsz))
			continue;
		t->loads[t->nloads++] = (struct load){ vaddr, offset, filesz > memsz ? filesz : memsz };
	}
	free(buf);
	return rc;
}

static const struct load *load_of(const struct ptd_symtab *t, uint64_t vaddr)
{
	size_t i;

	for (i = 0; i < t->nloads; i++)
		if (vaddr >= t->loads[i].vaddr && vaddr - t->loads[i].vaddr < t->loads[i].size)
			return &t->loads[i];
	return NULL;
}

/* Name of section s (the section name table is read on first use). */
static int section_name(struct elf *e, const struct shdr *s, const char **name)
{
	int rc;

	if (!e->shstr) {
		if (e->shstrndx == SHN_UNDEF || e->shstrndx >= e->shnum)
			return bad(e, PTD_E_FORMAT, "bad section name table index");
		rc = read_section(e, &e->sh[e->shstrndx], &e->shstr, "section name table");
		if (rc)
			return rc;
		e->shstrsz = e->sh[e->shstrndx].size;
	}
	if (s->name >= e->shstrsz || !memchr(e->shstr + s->name, 0, e->shstrsz - s->name))
		return bad(e, PTD_E_FORMAT, "section name outside the section name table");
	*name = e->shstr + s->name;
	return 0;
}

/* One ELF symbol, decoded. */
struct esym {
	uint64_t value, size;
	uint32_t name;
	uint16_t shndx;
	uint8_t type, bind, vis;
};

static void decode_sym(const struct elf *e, const unsigned char *p, struct esym *s)
{
	if (e->is64) {
		Elf64_Sym y;

		memcpy(&y, p, sizeof(y));
		*s = (struct esym){ y.st_value, y.st_size, y.st_name, y.st_shndx,
				    ELF64_ST_TYPE(y.st_info), ELF64_ST_BIND(y.st_info),
				    ELF64_ST_VISIBILITY(y.st_other) };
	} else {
		Elf32_Sym y;

		memcpy(&y, p, sizeof(y));
		*s = (struct esym){ y.st_value, y.st_size, y.st_name, y.st_shndx,
				    ELF32_ST_TYPE(y.st_info), ELF32_ST_BIND(y.st_info),
				    ELF32_ST_VISIBILITY(y.st_other) };
	}
}

/* perf's filter for one symbol: 1 keep, 0 skip, <0 error.  On keep, *start
 * is the symbol's file offset. */
static int accept(struct elf *e, const struct ptd_symtab *t, const struct esym *s,
		  const char *name, uint64_t *start)
{
	int named = s->name != 0, defined = s->shndx != SHN_UNDEF;
	int is_func = (s->type == STT_FUNC || s->type == STT_GNU_IFUNC) && named && defined;
	int is_obj = s->type == STT_OBJECT && named && defined;
	int is_label = s->type == STT_NOTYPE && named && defined && s->shndx != SHN_ABS &&
		       s->vis != STV_HIDDEN && s->vis != STV_INTERNAL;
	const struct shdr *sec;
	const struct load *l;
	uint64_t v = s->value;
	int rc;

	if (!is_func && !is_obj && !is_label)
		return 0;
	if ((e->machine == EM_ARM || e->machine == EM_AARCH64) && name[0] == '$' && name[1] &&
	    strchr("adtx", name[1]) && (name[2] == 0 || name[2] == '.'))
		return 0;
	if (s->shndx == SHN_ABS)
		return 0;
	if (s->shndx >= e->shnum)  /* perf fails the whole table here too */
		return ptd_err_set(e->err, PTD_E_FORMAT, "%s: symbol '%s': section index %u out of range",
				   e->path, name, s->shndx);
	sec = &e->sh[s->shndx];
	if (!(sec->flags & SHF_ALLOC))
		return 0;
	if (is_label) {
		const char *sname = NULL;

		rc = section_name(e, sec, &sname);
		if (rc)
			return rc;
		if (!strstr(sname, "text") && !strstr(sname, "data"))
			return 0;
	}
	if (e->machine == EM_ARM && s->type == STT_FUNC && (v & 1))
		v--;
	l = load_of(t, v);
	*start = l ? v - (l->vaddr - l->offset) : v - (sec->addr - sec->offset);
	return 1;
}

/* Append the bytes of a string table and a NUL to t->strs (read into
 * it: no copy, whose pages would be new to the process); *base is where
 * they start. */
static int add_strings(struct elf *e, struct ptd_symtab *t, const struct shdr *str, size_t *base)
{
	char *ns;
	int rc;

	if ((rc = section_ok(e, str, "symbol string table")))
		return rc;
	if (t->strsz + str->size + 1 >= UINT32_MAX / 2)
		return bad(e, PTD_E_LIMIT, "symbol string tables too large");
	ns = realloc(t->strs, t->strsz + str->size + 1);
	if (!ns)
		return bad(e, PTD_E_NOMEM, "out of memory");
	t->strs = ns;
	ptd_prefault(t->strs + t->strsz, str->size);
	rc = read_at(e, t->strs + t->strsz, str->size, str->offset, "symbol string table");
	if (rc)
		return rc;
	t->strs[t->strsz + str->size] = 0;
	*base = t->strsz;
	t->strsz += str->size + 1;
	return 0;
}

/* symbols read at a time (a buffer reused: the whole table read at once
 * would be as many pages new to the process) */
#define SYM_BLOCK 340

/* One load pass of perf's dso__load_sym: the symbols of table tab it keeps
 * go into its tree, then the end and duplicate fix-ups when there were some. */
static int read_table(struct elf *e, struct ptd_symtab *t, const struct shdr *tab)
{
	size_t symsz = e->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	const struct shdr *str;
	unsigned char blk[SYM_BLOCK * sizeof(Elf64_Sym)];
	uint64_t nsyms, i;
	size_t base = 0, added = 0;
	int rc;

	if (tab->entsize != symsz)
		return bad(e, PTD_E_FORMAT, "symbol table entry size is not the ELF symbol size");
	if (tab->link == SHN_UNDEF || tab->link >= e->shnum)
		return bad(e, PTD_E_FORMAT, "symbol table's string table index out of range");
	str = &e->sh[tab->link];
	nsyms = tab->size / symsz;
	if (nsyms > PTD_SYMTAB_MAX_SYMS)
		return bad(e, PTD_E_LIMIT, "too many symbols");
	rc = add_strings(e, t, str, &base);
	if (rc)
		return rc;
	/* the table's checks, before any symbol is taken */
	if ((rc = section_ok(e, tab, "symbol table")))
		return rc;
	if (ptd_symset_reserve(t, nsyms))
		return bad(e, PTD_E_NOMEM, "out of memory");
	for (i = 0; i < nsyms; i++) {
		struct esym s;
		const char *name = "";
		uint64_t start = 0;

		if (i % SYM_BLOCK == 0 &&
		    (rc = read_at(e, blk, (nsyms - i < SYM_BLOCK ? nsyms - i : SYM_BLOCK) * symsz,
				  tab->offset + i * symsz, "symbol table")))
			break;
		decode_sym(e, blk + (i % SYM_BLOCK) * symsz, &s);
		if (s.name) {
			if (s.name >= str->size) {
				rc = ptd_err_set(e->err, PTD_E_FORMAT, "%s: symbol %llu: name outside the string table",
						 e->path, (unsigned long long)i);
				break;
			}
			name = t->strs + base + s.name;  /* NUL-terminated: add_strings added one */
		}
		rc = accept(e, t, &s, name, &start);
		if (rc < 0)
			break;
		if (!rc)
			continue;
		rc = 0;
		ptd_symset_insert(t, start,
				  s.size && start + s.size > start ? start + s.size : (s.size ? UINT64_MAX : start),
				  (uint32_t)(base + s.name), s.bind);
		added++;
	}
	if (rc < 0)
		return rc;
	if (added && ptd_symset_fixup(t))
		return bad(e, PTD_E_NOMEM, "out of memory");
	return 0;
}

/* perf 6.1's dso__load_sym: .symtab, then .dynsym into the same tree (only
 * .dynsym when there is no .symtab). */
static int read_symbols(struct elf *e, struct ptd_symtab *t)
{
	const struct shdr *tab = NULL, *dyn = NULL;
	uint32_t k;
	int rc = 0;

	for (k = 0; k < e->shnum && !tab; k++)
		if (e->sh[k].type == SHT_SYMTAB)
			tab = &e->sh[k];
	for (k = 0; k < e->shnum && !dyn; k++)
		if (e->sh[k].type == SHT_DYNSYM)
			dyn = &e->sh[k];
	t->full = tab != NULL;
	if (tab)
		rc = read_table(e, t, tab);
	if (!rc && dyn)
		rc = read_table(e, t, dyn);
	return rc;
}

/* A section by name, or NULL. */
static const struct shdr *section_by_name(struct elf *e, const char *want)
{
	const char *name = NULL;   /* gcc -O3 cannot see that bad() is not 0 */
	uint32_t k;

	for (k = 0; k < e->shnum; k++)
		if (!section_name(e, &e->sh[k], &name) && !strcmp(name, want))
			return &e->sh[k];
	return NULL;
}

static uint64_t le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* perf's dso__synthesize_plt_symbols: a "NAME@plt" symbol for each entry
 * of .rela.plt (or .rel.plt) in .plt (not .plt.sec, not .plt.got), from
 * the binary at path (the runtime file), inserted into perf's tree after
 * the others with no fix-up: they overlap a zero-size symbol stretched
 * over .plt (_init), and which of the two perf prints depends on its
 * tree (symset.c).  Returns 0 (also when there is nothing to add) or an
 * error. */
static int plt_symbols(const char *path, struct ptd_symtab *t, struct ptd_err *err)
{
	struct elf e = { .path = path, .fd = -1, .err = err };
	const struct shdr *rel, *plt, *dynsym, *dynstr;
	char *rraw = NULL, *sraw = NULL, *str = NULL;
	uint64_t i, n, relsz, symsz, off, hdr, ent;
	Elf64_Ehdr h;
	struct stat st;
	int rc, rela = 1;

	e.fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (e.fd < 0 || fstat(e.fd, &st) || !S_ISREG(st.st_mode)) {
		rc = 0;
		goto out;
	}
	e.fsize = (uint64_t)st.st_size;
	rc = read_ehdr(&e, &h);
	if (!rc)
		rc = read_sections(&e, &h);
	if (rc)
		goto out;
	e.machine = h.e_machine;
	rel = section_by_name(&e, ".rela.plt");
	if (!rel) {
		rel = section_by_name(&e, ".rel.plt");
		rela = 0;
	}
	plt = section_by_name(&e, ".plt");
	for (dynsym = NULL, i = 0; i < e.shnum && !dynsym; i++)
		if (e.sh[i].type == SHT_DYNSYM)
			dynsym = &e.sh[i];
	if (!rel || !plt || !dynsym || rel->link != (uint32_t)(dynsym - e.sh) ||
	    dynsym->link >= e.shnum)
		goto out;
	dynstr = &e.sh[dynsym->link];
	relsz = e.is64 ? (rela ? 24 : 16) : (rela ? 12 : 8);
	symsz = e.is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	if (!rel->entsize || rel->entsize < relsz || dynsym->entsize != symsz)
		goto out;
	n = rel->size / rel->entsize;
	if (n > PTD_SYMTAB_MAX_SYMS)
		goto out;
	switch (e.machine) {
	case EM_ARM: hdr = 20; ent = 12; break;
	case EM_AARCH64: hdr = 32; ent = 16; break;
	default: hdr = ent = plt->entsize; break;
	}
	if ((rc = read_section(&e, rel, &rraw, ".rela.plt")) ||
	    (rc = read_section(&e, dynsym, &sraw, ".dynsym")) ||
	    (rc = read_section(&e, dynstr, &str, ".dynstr")))
		goto out;
	if (!dynstr->size)
		goto out;
	if (ptd_symset_reserve(t, n)) {
		rc = bad(&e, PTD_E_NOMEM, "out of memory");
		goto out;
	}
	off = plt->offset + hdr;
	for (i = 0; i < n; i++, off += ent) {
		const unsigned char *r = (const unsigned char *)rraw + i * rel->entsize;
		uint64_t info = e.is64 ? le(r + 8, 8) : le(r + 4, 4);
		uint64_t si = e.is64 ? info >> 32 : info >> 8, name;
		size_t len, full;
		char *ns;

		if (si >= dynsym->size / symsz)
			continue;
		name = le((const unsigned char *)sraw + si * symsz, 4);
		if (name >= dynstr->size)
			continue;
		len = strlen(str + name);
		/* perf prints it into 1024 bytes: snprintf(buf, 1024, "%s@plt") */
		full = len + 4 > 1023 ? 1023 : len + 4;
		if (t->strsz + full + 1 >= UINT32_MAX / 2)
			break;
		ns = realloc(t->strs, t->strsz + full + 1);
		if (!ns) {
			rc = bad(&e, PTD_E_NOMEM, "out of memory");
			goto out;
		}
		t->strs = ns;
		memcpy(t->strs + t->strsz, str + name, len < full ? len : full);
		if (len < full)
			memcpy(t->strs + t->strsz + len, "@plt", full - len);
		t->strs[t->strsz + full] = 0;
		ptd_symset_insert(t, off, off + ent, (uint32_t)t->strsz, STB_GLOBAL);
		t->strsz += full + 1;
	}
out:
	if (e.fd >= 0)
		close(e.fd);
	free(e.sh);
	free(e.shstr);
	free(rraw);
	free(sraw);
	free(str);
	return rc;
}

/* The PT_LOAD segments of the ELF file at path into t. */
static int runtime_loads(const char *path, struct ptd_symtab *t, struct ptd_err *err)
{
	struct elf e = { .path = path, .fd = -1, .err = err };
	Elf64_Ehdr h;
	struct stat st;
	int rc;

	e.fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (e.fd < 0)
		return ptd_err_set(err, PTD_E_IO, "%s: %s", path, strerror(errno));
	if (fstat(e.fd, &st) || !S_ISREG(st.st_mode)) {
		close(e.fd);
		return ptd_err_set(err, PTD_E_IO, "%s: not a regular file", path);
	}
	e.fsize = (uint64_t)st.st_size;
	rc = read_ehdr(&e, &h);
	if (!rc)
		rc = read_loads(&e, &h, t);
	close(e.fd);
	return rc;
}

int ptd_symtab_load(const char *path, struct ptd_symtab **out, struct ptd_err *err)
{
	return ptd_symtab_load_with(path, NULL, out, err);
}

int ptd_symtab_load_with(const char *path, const char *runtime, struct ptd_symtab **out,
			 struct ptd_err *err)
{
	struct elf e = { .path = path, .fd = -1, .err = err };
	struct ptd_symtab *t;
	Elf64_Ehdr h;
	struct stat st;
	int rc;

	*out = NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return ptd_err_set(err, PTD_E_NOMEM, "%s: out of memory", path);
	e.fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (e.fd < 0) {
		rc = ptd_err_set(err, PTD_E_IO, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (fstat(e.fd, &st) || !S_ISREG(st.st_mode)) {
		rc = ptd_err_set(err, PTD_E_IO, "%s: not a regular file", path);
		goto out;
	}
	e.fsize = (uint64_t)st.st_size;
	rc = read_ehdr(&e, &h);
	if (!rc) {
		e.machine = h.e_machine;
		rc = runtime ? runtime_loads(runtime, t, err) : read_loads(&e, &h, t);
	}
	if (!rc)
		rc = read_sections(&e, &h);
	if (!rc)
		rc = read_symbols(&e, t);
	/* perf adds them after fixing the others' ends, and only when it found some */
	if (!rc && t->n)
		rc = plt_symbols(runtime ? runtime : path, t, err);
	if (!rc && ptd_symset_index(t))
		rc = ptd_err_set(err, PTD_E_NOMEM, "%s: out of memory", path);
out:
	if (e.fd >= 0)
		close(e.fd);
	free(e.sh);
	free(e.shstr);
	if (rc) {
		ptd_symtab_free(t);
		return rc;
	}
	*out = t;
	return 0;
}

int ptd_symtab_has_symtab(const char *path)
{
	struct ptd_err err;
	struct elf e = { .path = path, .fd = -1, .err = &err };
	Elf64_Ehdr h;
	struct stat st;
	uint32_t k;
	int full = 0;

	e.fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (e.fd >= 0 && !fstat(e.fd, &st) && S_ISREG(st.st_mode)) {
		e.fsize = (uint64_t)st.st_size;
		if (!read_ehdr(&e, &h) && !read_sections(&e, &h))
			for (k = 0; k < e.shnum && !full; k++)
				full = e.sh[k].type == SHT_SYMTAB;
	}
	if (e.fd >= 0)
		close(e.fd);
	free(e.sh);
	free(e.shstr);
	return full;
}

void ptd_symtab_free(struct ptd_symtab *t)
{
	if (!t)
		return;
	free(t->syms);
	free(t->strs);
	free(t->loads);
	free(t->keys);
	free(t->ops);
	free(t->zone_end);
	free(t->nodes);
	free(t);
}

size_t ptd_symtab_count(const struct ptd_symtab *t)
{
	return t->n;
}

size_t ptd_symtab_bytes(const struct ptd_symtab *t)
{
	return sizeof(*t) + t->n * sizeof(*t->syms) + t->strsz +
	       t->nloads * sizeof(*t->loads) + t->nzones * sizeof(*t->zone_end) +
	       (t->nzones ? t->n * sizeof(*t->nodes) : 0) +
	       (t->keys ? t->nseq * sizeof(*t->keys) + t->capops * sizeof(*t->ops) : 0);
}

int ptd_symtab_vaddr_to_offset(const struct ptd_symtab *t, uint64_t vaddr, uint64_t *off)
{
	const struct load *l = load_of(t, vaddr);

	if (!l)
		return -PTD_E_NOTFOUND;
	*off = vaddr - l->vaddr + l->offset;
	return 0;
}

int ptd_symtab_full(const struct ptd_symtab *t)
{
	return t->full;
}
