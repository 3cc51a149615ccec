/* Raw ETM mode: see etmraw.h. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decoders/cs-etm/cs_etm.h"
#include "etmraw.h"
#include "image.h"

/* the register settings, in the order of perf's ETMv4 metadata words */
static const char *const reg_keys[] = {
	"etm:configr", "etm:trace-id", "etm:idr0", "etm:idr1", "etm:idr2", "etm:idr8",
};

/* perf's CS_ETM metadata (header version 1) of one ETMv4 source, and the
 * backend's settings, from the command line's. */
static int build(const struct ptd_etm_raw_opts *o, uint64_t priv[3 + 3 + PTD_CS_ETMV4_NPARAMS],
		 struct ptd_decoder_opt bopts[2], struct ptd_err *err)
{
	uint64_t regs[6] = { 0, 0x10, 0x28000EA1, 0x4100F410, 0x00000488, 0 };
	size_t i, k;

	bopts[0].key = "format";
	bopts[0].value = "coresight";
	bopts[1].key = "core.0";
	bopts[1].value = "Cortex-A72";
	for (i = 0; i < o->nsettings; i++) {
		const char *key = o->settings[i].key, *v = o->settings[i].value;
		unsigned long long n;
		char *end;

		if (!strcmp(key, "etm:format")) {
			if (strcmp(v, "coresight") && strcmp(v, "dstream") && strcmp(v, "raw"))
				return ptd_err_set(err, PTD_E_INVAL, "--etm:format '%s' (known: coresight, "
						   "dstream, raw)", v);
			bopts[0].value = v;
			continue;
		}
		if (!strcmp(key, "etm:core")) {
			bopts[1].value = v;
			continue;
		}
		for (k = 0; k < sizeof(reg_keys) / sizeof(reg_keys[0]) && strcmp(key, reg_keys[k]); k++)
			;
		if (k == sizeof(reg_keys) / sizeof(reg_keys[0]))
			return ptd_err_set(err, PTD_E_INVAL, "unknown setting --%s", key);
		errno = 0;
		n = strtoull(v, &end, 0);
		if (errno || end == v || *end || n > UINT32_MAX || (k == 1 && (n < 1 || n > 0x6f)))
			return ptd_err_set(err, PTD_E_INVAL, "--%s '%s': %s", key, v,
					   k == 1 ? "a trace ID is 0x01 to 0x6f" : "not a 32-bit number");
		regs[k] = n;
	}
	priv[0] = 1;                      /* header version */
	priv[1] = 1;                      /* one source */
	priv[2] = 0;                      /* not snapshot mode */
	priv[3] = PTD_CS_ETMV4_MAGIC;
	priv[4] = 0;                      /* CPU */
	priv[5] = PTD_CS_ETMV4_NPARAMS;
	memcpy(&priv[6], regs, sizeof(regs));
	priv[12] = 0;                     /* TRCAUTHSTATUS */
	return 0;
}

int ptd_etm_raw_decode(const struct ptd_etm_raw_opts *o, FILE *out)
{
	const struct ptd_decoder_ops *ops;
	uint64_t priv[3 + 3 + PTD_CS_ETMV4_NPARAMS];
	struct ptd_decoder_opt bopts[2];
	struct ptd_raw_trace trace = { 0 };
	struct ptd_decoder_env env = { 0 };
	struct ptd_auxinfo info = { 0 };
	struct ptd_image *im = NULL;
	struct ptd_err err = { 0 };
	int rc, status = 2;

	if (ptd_cs_out_check(&o->out))
		return 1;
	if (build(o, priv, bopts, &err)) {
		fprintf(stderr, "ptdecode: %s\n", err.msg);
		return 1;
	}
	ops = ptd_cs_backend();
	if (!ops)
		return 2;
	rc = ptd_image_new(&im, &err);
	if (!rc)
		rc = ptd_raw_add_images(im, o->images, o->nimages, &err);
	if (!rc)
		rc = ptd_raw_trace_open(&trace, o->trace, &err);
	if (rc)
		goto out;
	info.type = ops->auxtrace_type;
	info.priv = priv;
	info.npriv = sizeof(priv) / sizeof(priv[0]);
	env.image = im;
	env.opts = bopts;
	env.nopts = 2;
	rc = ptd_cs_decode_print(&o->out, &info, &env, trace.data, trace.size, out, &err);
	if (!rc)
		status = 0;
out:
	if (status) {
		fflush(out);
		fprintf(stderr, "ptdecode: %s\n", err.msg[0] ? err.msg : ptd_strerror(rc));
		if (rc == -PTD_E_INVAL)
			status = 1;
	}
	ptd_raw_trace_close(&trace);
	ptd_image_free(im);
	if (!status && (fflush(out) || ferror(out))) {
		fprintf(stderr, "ptdecode: writing output failed\n");
		status = 2;
	}
	return status;
}
