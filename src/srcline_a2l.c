/* addr2line's answer for an address, from libdw and libelf: see
 * srcline_a2l.h and the rules in srcline.h. */
#include "config.h"

#include "srcline_a2l.h"

#ifdef HAVE_LIBDW

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dw_load.h"
#include "elf_load.h"

/* Limits on one file (hostile files: bounded memory). */
#define MAX_SECS 65536u
#define MAX_SYMS (1u << 22)

struct sec {
	uint64_t addr, size;
	size_t index;
};

/* A symbol as binutils' elf_find_function sees it */
struct sym {
	uint64_t value, size;
	size_t shndx;
	uint32_t name;            /* offset in the string table */
	uint8_t type, bind, vis;
};

struct ptd_a2l {
	int fd;
	Elf *elf;
	Dwarf *dw;                /* NULL: no DWARF */
	struct sec *secs;
	size_t nsecs;
	struct sym *syms;         /* symbol table order */
	size_t nsyms;
	size_t strndx;            /* the symbols' string table section */
	/* the rows of the last unit's line table that name DWARF 5's file 1
	 * only by default (no set_file before them in their sequence) */
	Dwarf_Lines *dflt_lines;
	uint8_t *dflt;
	char *path;               /* the last file name joined with comp_dir */
	/* binutils' elf_find_function cache: the last answer, reused for
	 * addresses of its section within [start, start + size) */
	const struct sec *c_sec;
	const struct sym *c_best, *c_file;
	uint64_t c_size;
};

static int load_symbols(struct ptd_a2l *a)
{
	Elf_Scn *scn = NULL, *tab = NULL;
	GElf_Shdr sh, tsh;
	Elf_Data *d;
	size_t i, n;

	while ((scn = elf_nextscn(a->elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB) {
			tab = scn;
			tsh = sh;
			break;
		}
		if (sh.sh_type == SHT_DYNSYM && !tab) {
			tab = scn;
			tsh = sh;
		}
	}
	if (!tab || !tsh.sh_entsize || !(d = elf_getdata(tab, NULL)))
		return 0;
	if (!gelf_fsize(a->elf, ELF_T_SYM, 1, EV_CURRENT) || !d->d_buf)
		return 0;
	n = d->d_size / gelf_fsize(a->elf, ELF_T_SYM, 1, EV_CURRENT);
	if (n > MAX_SYMS)
		n = MAX_SYMS;
	if (!n)
		return 0;
	a->syms = calloc(n, sizeof(*a->syms));
	if (!a->syms)
		return -1;
	a->strndx = tsh.sh_link;
	for (i = 1; i < n; i++) {           /* bfd skips the null symbol */
		GElf_Sym s;
		struct sym *o = &a->syms[a->nsyms];

		if (!gelf_getsym(d, (int)i, &s))
			break;
		o->value = s.st_value;
		o->size = s.st_size;
		o->shndx = s.st_shndx;
		o->name = s.st_name;
		o->type = GELF_ST_TYPE(s.st_info);
		o->bind = GELF_ST_BIND(s.st_info);
		o->vis = GELF_ST_VISIBILITY(s.st_other);
		a->nsyms++;
	}
	return 0;
}

static int load_sections(struct ptd_a2l *a)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t cap = 0;

	while ((scn = elf_nextscn(a->elf, scn)) && a->nsecs < MAX_SECS) {
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || !sh.sh_size)
			continue;
		if (a->nsecs == cap) {
			struct sec *n = realloc(a->secs, (cap ? cap * 2 : 32) * sizeof(*n));

			if (!n)
				return -1;
			a->secs = n;
			cap = cap ? cap * 2 : 32;
		}
		a->secs[a->nsecs].addr = sh.sh_addr;
		a->secs[a->nsecs].size = sh.sh_size;
		a->secs[a->nsecs++].index = elf_ndxscn(scn);
	}
	return 0;
}

struct ptd_a2l *ptd_a2l_open(const char *path)
{
	struct ptd_a2l *a;

	if (ptd_elf_load())
		return NULL;
	elf_version(EV_CURRENT);
	a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	a->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (a->fd < 0) {
		free(a);
		return NULL;
	}
	a->elf = elf_begin(a->fd, ELF_C_READ_MMAP, NULL);
	if (!a->elf || elf_kind(a->elf) != ELF_K_ELF || load_sections(a) || load_symbols(a)) {
		ptd_a2l_close(a);
		return NULL;
	}
	/* NULL: no DWARF, or no libdw */
	a->dw = ptd_dw_load() ? NULL : dwarf_begin_elf(a->elf, DWARF_C_READ, NULL);
	return a;
}

