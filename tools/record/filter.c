/* Address filters for the emulated recorder: see filter.h. */
#include "tools/record/filter.h"
#include "symbols.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ptd_rfilter_init(struct ptd_rfilter *f, const char *spec, const char *program,
		     const char *name, struct ptd_err *err)
{
	char real[PATH_MAX], *copy = NULL, *tok, *save = NULL;
	struct ptd_symtab *syms = NULL;
	struct ptd_sym_info si;
	size_t len, i;
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
			if (!syms && (rc = ptd_symtab_load(real, &syms, err)))
				goto out;
			if (ptd_symtab_find(syms, tok, &si)) {
				rc = ptd_err_set(err, PTD_E_INVAL, "--filter: no function '%s' in %s", tok,
						 real);
				goto out;
			}
			f->off[f->n] = si.start;
			f->size[f->n] = si.end - si.start;
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
	ptd_symtab_free(syms);
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
