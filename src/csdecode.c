/* Decoding and printing one CoreSight buffer: see csdecode.h. */
#include "config.h"

#include <string.h>

#include "csdecode.h"
#include "formats/out/json.h"
#include "formats/out/ranges.h"
#include "formats/out/script.h"
#include "formats/perf/abi.h"
#include "rangesynth.h"

struct out_ctx {
	FILE *out;
	struct ptd_script ps;
	struct ptd_script_evsel ev;
	int json;
};

static int print_branch(void *ctx, const struct ptd_rs_branch *b)
{
	struct out_ctx *oc = ctx;
	struct ptd_script_sample s;

	memset(&s, 0, sizeof(s));
	s.evsel = &oc->ev;
	s.pid = s.tid = -1;
	s.cpu = b->cpu;
	s.ip = b->ip;
	s.addr = b->addr;
	s.period = 1;
	s.flags = b->flags;
	if (oc->json)
		return ptd_json_print_sample(oc->out, "branch", &s, NULL, NULL, 0) ? -PTD_E_IO : 0;
	return ptd_script_print(&oc->ps, oc->out, &s);
}

static int print_error(struct out_ctx *oc, const struct ptd_trace_sample *t)
{
	struct ptd_script_auxerr e;

	memset(&e, 0, sizeof(e));
	e.type = 1;
	e.code = 9;    /* perf's "unknown" */
	e.cpu = t->cpu;
	e.pid = e.tid = -1;
	e.ip = (t->flags & PTD_SF_IP_SUPPRESSED) ? 0 : t->ip;
	e.fmt = 1;
	e.msg = t->err.msg;
	if (oc->json)
		return ptd_json_print_error(oc->out, &e) ? -PTD_E_IO : 0;
	return ptd_script_print_auxerr(oc->out, &e);
}

/* --itrace here: b (branches) and e (errors). */
static int parse_itrace(const struct ptd_cs_out_opts *o, int *errors)
{
	size_t i;

	*errors = 0;
	for (i = 0; i < o->nitrace; i++) {
		const char *c = o->itrace[i];

		for (; c && *c; c++) {
			if (*c == 'e')
				*errors = 1;
			else if (*c != 'b' && *c != ' ' && *c != ',') {
				fprintf(stderr, "ptdecode: --itrace=%s: CoreSight snapshots and raw traces "
					"give branches (b) and errors (e) only\n", o->itrace[i]);
				return -1;
			}
		}
	}
	return 0;
}

static int setup_output(struct out_ctx *oc, const struct ptd_cs_out_opts *o, FILE *out)
{
	size_t i;

	memset(oc, 0, sizeof(*oc));
	oc->out = out;
	oc->json = o->json;
	oc->ev.type = 0;             /* PERF_TYPE_HARDWARE */
	oc->ev.config = 4;           /* branch instructions */
	oc->ev.sample_period = 1;
	oc->ev.sample_type = PTD_SAMPLE_IP | PTD_SAMPLE_ADDR | PTD_SAMPLE_CPU | PTD_SAMPLE_PERIOD;
	oc->ev.name = "branches";
	ptd_script_init(&oc->ps);
	if (o->ranges || o->json)
		return 0;
	if (ptd_script_parse_fields(&oc->ps, "cpu,event,flags,ip,addr", stderr))
		return -1;
	for (i = 0; i < o->nfields; i++)
		if (ptd_script_parse_fields(&oc->ps, o->fields[i], stderr))
			return -1;
	return ptd_script_setup(&oc->ps, &oc->ev, 1, 0, 1, stderr) ? -1 : 0;
}

int ptd_cs_out_check(const struct ptd_cs_out_opts *o)
{
	struct out_ctx oc;
	int errors;

	return parse_itrace(o, &errors) || setup_output(&oc, o, NULL) ? -1 : 0;
}

const struct ptd_decoder_ops *ptd_cs_backend(void)
{
	const struct ptd_decoder_ops *ops = ptd_decoder_find("cs-etm");

	if (!ops)
		fprintf(stderr, "ptdecode: CoreSight decoding needs OpenCSD, and ptdecode was built without it\n");
	return ops;
}

int ptd_cs_decode_print(const struct ptd_cs_out_opts *o, const struct ptd_auxinfo *info,
			const struct ptd_decoder_env *env, const uint8_t *data, size_t size, FILE *out,
			struct ptd_err *err)
{
	const struct ptd_decoder_ops *ops = ptd_decoder_find("cs-etm");
	struct ptd_decoder *d = NULL;
	struct ptd_auxbuf buf = { 0 };
	struct ptd_rangesynth rs;
	struct ptd_trace_sample t;
	struct out_ctx oc;
	int rc, errors;

	if (!ops)
		return ptd_err_set(err, PTD_E_UNSUPPORTED, "ptdecode was built without OpenCSD");
	if (parse_itrace(o, &errors) || setup_output(&oc, o, out))
		return ptd_err_set(err, PTD_E_INVAL, "bad output options");
	rc = ops->create(&d, info, env, err);
	if (rc)
		return rc;
	buf.data = data;
	buf.size = size;
	rc = ops->feed(d, &buf, err);
	if (rc)
		goto out;
	ptd_rangesynth_init(&rs, env->image, print_branch, &oc);
	while ((rc = ops->next(d, &t, err)) > 0) {
		if (o->ranges)
			rc = ptd_ranges_print(out, &t) ? -PTD_E_IO : 0;
		else if (t.kind == PTD_TS_GAP && errors && (rc = print_error(&oc, &t)))
			;
		else
			rc = ptd_rangesynth_add(&rs, &t);
		if (rc) {
			rc = ptd_err_set(err, PTD_E_IO, "writing the output failed");
			break;
		}
	}
out:
	ops->destroy(d);
	ptd_script_fini(&oc.ps);
	return rc < 0 ? rc : 0;
}