void ptd_a2l_close(struct ptd_a2l *a)
{
	if (!a)
		return;
	if (a->dw)
		dwarf_end(a->dw);
	if (a->elf)
		elf_end(a->elf);
	if (a->fd >= 0)
		close(a->fd);
	free(a->secs);
	free(a->syms);
	free(a->dflt);
	free(a->path);
	free(a);
}

/* The compilation unit covering addr: aranges, else every unit's ranges. */
static int find_cu(Dwarf *dw, uint64_t addr, Dwarf_Die *cu)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	if (dwarf_addrdie(dw, addr, cu))
		return 1;
	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (dwarf_offdie(dw, off + hsize, cu) && dwarf_haspc(cu, addr) == 1)
			return 1;
		if (next <= off)
			break;
		off = next;
	}
	return 0;
}

/* binutils starts each sequence of a DWARF 5 line table with file entry 0
 * where DWARF says 1: the rows before the sequence's first set_file name
 * entry 0.  The rows (in address order, sequences apart) whose file is 1
 * with no other file before them in their sequence are marked in
 * a->dflt.  Returns 0, or -1 when out of memory. */
static int mark_default_rows(struct ptd_a2l *a, Dwarf_Lines *lines, size_t n)
{
	int explicit_file = 0;
	size_t i;

	if (a->dflt_lines == lines)
		return 0;
	free(a->dflt);
	a->dflt_lines = NULL;
	if (!(a->dflt = calloc(n, 1)))
		return -1;
	for (i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Files *files;
		size_t idx;
		bool end = false;

		if (!l || dwarf_line_file(l, &files, &idx))
			continue;
		if (idx != 1)
			explicit_file = 1;
		a->dflt[i] = !explicit_file && idx == 1;
		if (!dwarf_lineendsequence(l, &end) && end)
			explicit_file = 0;
	}
	a->dflt_lines = lines;
	return 0;
}

/* The line table row's file as binutils names it: libdw joins a relative
 * name with its directory; binutils also puts the unit's comp_dir before
 * a relative directory. */
static const char *row_file(struct ptd_a2l *a, Dwarf_Die *cu, Dwarf_Lines *lines, size_t n,
			    size_t i)
{
	Dwarf_Line *l = dwarf_onesrcline(lines, i);
	Dwarf_Half version = 0;
	Dwarf_Files *files;
	Dwarf_Attribute at;
	const char *name, *comp;
	size_t idx;

	if (dwarf_cu_info(cu->cu, &version, NULL, NULL, NULL, NULL, NULL, NULL) == 0 &&
	    version >= 5 && !mark_default_rows(a, lines, n) && a->dflt[i] &&
	    !dwarf_line_file(l, &files, &idx))
		name = dwarf_filesrc(files, 0, NULL, NULL);
	else
		name = dwarf_linesrc(l, NULL, NULL);
	if (!name || name[0] == '/' ||
	    !(comp = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &at))))
		return name;
	free(a->path);
	a->path = malloc(strlen(comp) + strlen(name) + 2);
	if (!a->path)
		return name;
	strcpy(a->path, comp);
	strcat(a->path, "/");
	strcat(a->path, name);
	return a->path;
}

/* The line table row for addr: of the rows at the greatest address at or
 * below addr, the last that does not end a sequence. */
static int dwarf_line(struct ptd_a2l *a, uint64_t addr, const char **file, unsigned *line)
{
	Dwarf_Die cu;
	Dwarf_Lines *lines;
	size_t n, lo, hi, i;
	Dwarf_Addr la, at;

	if (!a->dw || !find_cu(a->dw, addr, &cu) || dwarf_getsrclines(&cu, &lines, &n) || !n)
		return 0;
	lo = 0;
	hi = n;                     /* first row above addr: lo */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (dwarf_lineaddr(dwarf_onesrcline(lines, mid), &la))
			return 0;
		if (la <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || dwarf_lineaddr(dwarf_onesrcline(lines, lo - 1), &at))
		return 0;
	for (i = lo; i-- > 0;) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		bool end;
		int ln;

		if (!l || dwarf_lineaddr(l, &la) || la != at)
			break;
		if (dwarf_lineendsequence(l, &end) || end)
			continue;
		*file = row_file(a, &cu, lines, n, i);
		if (dwarf_lineno(l, &ln) || ln < 0)
			ln = 0;
		*line = (unsigned)ln;
		return 1;
	}
	return 0;
}

/* binutils' better_fit(): is symbol s (code at off, size) a better match
 * for addr than the best so far? */
