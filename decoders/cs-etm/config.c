/* The cs-etm backend's sources: perf's CS_ETM AUXTRACE_INFO words and the
 * backend settings turned into OpenCSD decoder configurations. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decoders/cs-etm/csetm_priv.h"

/* Cores OpenCSD 1.3 knows by name (its snapshot reader's table). */
static const struct {
	const char *name;
	ocsd_arch_version_t arch;
	ocsd_core_profile_t prof;
} cores[] = {
	{ "Cortex-A78", ARCH_V8, profile_CortexA }, { "Cortex-A77", ARCH_V8r3, profile_CortexA },
	{ "Cortex-A76", ARCH_V8r3, profile_CortexA }, { "Cortex-A75", ARCH_V8r3, profile_CortexA },
	{ "Cortex-A73", ARCH_V8, profile_CortexA }, { "Cortex-A72", ARCH_V8, profile_CortexA },
	{ "Cortex-A65", ARCH_V8r3, profile_CortexA }, { "Cortex-A57", ARCH_V8, profile_CortexA },
	{ "Cortex-A55", ARCH_V8r3, profile_CortexA }, { "Cortex-A53", ARCH_V8, profile_CortexA },
	{ "Cortex-A35", ARCH_V8, profile_CortexA }, { "Cortex-A32", ARCH_V8, profile_CortexA },
	{ "Cortex-A17", ARCH_V7, profile_CortexA }, { "Cortex-A15", ARCH_V7, profile_CortexA },
	{ "Cortex-A12", ARCH_V7, profile_CortexA }, { "Cortex-A9", ARCH_V7, profile_CortexA },
	{ "Cortex-A8", ARCH_V7, profile_CortexA }, { "Cortex-A7", ARCH_V7, profile_CortexA },
	{ "Cortex-A5", ARCH_V7, profile_CortexA }, { "Cortex-R52", ARCH_V8, profile_CortexR },
	{ "Cortex-R8", ARCH_V7, profile_CortexR }, { "Cortex-R7", ARCH_V7, profile_CortexR },
	{ "Cortex-R5", ARCH_V7, profile_CortexR }, { "Cortex-R4", ARCH_V7, profile_CortexR },
	{ "Cortex-M33", ARCH_V8, profile_CortexM }, { "Cortex-M23", ARCH_V8, profile_CortexM },
	{ "Cortex-M0", ARCH_V7, profile_CortexM }, { "Cortex-M0+", ARCH_V7, profile_CortexM },
	{ "Cortex-M3", ARCH_V7, profile_CortexM }, { "Cortex-M4", ARCH_V7, profile_CortexM },
};

static int profile_letter(char c, ocsd_core_profile_t *prof)
{
	if (c == 'A')
		*prof = profile_CortexA;
	else if (c == 'R')
		*prof = profile_CortexR;
	else if (c == 'M')
		*prof = profile_CortexM;
	else
		return -1;
	return 0;
}

int csetm_core_profile(const char *name, ocsd_arch_version_t *arch, ocsd_core_profile_t *prof)
{
	size_t i;

	for (i = 0; i < sizeof(cores) / sizeof(cores[0]); i++)
		if (!strcmp(cores[i].name, name)) {
			*arch = cores[i].arch;
			*prof = cores[i].prof;
			return 0;
		}
	/* ARMvM[.m]-P */
	if (!strncmp(name, "ARMv", 4) && name[4] >= '7' && name[4] <= '9') {
		int maj = name[4] - '0', min = 0;
		const char *p = name + 5;

		if (*p == '.') {
			if (p[1] < '0' || p[1] > '9')
				return -1;
			min = p[1] - '0';
			p += 2;
		}
		if (p[0] != '-' || profile_letter(p[1], prof) || p[2])
			return -1;
		if (maj == 7)
			*arch = ARCH_V7;
		else if (maj == 8 && min < 3)
			*arch = ARCH_V8;
		else if (maj == 8 && min == 3)
			*arch = ARCH_V8r3;
		else
			*arch = ARCH_AA64;
		return 0;
	}
	/* ARM-AA64[-P] */
	if (!strncmp(name, "ARM-AA64", 8) || !strncmp(name, "ARM-aa64", 8)) {
		*arch = ARCH_AA64;
		*prof = profile_CortexA;
		if (!name[8])
			return 0;
		if (name[8] == '-' && !profile_letter(name[9], prof) && !name[10])
			return 0;
	}
	return -1;
}

