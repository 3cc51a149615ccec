/* The Intel PT backend's options: settings of the traced machine that the
 * trace itself does not carry (see intel_pt.h for the keys). */
#include "decoders/intel-pt/ipt_priv.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static int parse_u64(const char *key, const char *s, uint64_t max, uint64_t *out,
		     struct ptd_err *err)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		goto bad;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end)
		goto bad;
	if (v > max)
		return ptd_err_set(err, PTD_E_INVAL, "intel-pt option %s: %s is larger than %" PRIu64,
				   key, s, max);
	*out = v;
	return 0;
bad:
	return ptd_err_set(err, PTD_E_INVAL, "intel-pt option %s: '%s' is not a number", key, s ? s : "");
}

/* "filter:addrN_cfg", "_a", "_b": 0 and n/field set, or -1 */
static int filter_key(const char *key, unsigned *n, char *field)
{
	const char *p = key + strlen("filter:addr");

	if (strncmp(key, "filter:addr", strlen("filter:addr")) || p[0] < '0' || p[0] > '3' || p[1] != '_')
		return -1;
	*n = (unsigned)(p[0] - '0');
	p += 2;
	if (!strcmp(p, "cfg"))
		*field = 'c';
	else if (!strcmp(p, "a") || !strcmp(p, "b"))
		*field = p[0];
	else
		return -1;
	return 0;
}

static uint64_t *filter_addr(struct pt_conf_addr_filter *f, unsigned n, char field)
{
	uint64_t *const a[4][2] = {
		{ &f->addr0_a, &f->addr0_b }, { &f->addr1_a, &f->addr1_b },
		{ &f->addr2_a, &f->addr2_b }, { &f->addr3_a, &f->addr3_b },
	};

	return a[n & 3][field == 'b'];
}

int ptd_ipt_apply_opts(struct pt_config *config, const struct ptd_decoder_opt *opts,
		       size_t nopts, struct ptd_err *err)
{
	size_t i;

	for (i = 0; i < nopts; i++) {
		const char *key = opts[i].key, *val = opts[i].value;
		uint64_t v, *addr;
		unsigned n;
		char field;
		int rc;

		if (!strcmp(key, "mtc-freq")) {
			if ((rc = parse_u64(key, val, 15, &v, err)))
				return rc;
			config->mtc_freq = (uint8_t)v;
		} else if (!strcmp(key, "nom-freq")) {
			if ((rc = parse_u64(key, val, UINT8_MAX, &v, err)))
				return rc;
			config->nom_freq = (uint8_t)v;
		} else if (!strcmp(key, "cpuid-0x15.eax")) {
			if ((rc = parse_u64(key, val, UINT32_MAX, &v, err)))
				return rc;
			config->cpuid_0x15_eax = (uint32_t)v;
		} else if (!strcmp(key, "cpuid-0x15.ebx")) {
			if ((rc = parse_u64(key, val, UINT32_MAX, &v, err)))
				return rc;
			config->cpuid_0x15_ebx = (uint32_t)v;
		} else if (!strcmp(key, "tick-events")) {
			if ((rc = parse_u64(key, val, 1, &v, err)))
				return rc;
			config->flags.variant.insn.enable_tick_events = (uint32_t)v;
		} else if (!filter_key(key, &n, &field)) {
			if (field == 'c') {
				if ((rc = parse_u64(key, val, 15, &v, err)))
					return rc;
				config->addr_filter.config.addr_cfg &= ~(0xfull << (4 * n));
				config->addr_filter.config.addr_cfg |= v << (4 * n);
				continue;
			}
			if ((rc = parse_u64(key, val, UINT64_MAX, &v, err)))
				return rc;
			addr = filter_addr(&config->addr_filter, n, field);
			*addr = v;
		} else {
			return ptd_err_set(err, PTD_E_INVAL, "intel-pt: unknown option '%s'", key);
		}
	}
	return 0;
}
