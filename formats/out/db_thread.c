/* Export rows written on a thread: see db_thread.h.
 *
 * A row in a block: the table (a byte), then each value: its type ('i',
 * 'd', 's', or 'n' for a NULL string), and 8 bytes (an integer, a double)
 * or a string's length (4 bytes), its bytes and a NUL. */
#include "db_thread.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK ((size_t)256 * 1024)
#define MAX_BLOCKS 4

struct block {
	struct block *next;
	size_t len, cap;              /* cap > BLOCK: one row's own, freed after */
	uint8_t data[];
};

struct ptd_db_thread {
	struct ptd_db base;
	struct ptd_db *inner;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;            /* a block queued or given back, or the end */
	struct block *full, **full_tail;   /* for the writer, in order */
	struct block *spare;          /* given back */
	struct block *cur;            /* being filled */
	unsigned out;                 /* blocks taken and not given back */
	int done;                     /* no more blocks come */
	int skip;                     /* abort: the writer drops what is left */
	int failed;                   /* a row failed: err */
	struct ptd_err err;
};

static int th_row(struct ptd_db *db, enum ptd_db_table t, const struct ptd_db_val *v,
		  struct ptd_err *err);
static int th_finish(struct ptd_db *db, struct ptd_err *err);
static void th_abort(struct ptd_db *db);

static const struct ptd_db_ops th_ops = { th_row, th_finish, th_abort };

/* The rows of b to the backend; 0, or what its row() returned. */
static int write_rows(struct ptd_db_thread *d, const struct block *b, struct ptd_err *err)
{
	struct ptd_db_val v[32];
	const uint8_t *p = b->data, *end = b->data + b->len;
	int rc;

	while (p < end) {
		enum ptd_db_table t = (enum ptd_db_table)*p++;
		unsigned i, n = ptd_db_columns(t);

		for (i = 0; i < n; i++) {
			uint32_t len;

			v[i].type = (char)*p++;
			v[i].i = 0;
			v[i].d = 0;
			v[i].s = NULL;
			switch (v[i].type) {
			case 'i':
				memcpy(&v[i].i, p, 8);
				p += 8;
				break;
			case 'd':
				memcpy(&v[i].d, p, 8);
				p += 8;
				break;
			case 'n':
				v[i].type = 's';
				break;
			default:
				memcpy(&len, p, 4);
				v[i].s = (const char *)p + 4;
				p += 4 + (size_t)len + 1;
				break;
			}
		}
		if ((rc = d->inner->ops->row(d->inner, t, v, err)))
			return rc;
	}
	return 0;
}

static void *writer(void *arg)
{
	struct ptd_db_thread *d = arg;
	struct ptd_err err;
	int failed = 0;

	ptd_err_clear(&err);
	pthread_mutex_lock(&d->mu);
	for (;;) {
		struct block *b;

		while (!d->full && !d->done)
			pthread_cond_wait(&d->cv, &d->mu);
		if (!(b = d->full))
			break;
		if (!(d->full = b->next))
			d->full_tail = &d->full;
		failed |= d->skip;
		pthread_mutex_unlock(&d->mu);
		if (!failed && write_rows(d, b, &err))
			failed = 1;
		pthread_mutex_lock(&d->mu);
		if (failed && !d->failed && !d->skip) {
			d->err = err;
			__atomic_store_n(&d->failed, 1, __ATOMIC_RELEASE);
		}
		if (b->cap > BLOCK) {
			free(b);
		} else {
			b->next = d->spare;
			d->spare = b;
		}
		d->out--;
		pthread_cond_broadcast(&d->cv);
	}
	pthread_mutex_unlock(&d->mu);
	return NULL;
}

/* b queued for the writer (NULL: nothing) */
static void queue(struct ptd_db_thread *d, struct block *b)
{
	if (!b)
		return;
	pthread_mutex_lock(&d->mu);
	b->next = NULL;
	*d->full_tail = b;
	d->full_tail = &b->next;
	pthread_cond_broadcast(&d->cv);
	pthread_mutex_unlock(&d->mu);
}

/* An empty block for a row of need bytes, once fewer than MAX_BLOCKS are
 * out; NULL when out of memory. */
static struct block *take(struct ptd_db_thread *d, size_t need)
{
	struct block *b = NULL;
	size_t cap = need > BLOCK ? need : BLOCK;

