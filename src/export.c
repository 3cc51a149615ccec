/* perf's db-export (see export.h). */
#include "export.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "formats/out/script.h"
#include "formats/perf/abi.h"
#include "export_priv.h"

#define KERNEL_START (1ULL << 63)
#define BRANCH_MASK (PTD_IPF_BRANCH | PTD_IPF_CALL | PTD_IPF_RETURN | PTD_IPF_CONDITIONAL | \
		     PTD_IPF_SYSCALLRET | PTD_IPF_ASYNC | PTD_IPF_INTERRUPT | PTD_IPF_TX_ABORT | \
		     PTD_IPF_TRACE_BEGIN | PTD_IPF_TRACE_END | PTD_IPF_VMENTRY | PTD_IPF_VMEXIT)

/* perf's trace_begin: the rows of id 0 ("unknown"), and the branch types */
static int unknowns(struct ptd_export *x)
{
	static const struct { uint32_t type; const char *name; } bt[] = {
		{ 0, "no branch" },
		{ PTD_IPF_BRANCH | PTD_IPF_CALL, "call" },
		{ PTD_IPF_BRANCH | PTD_IPF_RETURN, "return" },
		{ PTD_IPF_BRANCH | PTD_IPF_CONDITIONAL, "conditional jump" },
		{ PTD_IPF_BRANCH, "unconditional jump" },
		{ PTD_IPF_BRANCH | PTD_IPF_CALL | PTD_IPF_INTERRUPT, "software interrupt" },
		{ PTD_IPF_BRANCH | PTD_IPF_RETURN | PTD_IPF_INTERRUPT, "return from interrupt" },
		{ PTD_IPF_BRANCH | PTD_IPF_CALL | PTD_IPF_SYSCALLRET, "system call" },
		{ PTD_IPF_BRANCH | PTD_IPF_RETURN | PTD_IPF_SYSCALLRET, "return from system call" },
		{ PTD_IPF_BRANCH | PTD_IPF_ASYNC, "asynchronous branch" },
		{ PTD_IPF_BRANCH | PTD_IPF_CALL | PTD_IPF_ASYNC | PTD_IPF_INTERRUPT, "hardware interrupt" },
		{ PTD_IPF_BRANCH | PTD_IPF_TX_ABORT, "transaction abort" },
		{ PTD_IPF_BRANCH | PTD_IPF_TRACE_BEGIN, "trace begin" },
		{ PTD_IPF_BRANCH | PTD_IPF_TRACE_END, "trace end" },
		{ PTD_IPF_BRANCH | PTD_IPF_CALL | PTD_IPF_VMENTRY, "vm entry" },
		{ PTD_IPF_BRANCH | PTD_IPF_CALL | PTD_IPF_VMEXIT, "vm exit" },
	};
	struct ptd_db_val v[25];
	char name[64];
	size_t i;
	int rc;

	for (i = 0; i < 25; i++)
		v[i] = PTD_DB_I(0);
	for (i = 0; i < sizeof(bt) / sizeof(bt[0]); i++) {
		v[0] = PTD_DB_I(bt[i].type);
		v[1] = PTD_DB_S(bt[i].name);
		if ((rc = ptd_export_row(x, PTD_DB_BRANCH_TYPES, v)))
			return rc;
	}
	for (i = 0; i < sizeof(bt) / sizeof(bt[0]); i++) {
		if (bt[i].type == PTD_IPF_BRANCH || (bt[i].type & (PTD_IPF_TRACE_BEGIN | PTD_IPF_TRACE_END)))
			continue;
		snprintf(name, sizeof(name), "trace begin / %s", bt[i].name);
		v[0] = PTD_DB_I(bt[i].type | PTD_IPF_TRACE_BEGIN);
		v[1] = PTD_DB_S(name);
		if ((rc = ptd_export_row(x, PTD_DB_BRANCH_TYPES, v)))
			return rc;
		snprintf(name, sizeof(name), "%s / trace end", bt[i].name);
		v[0] = PTD_DB_I(bt[i].type | PTD_IPF_TRACE_END);
		if ((rc = ptd_export_row(x, PTD_DB_BRANCH_TYPES, v)))
			return rc;
	}
	v[0] = PTD_DB_I(0);
	v[1] = PTD_DB_S("unknown");
	if ((rc = ptd_export_row(x, PTD_DB_SELECTED_EVENTS, v)))
		return rc;
	v[1] = PTD_DB_I(0);
	v[2] = PTD_DB_S("unknown");
	if ((rc = ptd_export_row(x, PTD_DB_MACHINES, v)))
		return rc;
	v[1] = v[2] = PTD_DB_I(0);
	v[3] = v[4] = PTD_DB_I(-1);
	if ((rc = ptd_export_row(x, PTD_DB_THREADS, v)))
		return rc;
	v[1] = PTD_DB_S("unknown");
	v[2] = v[3] = v[4] = PTD_DB_I(0);
	if ((rc = ptd_export_row(x, PTD_DB_COMMS, v)))
		return rc;
	v[1] = PTD_DB_I(0);
	v[2] = v[3] = PTD_DB_S("unknown");
	v[4] = PTD_DB_S("");
	if ((rc = ptd_export_row(x, PTD_DB_DSOS, v)))
		return rc;
	v[2] = v[3] = v[4] = PTD_DB_I(0);
	v[5] = PTD_DB_S("unknown");
	if ((rc = ptd_export_row(x, PTD_DB_SYMBOLS, v)))
		return rc;
	v[5] = PTD_DB_I(0);
	if ((rc = ptd_export_row(x, PTD_DB_SAMPLES, v)) || (rc = ptd_export_row(x, PTD_DB_CALL_PATHS, v)))
		return rc;
	return ptd_export_row(x, PTD_DB_CALLS, v);
}