static const char *opt_value(const struct ptd_decoder_env *env, const char *key)
{
	size_t i;

	for (i = 0; i < env->nopts; i++)
		if (!strcmp(env->opts[i].key, key))
			return env->opts[i].value;
	return NULL;
}

/* Every setting must be one cs_etm.h lists. */
static int check_opts(const struct ptd_decoder_env *env, size_t nsrc, struct ptd_err *err)
{
	size_t i;

	for (i = 0; i < env->nopts; i++) {
		const char *k = env->opts[i].key, *num = NULL;
		char *end;
		unsigned long n;

		if (!strcmp(k, "format") || !strcmp(k, "cpu") || !strcmp(k, "trace-ids"))
			continue;
		if (!strncmp(k, "core.", 5))
			num = k + 5;
		else if (!strncmp(k, "ptm.", 4))
			num = k + 4;
		if (!num || *num < '0' || *num > '9')
			return ptd_err_set(err, PTD_E_INVAL, "cs-etm: unknown setting '%s'", k);
		n = strtoul(num, &end, 10);
		if (*end || n >= nsrc)
			return ptd_err_set(err, PTD_E_INVAL, "cs-etm: setting '%s' names no source (%zu sources)",
					   k, nsrc);
	}
	return 0;
}

/* Architecture and profile of source i: core.i, else perf's default. */
static int source_profile(const struct ptd_decoder_env *env, size_t i, int proto,
			  ocsd_arch_version_t *arch, ocsd_core_profile_t *prof, struct ptd_err *err)
{
	char key[32];
	const char *core;

	snprintf(key, sizeof(key), "core.%zu", i);
	core = opt_value(env, key);
	if (core) {
		if (csetm_core_profile(core, arch, prof))
			return ptd_err_set(err, PTD_E_INVAL,
					   "cs-etm: OpenCSD does not know the core '%s' (source %zu)", core, i);
		return 0;
	}
	*prof = profile_CortexA;
	*arch = proto == CSETM_ETE ? ARCH_AA64 : proto == CSETM_ETMV4 ? ARCH_V8 : ARCH_V7;
	return 0;
}

