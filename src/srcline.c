/* Source lines as perf script prints them: see srcline.h.  perf's side
 * (util/srcline.c __get_srcline, util/map.c map__fprintf_srcline): the
 * per-dso give-up rule, the fallback text, the cache; the lookup itself
 * is srcline_a2l.c. */
#include "config.h"

#include "srcline.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/u64map.h"
#include "srcline_a2l.h"

#define A2L_FAIL_LIMIT 123            /* perf's */
#define MAX_CACHED (1u << 22)         /* answers kept, all dsos together */

struct answer {
	char *text;                   /* "file:line"; NULL: found, nothing printed */
	int found;
};

struct dso {
	char *name;
	struct dso *next;             /* same hash */
	struct ptd_a2l *a2l;
	int opened;
	uint64_t text_offset;
	unsigned fails;               /* perf's dso->a2l_fails */
	int has_srcline;
	struct ptd_u64map cache;      /* file offset -> struct answer */
};

struct ptd_srcline {
	int full_path;
	struct ptd_u64map dsos;       /* name hash -> struct dso chain */
	size_t cached;
	char buf[4096 + 32];          /* the fallback text, and uncached answers */
	struct answer tmp;
};

int ptd_srcline_available(void)
{
#ifdef HAVE_LIBDW
	return 1;
#else
	return 0;
#endif
}

struct ptd_srcline *ptd_srcline_new(int full_path)
{
	struct ptd_srcline *s;

	if (!ptd_srcline_available())
		return NULL;
	s = calloc(1, sizeof(*s));
	if (s)
		s->full_path = full_path;
	return s;
}

static void answer_free(struct answer *a)
{
	if (a) {
		free(a->text);
		free(a);
	}
}

void ptd_srcline_free(struct ptd_srcline *s)
{
	size_t i = 0;
	uint64_t k;
	void *v;

	if (!s)
		return;
	while (ptd_u64map_next(&s->dsos, &i, &k, &v)) {
		struct dso *d = v;

		while (d) {
			struct dso *next = d->next;
			size_t j = 0;
			void *a;

			while (ptd_u64map_next(&d->cache, &j, &k, &a))
				answer_free(a);
			ptd_u64map_fini(&d->cache);
			ptd_a2l_close(d->a2l);
			free(d->name);
			free(d);
			d = next;
		}
	}
	ptd_u64map_fini(&s->dsos);
	free(s->tmp.text);
	free(s);
}

static struct dso *dso_get(struct ptd_srcline *s, const char *name, const char *runtime)
{
	uint64_t key = ptd_u64map_str_key(name);
	struct dso *head = ptd_u64map_get(&s->dsos, key), *d;

	for (d = head; d; d = d->next)
		if (!strcmp(d->name, name))
			return d;
	d = calloc(1, sizeof(*d));
	if (!d || !(d->name = strdup(name))) {
		free(d);
		return NULL;
	}
	d->fails = 1;                 /* perf's dso__new */
	d->has_srcline = 1;
	d->text_offset = runtime ? ptd_a2l_text_offset(runtime) : 0;
	d->next = head;
	if (ptd_u64map_put(&s->dsos, key, d)) {
		free(d->name);
		free(d);
		return NULL;
	}
	return d;
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/* perf's dso__name(): no lookup for "[kernel.kallsyms]" and the like, nor
 * for perf map files */
static int asks(const char *file)
{
	return file && file[0] != '[' && strncmp(file, "/tmp/perf-", 10);
}

/* What addr2line answers, as perf turns it into text */
static int lookup(struct ptd_srcline *s, struct dso *d, const char *file, uint64_t addr,
		  struct answer *a)
{
	const char *src;
	unsigned line;
	int n;

	a->found = 0;
	a->text = NULL;
	if (!asks(file))
		return 0;
	if (!d->opened) {
		d->opened = 1;
		d->a2l = ptd_a2l_open(file);
	}
	if (!d->a2l || !ptd_a2l_lookup(d->a2l, addr, &src, &line))
		return 0;
	a->found = 1;
	if (!src)
		src = "??";
	if (!s->full_path)
		src = base_name(src);
	/* map__fprintf_srcline prints nothing for "??:0..." */
	if (!strcmp(src, "??") && line == 0)
		return 0;
	n = snprintf(NULL, 0, "%s:%u", src, line);
	if (n < 0 || !(a->text = malloc((size_t)n + 1)))
		return -1;
	snprintf(a->text, (size_t)n + 1, "%s:%u", src, line);
	return 0;
}

const char *ptd_srcline_get(struct ptd_srcline *s, const char *name, const char *file,
			    const char *runtime, uint64_t off)
{
	struct dso *d;
	struct answer *a;
	uint64_t addr;

	if (!s || !name || !(d = dso_get(s, name, runtime)))
		return NULL;
	addr = off + d->text_offset;
	a = ptd_u64map_get(&d->cache, off);
	if (!a && d->has_srcline) {
		a = calloc(1, sizeof(*a));
		if (a && !lookup(s, d, file, addr, a) && s->cached < MAX_CACHED &&
		    !ptd_u64map_put(&d->cache, off, a)) {
			s->cached++;
		} else if (a) {
			/* not kept: answered from tmp until the next call */
			free(s->tmp.text);
			s->tmp = *a;
			free(a);
			a = &s->tmp;
		}
	}
	if (d->has_srcline && a && a->found) {
		d->fails = 0;
		return a->text;
	}
	if (d->fails && ++d->fails > A2L_FAIL_LIMIT)
		d->has_srcline = 0;
	snprintf(s->buf, sizeof(s->buf), "%s[%" PRIx64 "]", base_name(name), addr);
	return s->buf;
}
