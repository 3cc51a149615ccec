/* Address filters for the emulated recorder: see filter.h. */
#include "tools/record/filter.h"

#include <ctype.h>
#include <elf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the whole file, or NULL */
static uint8_t *slurp(const char *path, size_t *size)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!fp)
		return NULL;
	if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) > 0 && n < (1L << 30) &&
	    fseek(fp, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n)) &&
	    fread(buf, 1, (size_t)n, fp) == (size_t)n) {
		*size = (size_t)n;
	} else {
		free(buf);
		buf = NULL;
	}
	fclose(fp);
	return buf;
}

static int in(uint64_t off, uint64_t len, size_t size)
{
	return off <= size && len <= size - off;
}

/* The file range of function `name` in the ELF64 file d: 0, or -1 */
static int find_sym(const uint8_t *d, size_t size, const char *name, uint64_t *off, uint64_t *len)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)d;
	const Elf64_Shdr *sh;
	const Elf64_Phdr *ph;
	size_t i, j;

	if (size < sizeof(*eh) || memcmp(d, ELFMAG, SELFMAG) || d[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shentsize != sizeof(*sh) || eh->e_phentsize != sizeof(*ph) ||
	    !in(eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(*sh), size) ||
	    !in(eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(*ph), size))
		return -1;
	sh = (const Elf64_Shdr *)(d + eh->e_shoff);
	ph = (const Elf64_Phdr *)(d + eh->e_phoff);
	for (i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *st = &sh[i], *str;
		const Elf64_Sym *sym;

		if (st->sh_type != SHT_SYMTAB || st->sh_link >= eh->e_shnum ||
		    !in(st->sh_offset, st->sh_size, size))
			continue;
		str = &sh[st->sh_link];
		if (!in(str->sh_offset, str->sh_size, size) || !str->sh_size ||
		    d[str->sh_offset + str->sh_size - 1])
			continue;
		sym = (const Elf64_Sym *)(d + st->sh_offset);
		for (j = 0; j < st->sh_size / sizeof(*sym); j++) {
			size_t k;

			if (ELF64_ST_TYPE(sym[j].st_info) != STT_FUNC || !sym[j].st_size ||
			    sym[j].st_name >= str->sh_size ||
			    strcmp((const char *)d + str->sh_offset + sym[j].st_name, name))
				continue;
			for (k = 0; k < eh->e_phnum; k++)
				if (ph[k].p_type == PT_LOAD && sym[j].st_value >= ph[k].p_vaddr &&
				    sym[j].st_value - ph[k].p_vaddr < ph[k].p_filesz) {
					*off = sym[j].st_value - ph[k].p_vaddr + ph[k].p_offset;
					*len = sym[j].st_size;
					return 0;
				}
		}
	}
	return -1;
}

int ptd_rfilter_init(struct ptd_rfilter *f, const char *spec, const char *program,
		     const char *name, struct ptd_err *err)
{
	char real[PATH_MAX], *copy = NULL, *tok, *save = NULL;
	uint8_t *d = NULL;
	size_t size = 0, len, i;
	int rc = 0;

	memset(f, 0, sizeof(*f));
	if (!realpath(program, real))
		return ptd_err_set(err, PTD_E_IO, "--filter: cannot resolve %s", program);
	if (!(f->path = strdup(real)) || !(f->name = strdup(name)) || !(copy = strdup(spec)))
		goto nomem;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;

		if (f->n == PTD_RFILTER_MAX) {
			rc = ptd_err_set(err, PTD_E_INVAL, "--filter: at most %d regions", PTD_RFILTER_MAX);
			goto out;
		}
		if (isdigit((unsigned char)*tok)) {
			f->off[f->n] = strtoull(tok, &end, 0);
			if (*end != '/' || !(f->size[f->n] = strtoull(end + 1, &end, 0)) || *end) {
				rc = ptd_err_set(err, PTD_E_INVAL, "--filter: '%s' is not OFFSET/SIZE", tok);
				goto out;
			}
		} else {
			if (!d && !(d = slurp(real, &size))) {
				rc = ptd_err_set(err, PTD_E_IO, "--filter: cannot read %s", real);
				goto out;
			}
			if (find_sym(d, size, tok, &f->off[f->n], &f->size[f->n])) {
				rc = ptd_err_set(err, PTD_E_INVAL, "--filter: no function '%s' in %s", tok,
						 real);
				goto out;
			}
		}
		f->n++;
	}
	if (!f->n) {
		rc = ptd_err_set(err, PTD_E_INVAL, "--filter: no region given");
		goto out;
	}
	len = f->n * (sizeof("filter 0x/0x@,") + 32 + strlen(name)) + 1;
	if (!(f->str = malloc(len)))
		goto nomem;
	for (i = 0, f->str[0] = 0; i < f->n; i++)
		snprintf(f->str + strlen(f->str), len - strlen(f->str), "%sfilter 0x%llx/0x%llx@%s",
			 i ? "," : "", (unsigned long long)f->off[i], (unsigned long long)f->size[i],
			 name);
	goto out;
nomem:
	rc = ptd_err_set(err, PTD_E_NOMEM, "--filter: out of memory");
out:
	free(copy);
	free(d);
	if (rc)
		ptd_rfilter_fini(f);
	return rc;
}

void ptd_rfilter_fini(struct ptd_rfilter *f)
{
	free(f->path);
	free(f->name);
	free(f->str);
	memset(f, 0, sizeof(*f));
}

void ptd_rfilter_map(struct ptd_rfilter *f, const struct ptd_xmap *m)
{
	char real[PATH_MAX];
	size_t i;

	if (!m->path || !f->path || !realpath(m->path, real) || strcmp(real, f->path))
		return;
	for (i = 0; i < f->n && f->nva < sizeof(f->va) / sizeof(f->va[0]); i++) {
		uint64_t lo = f->off[i] > m->pgoff ? f->off[i] : m->pgoff;
		uint64_t hi = f->off[i] + f->size[i] < m->pgoff + m->len ? f->off[i] + f->size[i] :
			      m->pgoff + m->len;

		if (lo >= hi)
			continue;
		f->va[f->nva][0] = m->start + (lo - m->pgoff);
		f->va[f->nva][1] = m->start + (hi - m->pgoff);
		f->nva++;
	}
}

int ptd_rfilter_in(void *ctx, uint64_t ip)
{
	const struct ptd_rfilter *f = ctx;
	size_t i;

	for (i = 0; i < f->nva; i++)
		if (ip >= f->va[i][0] && ip < f->va[i][1])
			return 1;
	return 0;
}