static int on_call_return(void *ctx, const struct ptd_call_return *cr, uint64_t *parent_db_id);
static int is_retpoline(void *ctx, uint64_t sym);

int ptd_export_new(struct ptd_export **out, struct ptd_db *db, const struct ptd_machine *m,
		   int quiet, ptd_export_buildid_fn buildid, ptd_export_long_name_fn long_name,
		   void *files_ctx, struct ptd_err *err)
{
	struct ptd_export *x = calloc(1, sizeof(*x));
	int rc;

	*out = NULL;
	if (!x || !(x->cs = ptd_callstack_new(KERNEL_START, on_call_return, is_retpoline, x))) {
		free(x);
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	}
	x->db = db;
	x->m = m;
	x->buildid = buildid;
	x->long_name = long_name;
	x->files_ctx = files_ctx;
	x->err = err;
	x->retpoline = (struct ptd_vec)PTD_VEC_INIT(1);
	x->progress = !quiet && isatty(STDERR_FILENO);
	if ((rc = unknowns(x))) {
		ptd_export_free(x);
		return rc;
	}
	*out = x;
	return 0;
}

void ptd_export_free(struct ptd_export *x)
{
	size_t i = 0;
	uint64_t k;
	void *v;

	if (!x)
		return;
	while (ptd_u64map_next(&x->dsos, &i, &k, &v)) {
		struct xdso *d = v, *next;

		for (; d; d = next) {
			next = d->next;
			ptd_u64map_fini(&d->syms);
			ptd_u64map_fini(&d->unknown);
			free(d);
		}
	}
	ptd_u64map_fini(&x->dsos);
	ptd_u64map_fini(&x->evsels);
	ptd_u64map_fini(&x->threads);
	ptd_u64map_fini(&x->comms);
	ptd_vec_fini(&x->retpoline);
	ptd_callstack_free(x->cs);
	if (x->progress && x->last_ms)
		fputs("\r\033[K", stderr);
	free(x);
}

/* ---- dsos and symbols ------------------------------------------------- */

