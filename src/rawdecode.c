#include "rawdecode.h"

int ptd_raw_decode(const struct ptd_raw_opts *o, FILE *out, struct ptd_err *err)
{
	const struct ptd_decoder_ops *ops = ptd_decoder_find("intel-pt");
	struct ptd_decoder_env env = { 0 };
	struct ptd_raw_trace trace = { 0 };
	struct ptd_auxinfo info = { 0 };
	struct ptd_image *im = NULL;
	struct ptd_decoder *d = NULL;
	struct ptd_auxbuf buf;
	struct ptd_trace_sample s;
	struct ptd_ptxed w;
	int rc;

	if (!ops)
		return ptd_err_set(err, PTD_E_UNSUPPORTED,
				   "Intel PT decoding needs libipt, and ptdecode was built without it");
	rc = ptd_image_new(&im, err);
	if (!rc)
		rc = ptd_raw_add_images(im, o->images, o->nimages, err);
	if (!rc)
		rc = ptd_raw_trace_open(&trace, o->pt, err);
	if (rc)
		goto out;
	env.cpu = o->cpu;
	env.image = im;
	env.opts = o->dopts;
	env.nopts = o->ndopts;
	rc = ops->create(&d, &info, &env, err);
	if (rc)
		goto out;
	buf.data = trace.data;
	buf.size = trace.size;
	buf.offset = 0;
	rc = ops->feed(d, &buf, err);
	if (rc)
		goto out;
	ptd_ptxed_init(&w, out, &o->ptxed);
	while ((rc = ops->next(d, &s, err)) > 0)
		ptd_ptxed_sample(&w, &s);
	if (rc < 0)
		goto out;
	rc = ptd_ptxed_finish(&w);
	if (rc)
		ptd_err_set(err, PTD_E_IO, "writing the output failed");
out:
	if (ops && d)
		ops->destroy(d);
	ptd_raw_trace_close(&trace);
	ptd_image_free(im);
	return rc;
}