static int parse_source(struct csetm_config *cfg, const struct ptd_decoder_env *env, size_t i,
			const uint64_t *w, size_t nw, int v0, size_t *used, struct ptd_err *err)
{
	struct csetm_source *s = &cfg->src[i];
	uint64_t magic, np;
	const uint64_t *r;
	char key[32];
	const char *ptm;
	ocsd_arch_version_t arch;
	ocsd_core_profile_t prof = profile_Unknown;
	size_t k, need;
	int rc;

	if (nw < (v0 ? 2u : 3u))
		return ptd_err_set(err, PTD_E_FORMAT, "cs-etm: source %zu: metadata ends early", i);
	magic = w[0];
	np = v0 ? 0 : w[2];
	if (magic == PTD_CS_ETMV3_MAGIC) {
		need = PTD_CS_ETMV3_NPARAMS;
		s->proto = CSETM_ETMV3;
	} else if (magic == PTD_CS_ETMV4_MAGIC) {
		need = PTD_CS_ETMV4_NPARAMS;
		s->proto = CSETM_ETMV4;
	} else if (magic == PTD_CS_ETE_MAGIC) {
		need = PTD_CS_ETE_NPARAMS;
		s->proto = CSETM_ETE;
	} else {
		return ptd_err_set(err, PTD_E_UNSUPPORTED, "cs-etm: source %zu: unknown magic %#llx", i,
				   (unsigned long long)magic);
	}
	if (v0) {
		/* version 0: no parameter count, the fixed blocks; no ETE */
		if (s->proto == CSETM_ETE)
			return ptd_err_set(err, PTD_E_FORMAT, "cs-etm: source %zu: ETE in a version 0 header", i);
		np = need;
		if (np > nw - 2)
			return ptd_err_set(err, PTD_E_FORMAT, "cs-etm: source %zu: %zu registers needed, %zu left",
					   i, need, nw - 2);
	} else if (np < need || np > nw - 3) {
		return ptd_err_set(err, PTD_E_FORMAT, "cs-etm: source %zu: %llu parameters (%zu needed, %zu left)",
				   i, (unsigned long long)np, need, nw - 3);
	}
	r = w + (v0 ? 2 : 3);
	for (k = 0; k < need; k++)
		if (r[k] > UINT32_MAX)
			return ptd_err_set(err, PTD_E_FORMAT, "cs-etm: source %zu: register %zu above 32 bits", i, k);
	if (w[1] > INT32_MAX)
		return ptd_err_set(err, PTD_E_FORMAT, "cs-etm: source %zu: bad cpu %llu", i,
				   (unsigned long long)w[1]);
	s->cpu = (int32_t)w[1];
	snprintf(key, sizeof(key), "ptm.%zu", i);
	ptm = opt_value(env, key);
	if (ptm && strcmp(ptm, "0") && strcmp(ptm, "1"))
		return ptd_err_set(err, PTD_E_INVAL, "cs-etm: %s=%s: 0 or 1", key, ptm);
	if (ptm && !strcmp(ptm, "1")) {
		if (s->proto != CSETM_ETMV3)
			return ptd_err_set(err, PTD_E_INVAL, "cs-etm: %s: source %zu is not ETMv3/PTM", key, i);
		s->proto = CSETM_PTM;
	}
	rc = source_profile(env, i, s->proto, &arch, &prof, err);
	if (rc)
		return rc;
	switch (s->proto) {
	case CSETM_ETMV3:
	case CSETM_PTM:
		/* the two configurations have the same layout */
		s->cfg.v3.reg_ctrl = (uint32_t)r[0];
		s->cfg.v3.reg_trc_id = (uint32_t)r[1] & 0x7f;
		s->cfg.v3.reg_ccer = (uint32_t)r[2];
		s->cfg.v3.reg_idr = (uint32_t)r[3];
		s->cfg.v3.arch_ver = arch;
		s->cfg.v3.core_prof = prof;
		s->trace_id = r[1] & 0x7f;
		break;
	case CSETM_ETMV4:
		s->cfg.v4.reg_configr = (uint32_t)r[0];
		s->cfg.v4.reg_traceidr = (uint32_t)r[1] & 0x7f;
		s->cfg.v4.reg_idr0 = (uint32_t)r[2];
		s->cfg.v4.reg_idr1 = (uint32_t)r[3];
		s->cfg.v4.reg_idr2 = (uint32_t)r[4];
		s->cfg.v4.reg_idr8 = (uint32_t)r[5];
		s->cfg.v4.arch_ver = arch;
		s->cfg.v4.core_prof = prof;
		s->trace_id = r[1] & 0x7f;
		break;
	default:
		s->cfg.ete.reg_configr = (uint32_t)r[0];
		s->cfg.ete.reg_traceidr = (uint32_t)r[1] & 0x7f;
		s->cfg.ete.reg_idr0 = (uint32_t)r[2];
		s->cfg.ete.reg_idr1 = (uint32_t)r[3];
		s->cfg.ete.reg_idr2 = (uint32_t)r[4];
		s->cfg.ete.reg_idr8 = (uint32_t)r[5];
		s->cfg.ete.reg_devarch = (uint32_t)r[7];
		s->cfg.ete.arch_ver = arch;
		s->cfg.ete.core_prof = prof;
		s->trace_id = r[1] & 0x7f;
		break;
	}
	s->id_unused_flag = (r[1] >> 31) & 1;   /* CORESIGHT_TRACE_ID_UNUSED_FLAG */
	*used = (v0 ? 2 : 3) + (size_t)np;
	return 0;
}

/* Set source s's trace ID (0x01 to 0x6f) in its configuration too */
static void set_trace_id(struct csetm_source *s, unsigned id)
{
	s->trace_id = (uint8_t)id;
	if (s->proto == CSETM_ETMV3 || s->proto == CSETM_PTM)
		s->cfg.v3.reg_trc_id = id;
	else if (s->proto == CSETM_ETMV4)
		s->cfg.v4.reg_traceidr = id;
	else
		s->cfg.ete.reg_traceidr = id;
}

/* perf's trace IDs (header version 2): the sources of the CPUs the
 * "trace-ids" setting names ("CPU:ID,...", from the recording's
 * AUX_OUTPUT_HW_ID records) take those IDs; then a source whose register
 * carries CORESIGHT_TRACE_ID_UNUSED_FLAG (bit 31) has no decoder.
 * Without the setting every source keeps its register's ID. */
