/* Errata by CPU model.
 *
 * libipt decides which errata workarounds apply from the CPU model
 * (pt_cpu_errata).  Debian 12's libipt 2.0.5 does not know the models
 * released since; for those, this table gives the errata later libipt
 * releases apply (libipt's pt_cpu_errata as of 2025, and the CPU lists of
 * its erratum tests, testdata/libipt-ptt).  Only erratum bits that 2.0.5's
 * struct pt_errata has and implements are set. */
#include "decoders/intel-pt/ipt_priv.h"

#include <string.h>

enum {
	E_BDM70 = 1 << 0,
	E_BDM64 = 1 << 1,
	E_SKD007 = 1 << 2,
	E_SKD022 = 1 << 3,
	E_SKD010 = 1 << 4,
	E_SKL014 = 1 << 5,
	E_APL12 = 1 << 6,
	E_APL11 = 1 << 7,
	E_SKL168 = 1 << 8,
	E_SKZ84 = 1 << 9,
};

#define E_SERVER (E_BDM70 | E_SKL014 | E_SKD022 | E_SKZ84)   /* Sapphire Rapids and later Xeons */
#define E_CLIENT (E_BDM70 | E_SKL014 | E_SKD022 | E_APL11)   /* Alder Lake and later cores */

static const struct {
	uint16_t family;
	uint8_t model;
	uint16_t errata;
} newer[] = {
	{ 0x6, 0xad, E_SERVER }, { 0x6, 0xae, E_SERVER }, { 0x6, 0xcf, E_SERVER },
	{ 0x13, 0x01, E_SERVER },
	{ 0x6, 0xaa, E_CLIENT }, { 0x6, 0xac, E_CLIENT }, { 0x6, 0xb5, E_CLIENT },
	{ 0x6, 0xb7, E_CLIENT }, { 0x6, 0xba, E_CLIENT }, { 0x6, 0xbd, E_CLIENT },
	{ 0x6, 0xc5, E_CLIENT }, { 0x6, 0xc6, E_CLIENT }, { 0x6, 0xcc, E_CLIENT },
	{ 0x6, 0xd5, E_CLIENT }, { 0x12, 0x01, E_CLIENT }, { 0x12, 0x03, E_CLIENT },
	{ 0x6, 0xaf, E_APL11 }, { 0x6, 0xb6, E_APL11 }, { 0x6, 0xdd, E_APL11 },
};

int ptd_ipt_errata(struct pt_errata *errata, const struct pt_cpu *cpu)
{
	size_t i;
	int rc;

	rc = pt_cpu_errata(errata, cpu);
	if (rc != -pte_bad_cpu)
		return rc;
	memset(errata, 0, sizeof(*errata));
	if (cpu->vendor != pcv_intel)
		return -pte_bad_cpu;
	for (i = 0; i < sizeof(newer) / sizeof(newer[0]); i++) {
		unsigned e = newer[i].errata;

		if (newer[i].family != cpu->family || newer[i].model != cpu->model)
			continue;
		errata->bdm70 = !!(e & E_BDM70);
		errata->bdm64 = !!(e & E_BDM64);
		errata->skd007 = !!(e & E_SKD007);
		errata->skd022 = !!(e & E_SKD022);
		errata->skd010 = !!(e & E_SKD010);
		errata->skl014 = !!(e & E_SKL014);
		errata->apl12 = !!(e & E_APL12);
		errata->apl11 = !!(e & E_APL11);
		errata->skl168 = !!(e & E_SKL168);
		errata->skz84 = !!(e & E_SKZ84);
		return 0;
	}
	return -pte_bad_cpu;
}
