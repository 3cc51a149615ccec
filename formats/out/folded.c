/* --format=folded: see folded.h. */
#include "formats/out/folded.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/u64map.h"
#include "common/vec.h"

struct stack {
	uint64_t count;
	struct stack *next;           /* same hash */
	char text[];
};

struct ptd_folded {
	struct ptd_u64map byhash;     /* hash -> struct stack * chain */
	struct ptd_vec all;           /* struct stack * */
	char *buf;                    /* the stack being built */
	size_t cap;
};

struct ptd_folded *ptd_folded_new(void)
{
	struct ptd_folded *f = calloc(1, sizeof(*f));

	if (f)
		f->all = (struct ptd_vec)PTD_VEC_INIT(sizeof(struct stack *));
	return f;
}

void ptd_folded_free(struct ptd_folded *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->all.len; i++)
		free(*(struct stack **)ptd_vec_at(&f->all, i));
	ptd_vec_fini(&f->all);
	ptd_u64map_fini(&f->byhash);
	free(f->buf);
	free(f);
}

/* append s to the buffer at *len, from -> to; -1 when out of memory */
static int put(struct ptd_folded *f, size_t *len, const char *s, char from, char to)
{
	size_t n = strlen(s), i;

	if (*len + n + 2 > f->cap) {
		size_t cap = (*len + n + 2) * 2;
		char *b = realloc(f->buf, cap);

		if (!b)
			return -1;
		f->buf = b;
		f->cap = cap;
	}
	for (i = 0; i < n; i++)
		f->buf[(*len)++] = s[i] == from ? to : s[i];
	f->buf[*len] = 0;
	return 0;
}

int ptd_folded_add(struct ptd_folded *f, const char *comm, const char *const *frames, size_t n)
{
	struct stack *first, *s, **slot;
	size_t len = 0, i;
	uint64_t h;

	if (put(f, &len, comm ? comm : "[unknown]", ' ', '_'))
		return -1;
	for (i = n; i--;)
		if (put(f, &len, ";", 0, 0) || put(f, &len, frames[i] ? frames[i] : "[unknown]", ';', ':'))
			return -1;
	h = ptd_u64map_str_key(f->buf);
	first = ptd_u64map_get(&f->byhash, h);
	for (s = first; s; s = s->next)
		if (!strcmp(s->text, f->buf)) {
			s->count++;
			return 0;
		}
	if (f->all.len >= PTD_FOLDED_MAX || !(s = malloc(sizeof(*s) + len + 1)))
		return -1;
	memcpy(s->text, f->buf, len + 1);
	s->count = 1;
	s->next = first;
	if (!(slot = ptd_vec_push(&f->all))) {
		free(s);
		return -1;
	}
	*slot = s;
	if (ptd_u64map_put(&f->byhash, h, s)) {
		f->all.len--;
		free(s);
		return -1;
	}
	return 0;
}

static int by_text(const void *a, const void *b)
{
	return strcmp((*(struct stack *const *)a)->text, (*(struct stack *const *)b)->text);
}

int ptd_folded_print(const struct ptd_folded *f, FILE *out)
{
	struct stack **v;
	size_t i, n = f->all.len;

	if (!n)
		return ferror(out) ? -1 : 0;
	if (!(v = malloc(n * sizeof(*v))))
		return -1;
	memcpy(v, ptd_vec_at(&f->all, 0), n * sizeof(*v));
	qsort(v, n, sizeof(*v), by_text);
	for (i = 0; i < n; i++)
		fprintf(out, "%s %" PRIu64 "\n", v[i]->text, v[i]->count);
	free(v);
	return ferror(out) ? -1 : 0;
}