static int apply_trace_ids(struct csetm_config *cfg, const char *ids, struct ptd_err *err)
{
	const char *p = ids;
	size_t i;

	while (p && *p) {
		char *end;
		long cpu = strtol(p, &end, 10);
		unsigned long id;

		if (end == p || *end != ':' || cpu < 0 || cpu > INT32_MAX)
			return ptd_err_set(err, PTD_E_INVAL, "cs-etm: trace-ids=%s: CPU:ID,...", ids);
		p = end + 1;
		id = strtoul(p, &end, 0);
		if (end == p || (*end && *end != ',') || id < 1 || id > 0x6f)
			return ptd_err_set(err, PTD_E_INVAL, "cs-etm: trace-ids=%s: an ID is 0x01 to 0x6f", ids);
		p = *end ? end + 1 : end;
		for (i = 0; i < cfg->nsrc; i++)
			if (cfg->src[i].cpu == (int32_t)cpu) {
				set_trace_id(&cfg->src[i], (unsigned)id);
				cfg->src[i].unused = 0;
			}
	}
	return 0;
}

/* format raw: the source of CPU cpu (the "cpu" setting) first */
static int pick_cpu(struct csetm_config *cfg, const char *cpu, struct ptd_err *err)
{
	struct csetm_source tmp;
	char *end;
	long c;
	size_t i;

	c = strtol(cpu, &end, 10);
	if (end == cpu || *end || c < 0 || c > INT32_MAX)
		return ptd_err_set(err, PTD_E_INVAL, "cs-etm: cpu=%s: a CPU number", cpu);
	for (i = 0; i < cfg->nsrc; i++)
		if (cfg->src[i].cpu == (int32_t)c)
			break;
	if (i == cfg->nsrc)
		return ptd_err_set(err, PTD_E_FORMAT, "cs-etm: no trace source of CPU %ld", c);
	tmp = cfg->src[0];
	cfg->src[0] = cfg->src[i];
	cfg->src[i] = tmp;
	return 0;
}

int csetm_config_parse(struct csetm_config *cfg, const struct ptd_auxinfo *info,
		       const struct ptd_decoder_env *env, struct ptd_err *err)
{
	const char *format = opt_value(env, "format"), *cpu = opt_value(env, "cpu");
	size_t i, n, pos = 3, used = 0;
	int rc, v0;

	memset(cfg, 0, sizeof(*cfg));
	if (!info || info->npriv < 3)
		return ptd_err_set(err, PTD_E_UNSUPPORTED, "cs-etm: no source metadata");
	if (info->priv[0] > 2)
		return ptd_err_set(err, PTD_E_UNSUPPORTED, "cs-etm: metadata header version %llu (0, 1 "
				   "and 2 are known)", (unsigned long long)info->priv[0]);
	v0 = info->priv[0] == 0;
	n = (size_t)(info->priv[1] & 0xffffffffu);
	if (!n || n > CSETM_MAX_SOURCES)
		return ptd_err_set(err, PTD_E_UNSUPPORTED, "cs-etm: %zu sources (1 to %d are taken)", n,
				   CSETM_MAX_SOURCES);
	rc = check_opts(env, n, err);
	if (rc)
		return rc;
	for (i = 0; i < n; i++) {
		if (pos >= info->npriv)
			return ptd_err_set(err, PTD_E_FORMAT, "cs-etm: %zu sources announced, the metadata "
					   "ends after %zu", n, i);
		rc = parse_source(cfg, env, i, info->priv + pos, info->npriv - pos, v0, &used, err);
		if (rc)
			return rc;
		pos += used;
	}
	cfg->nsrc = n;
	if (opt_value(env, "trace-ids")) {
		for (i = 0; i < n; i++)
			cfg->src[i].unused = cfg->src[i].id_unused_flag;
		rc = apply_trace_ids(cfg, opt_value(env, "trace-ids"), err);
		if (rc)
			return rc;
	}
	if (!format || !strcmp(format, "coresight")) {
		cfg->format = OCSD_TRC_SRC_FRAME_FORMATTED;
		cfg->dfmt_flags = OCSD_DFRMTR_FRAME_MEM_ALIGN;
	} else if (!strcmp(format, "dstream")) {
		cfg->format = OCSD_TRC_SRC_FRAME_FORMATTED;
		cfg->dfmt_flags = OCSD_DFRMTR_HAS_FSYNCS;
	} else if (!strcmp(format, "raw")) {
		cfg->format = OCSD_TRC_SRC_SINGLE;
		cfg->dfmt_flags = 0;
		if (cpu && (rc = pick_cpu(cfg, cpu, err)))
			return rc;
	} else {
		return ptd_err_set(err, PTD_E_INVAL, "cs-etm: format=%s: coresight, dstream or raw", format);
	}
	return 0;
}
