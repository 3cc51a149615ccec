/* The symbol table cache (symbols.h): tables by path, least recently used
 * dropped first, failed loads remembered with their error. */
#include "symbols.h"

#include <stdlib.h>
#include <string.h>

#define DEFAULT_FILES 64
#define DEFAULT_BYTES ((size_t)512 << 20)

struct entry {
	char *path;
	char *runtime;          /* ptd_symtab_load_with's, or NULL */
	struct ptd_symtab *t;   /* NULL: the load failed with code / msg */
	int code;
	char *msg;
	size_t bytes;
	uint64_t used;          /* clock of the last use */
};

struct ptd_symcache {
	struct entry *e;
	size_t n, max_files;
	size_t bytes, max_bytes;
	uint64_t clock;
	size_t last;            /* entry of the last lookup (checked first) */
	uint64_t generation;    /* tables dropped so far */
	char *kallsyms;         /* the path that loads as a kallsyms file */
	struct probe {          /* ptd_symcache_full's answers by path */
		char *path;
		int full;
	} *probes;
	size_t nprobes, last_probe;
};

struct ptd_symcache *ptd_symcache_new(size_t max_files, size_t max_bytes)
{
	struct ptd_symcache *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->max_files = max_files ? max_files : DEFAULT_FILES;
	c->max_bytes = max_bytes ? max_bytes : DEFAULT_BYTES;
	c->e = calloc(c->max_files, sizeof(*c->e));
	if (!c->e) {
		free(c);
		return NULL;
	}
	return c;
}

static void drop(struct ptd_symcache *c, size_t i)
{
	c->generation++;
	c->bytes -= c->e[i].bytes;
	free(c->e[i].path);
	free(c->e[i].runtime);
	free(c->e[i].msg);
	ptd_symtab_free(c->e[i].t);
	c->e[i] = c->e[--c->n];
}

uint64_t ptd_symcache_generation(const struct ptd_symcache *c)
{
	return c->generation;
}

void ptd_symcache_free(struct ptd_symcache *c)
{
	if (!c)
		return;
	while (c->n)
		drop(c, c->n - 1);
	free(c->e);
	free(c->kallsyms);
	while (c->nprobes)
		free(c->probes[--c->nprobes].path);
	free(c->probes);
	free(c);
}

/* Make room for `bytes` more in one more entry. */
static void evict(struct ptd_symcache *c, size_t bytes)
{
	while (c->n && (c->n >= c->max_files || c->bytes + bytes > c->max_bytes)) {
		size_t i, old = 0;

		for (i = 1; i < c->n; i++)
			if (c->e[i].used < c->e[old].used)
				old = i;
		drop(c, old);
	}
}

/* path's entry, loaded now if needed; NULL only when out of memory. */
static int same(const struct entry *x, const char *path, const char *runtime)
{
	return !strcmp(x->path, path) &&
	       (runtime ? x->runtime && !strcmp(x->runtime, runtime) : !x->runtime);
}

static struct entry *get2(struct ptd_symcache *c, const char *path, const char *runtime,
			  struct ptd_err *err)
{
	struct ptd_symtab *t = NULL;
	struct ptd_err lerr;
	struct entry *x;
	size_t i, bytes;
	int rc;

	c->clock++;
	/* a kallsyms file has addresses: no binary's headers place them */
	if (c->kallsyms && runtime && !strcmp(path, c->kallsyms))
		runtime = NULL;
	if (c->last < c->n && same(&c->e[c->last], path, runtime)) {
		c->e[c->last].used = c->clock;
		return &c->e[c->last];
	}
	for (i = 0; i < c->n; i++)
		if (same(&c->e[i], path, runtime)) {
			c->e[i].used = c->clock;
			c->last = i;
			return &c->e[i];
		}
	ptd_err_clear(&lerr);
	rc = c->kallsyms && !runtime && !strcmp(path, c->kallsyms) ? ptd_symtab_load_kallsyms(path, &t, &lerr)
	     : ptd_symtab_load_with(path, runtime, &t, &lerr);
	if (rc == -PTD_E_NOMEM) {
		ptd_err_set(err, PTD_E_NOMEM, "%s", lerr.msg);
		return NULL;
	}
	bytes = t ? ptd_symtab_bytes(t) : 0;
	evict(c, bytes);
	x = &c->e[c->n];
	memset(x, 0, sizeof(*x));
	x->path = strdup(path);
	x->runtime = runtime ? strdup(runtime) : NULL;
	x->msg = rc ? strdup(lerr.msg) : NULL;
	if (!x->path || (rc && !x->msg) || (runtime && !x->runtime)) {
		free(x->path);
		free(x->runtime);
		free(x->msg);
		ptd_symtab_free(t);
		ptd_err_set(err, PTD_E_NOMEM, "symbol cache: out of memory");
		return NULL;
	}
	x->t = t;
	x->code = rc ? -rc : 0;
	x->bytes = bytes;
	x->used = c->clock;
	c->bytes += bytes;
	c->last = c->n++;
	return x;
}

