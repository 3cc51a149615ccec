/* The trace backends built into ptdecode.  Adding a backend is one line
 * here (and its folder); nothing else switches on the trace type. */
#include "config.h"

#include <string.h>

#include "decoders/decoder.h"
#ifdef HAVE_LIBIPT
#include "decoders/intel-pt/intel_pt.h"
#endif
#ifdef HAVE_OPENCSD
#include "decoders/cs-etm/cs_etm.h"
#endif

static const struct ptd_decoder_ops *const backends[] = {
#ifdef HAVE_LIBIPT
	&ptd_intel_pt_ops,
#endif
#ifdef HAVE_OPENCSD
	&ptd_cs_etm_ops,
#endif
	NULL,
};

const struct ptd_decoder_ops *ptd_decoder_at(size_t i)
{
	if (i >= sizeof(backends) / sizeof(backends[0]))
		return NULL;
	return backends[i];
}

const struct ptd_decoder_ops *ptd_decoder_find(const char *name)
{
	const struct ptd_decoder_ops *ops;
	size_t i;

	for (i = 0; (ops = ptd_decoder_at(i)); i++)
		if (!strcmp(ops->name, name))
			return ops;
	return NULL;
}

const struct ptd_decoder_ops *ptd_decoder_for_auxtrace(uint32_t type)
{
	const struct ptd_decoder_ops *ops;
	size_t i;

	for (i = 0; (ops = ptd_decoder_at(i)); i++)
		if (ops->auxtrace_type == type)
			return ops;
	return NULL;
}

void ptd_trace_sample_init(struct ptd_trace_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->cpu = s->pid = s->tid = -1;
}