static int export_dso(struct ptd_export *x, const struct ptd_map *map, struct xdso **out)
{
	uint64_t h = ptd_u64map_str_key(map->filename);
	struct xdso *first = ptd_u64map_get(&x->dsos, h), *d;
	const char *slash = strrchr(map->filename, '/'), *lname;
	char bid[41];
	struct ptd_db_val v[5];
	uint8_t id[20];
	size_t i, n;

	for (d = first; d; d = d->next)
		if (!strcmp(d->name, map->filename)) {
			*out = d;
			return 0;
		}
	d = calloc(1, sizeof(*d));
	if (!d)
		return ptd_export_nomem(x);
	d->id = ++x->last[ID_DSO];
	d->name = map->filename;
	d->next = first;
	if (ptd_u64map_put(&x->dsos, h, d)) {
		free(d);
		return ptd_export_nomem(x);
	}
	*out = d;
	n = map->build_id_size < 20 ? map->build_id_size : 20;
	memcpy(id, map->build_id, n);
	if (!n && x->buildid)
		n = x->buildid(x->files_ctx, map, id);
	for (i = 0; i < n && i < 20; i++)
		snprintf(bid + 2 * i, 3, "%02x", id[i]);
	bid[2 * i] = 0;
	v[0] = PTD_DB_I(d->id);
	v[1] = PTD_DB_I(1);
	v[2] = PTD_DB_S(slash && slash[1] && map->filename[0] != '[' ? slash + 1 : map->filename);
	v[3] = PTD_DB_S(x->long_name && (lname = x->long_name(x->files_ctx, map)) ? lname
									       : map->filename);
	v[4] = PTD_DB_S(bid);
	return ptd_export_row(x, PTD_DB_DSOS, v);
}

static int is_retpoline(void *ctx, uint64_t sym)
{
	struct ptd_export *x = ctx;

	return sym < x->retpoline.len && *(uint8_t *)ptd_vec_at(&x->retpoline, sym);
}

/* perf's db_ids_from_al: *dso_id, *sym_id, *offset (all 0 without a map) */
static int export_loc(struct ptd_export *x, const struct ptd_export_loc *l, uint64_t *dso_id,
		      uint64_t *sym_id, uint64_t *offset)
{
	struct ptd_u64map *tab;
	struct ptd_db_val v[6];
	struct xdso *d = NULL;
	uint64_t start = l->sym ? l->sym_start : l->off, end = l->sym ? l->sym_end : l->off;
	const char *name = l->sym ? l->sym : "unknown";
	uint8_t *rp;
	int rc;

	*dso_id = *sym_id = *offset = 0;
	if (!l->map)
		return 0;
	if ((rc = export_dso(x, l->map, &d)))
		return rc;
	*dso_id = d->id;
	*offset = l->off - start;
	tab = l->sym ? &d->syms : &d->unknown;
	if ((*sym_id = ptd_export_id(ptd_u64map_get(tab, start))))
		return 0;
	*sym_id = ++x->last[ID_SYMBOL];
	if (ptd_u64map_put(tab, start, (void *)(uintptr_t)*sym_id))
		return ptd_export_nomem(x);
	while (x->retpoline.len <= *sym_id)
		if (!(rp = ptd_vec_push(&x->retpoline)))
			return ptd_export_nomem(x);
	*(uint8_t *)ptd_vec_at(&x->retpoline, *sym_id) =
		(uint8_t)(!strncmp(name, "__x86_indirect_thunk_", 21) ||
			  !strcmp(name, "__indirect_thunk_start"));
	v[0] = PTD_DB_I(*sym_id);
	v[1] = PTD_DB_I(d->id);
	v[2] = PTD_DB_I(start);
	v[3] = PTD_DB_I(end);
	v[4] = PTD_DB_I(l->sym ? l->sym_bind : 0);
	v[5] = PTD_DB_S(name);
	return ptd_export_row(x, PTD_DB_SYMBOLS, v);
}

/* ---- calls ------------------------------------------------------------ */

static int export_call_path(struct ptd_export *x, struct ptd_cpath *cp)
{
	struct ptd_db_val v[4];
	int rc;

	if (cp->db_id)
		return 0;
	if (cp->parent && (rc = export_call_path(x, (struct ptd_cpath *)cp->parent)))
		return rc;
	cp->db_id = ++x->last[ID_CALL_PATH];
	v[0] = PTD_DB_I(cp->db_id);
	v[1] = PTD_DB_I(cp->parent ? cp->parent->db_id : 0);
	v[2] = PTD_DB_I(cp->sym);
	v[3] = PTD_DB_I(cp->ip);
	return ptd_export_row(x, PTD_DB_CALL_PATHS, v);
}

