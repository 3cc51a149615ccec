/* The cs-etm backend's inside: its sources (config.c) and the adapter state
 * (cs_etm.c). */
#ifndef PTD_DECODERS_CS_ETM_PRIV_H
#define PTD_DECODERS_CS_ETM_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include <opencsd/c_api/opencsd_c_api.h>

#include "decoders/cs-etm/cs_etm.h"

#define CSETM_MAX_SOURCES 256

enum csetm_proto { CSETM_ETMV3 = 1, CSETM_PTM, CSETM_ETMV4, CSETM_ETE };

struct csetm_source {
	int proto;             /* enum csetm_proto */
	int32_t cpu;
	uint8_t trace_id;
	uint8_t id_unused_flag;  /* the register had CORESIGHT_TRACE_ID_UNUSED_FLAG */
	uint8_t unused;          /* no decoder: a flagged ID the recording's AUX_OUTPUT_HW_ID did not give */
	union {
		ocsd_etmv3_cfg v3;
		ocsd_ptm_cfg ptm;
		ocsd_etmv4_cfg v4;
		ocsd_ete_cfg ete;
	} cfg;
};

struct csetm_config {
	struct csetm_source src[CSETM_MAX_SOURCES];
	size_t nsrc;
	int format;            /* OCSD_TRC_SRC_* */
	uint32_t dfmt_flags;   /* OCSD_DFRMTR_* */
};

/* Fill cfg from the AUXTRACE_INFO words and the settings (cs_etm.h).
 * Returns 0; -PTD_E_UNSUPPORTED for a layout or magic it does not know;
 * -PTD_E_INVAL for a bad or unknown setting, or a core name OpenCSD does
 * not know. */
int csetm_config_parse(struct csetm_config *cfg, const struct ptd_auxinfo *info,
		       const struct ptd_decoder_env *env, struct ptd_err *err);

/* OpenCSD's architecture and profile of a core name.  Returns 0, or -1 for
 * a name it does not know. */
int csetm_core_profile(const char *name, ocsd_arch_version_t *arch, ocsd_core_profile_t *prof);

#endif