static struct entry *get(struct ptd_symcache *c, const char *path, struct ptd_err *err)
{
	return get2(c, path, NULL, err);
}

static int failed(const struct entry *x, struct ptd_err *err)
{
	return ptd_err_set(err, x->code, "%s", x->msg);
}

int ptd_symcache_lookup(struct ptd_symcache *c, const char *path, uint64_t off,
			const char **name, uint64_t *symoff, struct ptd_err *err)
{
	return ptd_symcache_lookup_debug(c, path, NULL, off, name, symoff, err);
}

int ptd_symcache_vaddr_to_offset(struct ptd_symcache *c, const char *path, uint64_t vaddr,
				 uint64_t *off, struct ptd_err *err)
{
	struct entry *x = get(c, path, err);
	int rc;

	if (!x)
		return -PTD_E_NOMEM;
	if (!x->t)
		return failed(x, err);
	rc = ptd_symtab_vaddr_to_offset(x->t, vaddr, off);
	if (rc)
		return ptd_err_set(err, PTD_E_NOTFOUND, "%s: no PT_LOAD segment holds %#llx", path,
				   (unsigned long long)vaddr);
	return 0;
}

/* From the file's headers, not its symbols: the table is loaded once,
 * with the binary's headers, when a lookup asks for it. */
int ptd_symcache_full(struct ptd_symcache *c, const char *path)
{
	struct probe *p;
	struct entry *x;
	size_t i;

	if (c->kallsyms && !strcmp(path, c->kallsyms)) {   /* not ELF: its table says */
		if (!(x = get(c, path, NULL)))
			return -PTD_E_NOMEM;
		return x->t ? ptd_symtab_full(x->t) : 0;
	}
	if (c->last_probe < c->nprobes && !strcmp(c->probes[c->last_probe].path, path))
		return c->probes[c->last_probe].full;
	for (i = 0; i < c->nprobes; i++)
		if (!strcmp(c->probes[i].path, path)) {
			c->last_probe = i;
			return c->probes[i].full;
		}
	if (!(c->nprobes & (c->nprobes + 1))) {   /* 0, 1, 3, 7 ...: full */
		p = realloc(c->probes, (2 * c->nprobes + 1) * sizeof(*p));
		if (!p)
			return -PTD_E_NOMEM;
		c->probes = p;
	}
	p = &c->probes[c->nprobes];
	if (!(p->path = strdup(path)))
		return -PTD_E_NOMEM;
	p->full = ptd_symtab_has_symtab(path);
	c->last_probe = c->nprobes++;
	return p->full;
}

int ptd_symcache_lookup_debug(struct ptd_symcache *c, const char *symfile, const char *binary,
			      uint64_t off, const char **name, uint64_t *symoff, struct ptd_err *err)
{
	return ptd_symcache_lookup_info(c, symfile, binary, off, name, symoff, NULL, err);
}

int ptd_symcache_lookup_info(struct ptd_symcache *c, const char *symfile, const char *binary,
			     uint64_t off, const char **name, uint64_t *symoff,
			     struct ptd_sym_info *info, struct ptd_err *err)
{
	struct entry *x = get2(c, symfile, binary, err);

	if (!x)
		return -PTD_E_NOMEM;
	if (!x->t)
		return failed(x, err);
	if (ptd_symtab_lookup_info(x->t, off, name, symoff, info))
		return ptd_err_set(err, PTD_E_NOTFOUND, "%s: no symbol at offset %#llx", symfile,
				   (unsigned long long)off);
	return 0;
}

int ptd_symcache_set_kallsyms(struct ptd_symcache *c, const char *path)
{
	free(c->kallsyms);
	c->kallsyms = strdup(path);
	return c->kallsyms ? 0 : -PTD_E_NOMEM;
}

int ptd_symcache_kallsyms_info(struct ptd_symcache *c, struct ptd_kallsyms_info *ki)
{
	struct entry *x = c->kallsyms ? get(c, c->kallsyms, NULL) : NULL;

	return x && x->t ? ptd_symtab_kallsyms_info(x->t, ki) : -1;
}