	pthread_mutex_lock(&d->mu);
	while (d->out >= MAX_BLOCKS && !d->failed)
		pthread_cond_wait(&d->cv, &d->mu);
	if (cap == BLOCK && d->spare) {
		b = d->spare;
		d->spare = b->next;
	}
	d->out++;
	pthread_mutex_unlock(&d->mu);
	if (!b && !(b = malloc(sizeof(*b) + cap))) {
		pthread_mutex_lock(&d->mu);
		d->out--;
		pthread_mutex_unlock(&d->mu);
		return NULL;
	}
	b->cap = cap;
	b->len = 0;
	return b;
}

static int th_row(struct ptd_db *db, enum ptd_db_table t, const struct ptd_db_val *v,
		  struct ptd_err *err)
{
	struct ptd_db_thread *d = (struct ptd_db_thread *)db;
	unsigned i, n = ptd_db_columns(t);
	uint32_t lens[32];
	size_t need = 1;
	uint8_t *p;

	if (__atomic_load_n(&d->failed, __ATOMIC_ACQUIRE)) {
		*err = d->err;
		return -(err->code ? err->code : PTD_E_IO);
	}
	if (!n || n > 32)
		return ptd_err_set(err, PTD_E_INVAL, "export: table %d", (int)t);
	for (i = 0; i < n; i++) {
		size_t len = v[i].type == 's' && v[i].s ? strlen(v[i].s) : 0;

		if (len > UINT32_MAX - 1)
			return ptd_err_set(err, PTD_E_LIMIT, "export: a string of %zu bytes", len);
		lens[i] = (uint32_t)len;
		need += 1 + (v[i].type == 's' ? (v[i].s ? 4 + len + 1 : 0) : 8);
	}
	if (!d->cur || d->cur->cap - d->cur->len < need) {
		queue(d, d->cur);
		if (!(d->cur = take(d, need)))
			return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	}
	p = d->cur->data + d->cur->len;
	*p++ = (uint8_t)t;
	for (i = 0; i < n; i++) {
		if (v[i].type == 's') {
			uint32_t len = lens[i];

			if (!v[i].s) {
				*p++ = 'n';
				continue;
			}
			*p++ = 's';
			memcpy(p, &len, 4);
			memcpy(p + 4, v[i].s, (size_t)len + 1);
			p += 4 + (size_t)len + 1;
		} else if (v[i].type == 'd') {
			*p++ = 'd';
			memcpy(p, &v[i].d, 8);
			p += 8;
		} else {
			*p++ = 'i';
			memcpy(p, &v[i].i, 8);
			p += 8;
		}
	}
	d->cur->len += need;
	return 0;
}

/* The writer stopped (skip: what it has not written yet dropped), and the
 * blocks freed. */
static void stop(struct ptd_db_thread *d, int skip)
{
	struct block *b;

	if (!skip)
		queue(d, d->cur);
	else
		free(d->cur);
	d->cur = NULL;
	pthread_mutex_lock(&d->mu);
	d->done = 1;
	d->skip |= skip;
	pthread_cond_broadcast(&d->cv);
	pthread_mutex_unlock(&d->mu);
	pthread_join(d->th, NULL);
	while ((b = d->spare)) {
		d->spare = b->next;
		free(b);
	}
	pthread_mutex_destroy(&d->mu);
	pthread_cond_destroy(&d->cv);
}

static int th_finish(struct ptd_db *db, struct ptd_err *err)
{
	struct ptd_db_thread *d = (struct ptd_db_thread *)db;
	struct ptd_db *inner = d->inner;
	int rc;

	stop(d, 0);
	if (d->failed) {
		*err = d->err;
		rc = -(err->code ? err->code : PTD_E_IO);
		free(d);
		inner->ops->abort(inner);
		return rc;
	}
	free(d);
	return inner->ops->finish(inner, err);
}

static void th_abort(struct ptd_db *db)
{
	struct ptd_db_thread *d = (struct ptd_db_thread *)db;
	struct ptd_db *inner = d->inner;

	stop(d, 1);
	free(d);
	inner->ops->abort(inner);
}

void ptd_db_threaded(struct ptd_db **db)
{
	struct ptd_db_thread *d = calloc(1, sizeof(*d));

	if (!d)
		return;
	d->base.ops = &th_ops;
	d->inner = *db;
	d->full_tail = &d->full;
	ptd_err_clear(&d->err);
	pthread_mutex_init(&d->mu, NULL);
	pthread_cond_init(&d->cv, NULL);
	if (pthread_create(&d->th, NULL, writer, d)) {
		pthread_mutex_destroy(&d->mu);
		pthread_cond_destroy(&d->cv);
		free(d);
		return;
	}
	*db = &d->base;
}