/* perf's db_export__call_return */
static int on_call_return(void *ctx, const struct ptd_call_return *cr, uint64_t *parent_db_id)
{
	struct ptd_export *x = ctx;
	struct ptd_db_val v[14];
	uint64_t id = cr->db_id, parent = 0;
	int rc;

	if ((rc = export_call_path(x, cr->cp)))
		return rc;
	if (!id)
		id = ++x->last[ID_CALL];
	if (parent_db_id) {
		if (!*parent_db_id)
			*parent_db_id = ++x->last[ID_CALL];
		parent = *parent_db_id;
	}
	v[0] = PTD_DB_I(id);
	v[1] = PTD_DB_I(ptd_export_id(ptd_u64map_get(&x->threads, (uint32_t)cr->tid)));
	v[2] = PTD_DB_I(cr->comm);
	v[3] = PTD_DB_I(cr->cp->db_id);
	v[4] = PTD_DB_I(cr->call_time);
	v[5] = PTD_DB_I(cr->return_time);
	v[6] = PTD_DB_I(cr->branch_count);
	v[7] = PTD_DB_I(cr->call_ref);
	v[8] = PTD_DB_I(cr->return_ref);
	v[9] = PTD_DB_I(cr->cp->parent ? cr->cp->parent->db_id : 0);
	v[10] = PTD_DB_I(cr->flags);
	v[11] = PTD_DB_I(parent);
	v[12] = PTD_DB_I(cr->insn_count);
	v[13] = PTD_DB_I(cr->cyc_count);
	return ptd_export_row(x, PTD_DB_CALLS, v);
}

/* ---- samples ---------------------------------------------------------- */