static int better_fit(const struct sym *best, uint64_t best_off, uint64_t best_size,
		      const struct sym *s, uint64_t off, uint64_t size, uint64_t addr)
{
	int bfunc, sfunc;

	if (off > addr || off < best_off)
		return 0;
	if (off > best_off)
		return 1;
	if (best_off + best_size <= addr)
		return size > best_size;
	if (off + size <= addr)
		return 0;
	bfunc = best->type == STT_FUNC || best->type == STT_GNU_IFUNC;
	sfunc = s->type == STT_FUNC || s->type == STT_GNU_IFUNC;
	if (bfunc != sfunc)
		return sfunc;
	if (best->type == STT_NOTYPE && s->type != STT_NOTYPE)
		return 1;
	if (s->type == STT_NOTYPE && best->type != STT_NOTYPE)
		return 0;
	return size < best_size;
}

/* binutils' elf_find_function(): the function symbol of section sec
 * nearest below addr and the file symbol that goes with it. */
static int symtab_line(struct ptd_a2l *a, const struct sec *sec, uint64_t addr, const char **file)
{
	enum { NOTHING_SEEN, SYMBOL_SEEN, FILE_AFTER_SYMBOL_SEEN } state = NOTHING_SEEN;
	const struct sym *filesym = NULL, *best = NULL, *bestfile = NULL;
	uint64_t best_off = 0, best_size = 0;
	size_t i;

	if (a->c_best && a->c_sec == sec && addr >= a->c_best->value &&
	    addr - a->c_best->value < a->c_size) {
		best = a->c_best;
		bestfile = a->c_file;
		goto found;
	}
	for (i = 0; i < a->nsyms; i++) {
		const struct sym *s = &a->syms[i];
		uint64_t size;

		if (s->type == STT_FILE) {
			filesym = s;
			if (state == SYMBOL_SEEN)
				state = FILE_AFTER_SYMBOL_SEEN;
			continue;
		}
		if (state == NOTHING_SEEN)
			state = SYMBOL_SEEN;
		/* _bfd_elf_maybe_function_sym() */
		if (s->type == STT_SECTION || s->type == STT_OBJECT || s->type == STT_TLS ||
		    s->shndx != sec->index || s->shndx == SHN_UNDEF || s->shndx >= SHN_LORESERVE)
			continue;
		size = s->size;
		if (!size && s->bind == STB_LOCAL && s->type == STT_NOTYPE && s->vis == STV_HIDDEN)
			continue;
		if (!size)
			size = 1;
		if (!best ? s->value <= addr
			  : better_fit(best, best_off, best_size, s, s->value, size, addr)) {
			best = s;
			best_off = s->value;
			best_size = size;
			bestfile = filesym && (s->bind == STB_LOCAL || state != FILE_AFTER_SYMBOL_SEEN)
				   ? filesym : NULL;
		} else if (best && s->value > addr && s->value > best_off &&
			   s->value < best_off + best_size) {
			best_size = s->value - best_off;
		}
	}
	a->c_sec = sec;
	a->c_best = best;
	a->c_file = bestfile;
	a->c_size = best_size;
	if (!best)
		return 0;
found:
	*file = bestfile ? elf_strptr(a->elf, a->strndx, bestfile->name) : NULL;
	return 1;
}

int ptd_a2l_lookup(struct ptd_a2l *a, uint64_t addr, const char **file, unsigned *line)
{
	size_t i;

	*file = NULL;
	*line = 0;
	for (i = 0; i < a->nsecs; i++) {
		const struct sec *s = &a->secs[i];

		if (addr < s->addr || addr - s->addr >= s->size)
			continue;
		if (dwarf_line(a, addr, file, line))
			return 1;
		if (symtab_line(a, s, addr, file))
			return 1;
	}
	return 0;
}

uint64_t ptd_a2l_text_offset(const char *path)
{
	int fd;
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	uint64_t r = 0;

	if (ptd_elf_load() || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF && !elf_getshdrstrndx(elf, &shstrndx)) {
		while ((scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;
			const char *name;

			if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
				continue;
			if (!strcmp(name, ".text")) {
				r = sh.sh_addr - sh.sh_offset;
				break;
			}
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return r;
}

#else /* !HAVE_LIBDW */

struct ptd_a2l *ptd_a2l_open(const char *path)
{
	(void)path;
	return NULL;
}

void ptd_a2l_close(struct ptd_a2l *a)
{
	(void)a;
}

int ptd_a2l_lookup(struct ptd_a2l *a, uint64_t addr, const char **file, unsigned *line)
{
	(void)a;
	(void)addr;
	*file = NULL;
	*line = 0;
	return 0;
}

uint64_t ptd_a2l_text_offset(const char *path)
{
	(void)path;
	return 0;
}

#endif
