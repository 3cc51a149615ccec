/* Intel PT address filters as perf keeps them: the "bare" filter string
 * perf record stores in AUXTRACE_INFO ("filter 0x1a40/0x80@/usr/bin/prog",
 * several separated by commas or spaces; util/auxtrace.c), and the test
 * perf's decoder makes at a TIP.PGD (intel_pt_match_pgd_ip): did the
 * branch leave the filter regions, or enter a stop region? */
#ifndef PTD_ADDRFILTER_H
#define PTD_ADDRFILTER_H

#include <stddef.h>
#include <stdint.h>

#define PTD_ADDRFILTER_MAX 32

struct ptd_addrfilter {
	int start;                  /* "filter" or "start": a region traced */
	int range;                  /* has a size (or is "filter" / "tracestop") */
	uint64_t addr, size;        /* file offset (kernel: address) and size */
	char *filename;             /* NULL: the kernel */
};

struct ptd_addrfilters {
	struct ptd_addrfilter f[PTD_ADDRFILTER_MAX];
	size_t n;
};

/* Parse perf's bare filter string into *fs (zeroed first).  Returns 0, or
 * -1 when perf would refuse it (bad action, number or layout, too many
 * filters, no memory); *fs is then empty. */
int ptd_addrfilters_parse(struct ptd_addrfilters *fs, const char *str);
void ptd_addrfilters_fini(struct ptd_addrfilters *fs);

/* perf's intel_pt_match_pgd_ip: 1 when offset (in file filename, NULL for
 * the kernel, where offset is the address) is in a stop region, or
 * filters exist and it is in none of their regions. */
int ptd_addrfilters_left(const struct ptd_addrfilters *fs, uint64_t offset, const char *filename);

#endif