static uint64_t le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* the python script's synth_data: one row in the event's own table */
static int export_synth(struct ptd_export *x, uint64_t id, int config, const struct ptd_synth *sy)
{
	struct ptd_db_val v[4] = { PTD_DB_I(id), PTD_DB_I(0), PTD_DB_I(0), PTD_DB_I(0) };
	uint64_t p = le(sy->raw + 4, 8);
	uint32_t flags = (uint32_t)le(sy->raw, 4);

	if (sy->raw_size < (config == PTD_SCRIPT_SYNTH_EXSTOP ? 4u : 12u))
		return 0;
	switch (config) {
	case PTD_SCRIPT_SYNTH_PTWRITE:
		v[1] = PTD_DB_I(p);
		v[2] = PTD_DB_I(flags & 1);
		return ptd_export_row(x, PTD_DB_PTWRITE, v);
	case PTD_SCRIPT_SYNTH_MWAIT:
		v[1] = PTD_DB_I(p & 0xff);
		v[2] = PTD_DB_I((p >> 32) & 3);
		return ptd_export_row(x, PTD_DB_MWAIT, v);
	case PTD_SCRIPT_SYNTH_PWRE:
		v[1] = PTD_DB_I((p >> 12) & 0xf);
		v[2] = PTD_DB_I((p >> 8) & 0xf);
		v[3] = PTD_DB_I((p >> 7) & 1);
		return ptd_export_row(x, PTD_DB_PWRE, v);
	case PTD_SCRIPT_SYNTH_EXSTOP:
		v[1] = PTD_DB_I(flags & 1);
		return ptd_export_row(x, PTD_DB_EXSTOP, v);
	case PTD_SCRIPT_SYNTH_PWRX:
		v[1] = PTD_DB_I(p & 0xf);
		v[2] = PTD_DB_I((p >> 4) & 0xf);
		v[3] = PTD_DB_I((p >> 8) & 0xf);
		return ptd_export_row(x, PTD_DB_PWRX, v);
	case PTD_SCRIPT_SYNTH_CBR: {
		unsigned cbr = sy->raw[0], mnt = sy->raw[2];

		/* Python 3 division, as the script computes them */
		v[1] = PTD_DB_I(cbr);
		v[2] = PTD_DB_D(((double)(uint32_t)le(sy->raw + 4, 4) + 500) / 1000);
		v[3] = mnt ? PTD_DB_D(((double)cbr * 1000 / mnt + 5) / 10) : PTD_DB_I(0);
		return ptd_export_row(x, PTD_DB_CBR, v);
	}
	default:
		return 0;
	}
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void progress(struct ptd_export *x)
{
	uint64_t t;

	if (!x->progress || (x->last[ID_SAMPLE] & 4095))
		return;
	t = now_ms();
	if (t - x->last_ms < 100)
		return;
	x->last_ms = t;
	fprintf(stderr, "\rexporting: %" PRIu64 " samples, %" PRIu64 " calls", x->last[ID_SAMPLE],
		x->last[ID_CALL]);
}

/* perf's db_export__sample */
int ptd_export_sample(struct ptd_export *x, const struct ptd_export_sample *s, struct ptd_err *err)
{
	const struct ptd_synth *sy = s->sy;
	uint64_t evsel_id, thread_id, comm_id, id, dso, sym, off, to_dso = 0, to_sym = 0, to_off = 0;
	struct ptd_db_val v[25];
	int rc;

	x->err = err;
	if (!(evsel_id = ptd_export_id(ptd_u64map_get(&x->evsels, ptd_export_id((void *)s->evsel))))) {
		evsel_id = ++x->last[ID_EVSEL];
		if (ptd_u64map_put(&x->evsels, ptd_export_id((void *)s->evsel), (void *)(uintptr_t)evsel_id))
			return ptd_export_nomem(x);
		v[0] = PTD_DB_I(evsel_id);
		v[1] = PTD_DB_S(s->evsel_name);
		if ((rc = ptd_export_row(x, PTD_DB_SELECTED_EVENTS, v)))
			return rc;
	}
	if ((rc = ptd_export_machine(x)))
		return rc;
	if ((rc = ptd_export_threads(x, sy->pid, sy->tid, sy->now, &thread_id, &comm_id)))
		return rc;
	id = ++x->last[ID_SAMPLE];
	if ((rc = export_loc(x, &s->ip, &dso, &sym, &off)))
		return rc;
	if (s->is_branch) {
		struct ptd_cs_branch b;

		if ((rc = export_loc(x, &s->addr, &to_dso, &to_sym, &to_off)))
			return rc;
		ptd_cs_branch_from(&b, sy);
		b.comm = comm_id;
		b.ref = id;
		b.from_sym = sym;
		b.to_sym = to_sym;
		b.to_sym_start = s->addr.map && !to_off;
		if ((rc = ptd_callstack_branch(x->cs, &b)))
			return rc < 0 && !err->msg[0] ? ptd_export_nomem(x) : rc;
	}
	v[0] = PTD_DB_I(id);
	v[1] = PTD_DB_I(evsel_id);
	v[2] = PTD_DB_I(1);
	v[3] = PTD_DB_I(thread_id);
	v[4] = PTD_DB_I(comm_id);
	v[5] = PTD_DB_I(dso);
	v[6] = PTD_DB_I(sym);
	v[7] = PTD_DB_I(off);
	v[8] = PTD_DB_I(sy->ip);
	v[9] = PTD_DB_I(sy->time);
	v[10] = PTD_DB_I(sy->cpu);
	v[11] = PTD_DB_I(to_dso);
	v[12] = PTD_DB_I(to_sym);
	v[13] = PTD_DB_I(to_off);
	v[14] = PTD_DB_I(sy->addr);
	v[15] = PTD_DB_I(sy->period);
	v[16] = v[17] = v[18] = PTD_DB_I(0);   /* weight, transaction, data_src */
	v[19] = PTD_DB_I(sy->flags & BRANCH_MASK);
	v[20] = PTD_DB_I(!!(sy->flags & PTD_IPF_IN_TX));
	v[21] = PTD_DB_I(0);                   /* call_path_id: no call chains */
	v[22] = PTD_DB_I(sy->insn_cnt);
	v[23] = PTD_DB_I(sy->cyc_cnt);
	v[24] = PTD_DB_I(sy->flags);
	if ((rc = ptd_export_row(x, PTD_DB_SAMPLES, v)))
		return rc;
	if (s->synth_config >= 0 && (rc = export_synth(x, id, s->synth_config, sy)))
		return rc;
	progress(x);
	return 0;
}

int ptd_export_finish(struct ptd_export *x, struct ptd_err *err)
{
	int rc;

	x->err = err;
	rc = ptd_callstack_flush_all(x->cs);
	if (rc < 0 && !err->msg[0])
		return ptd_export_nomem(x);
	return rc;
}
