/* Internals of the Intel PT backend, shared by its files. */
#ifndef PTD_DECODERS_INTEL_PT_PRIV_H
#define PTD_DECODERS_INTEL_PT_PRIV_H

#include <intel-pt.h>

#include "decoders/decoder.h"
#include "decoders/intel-pt/ipt_load.h"

/* errata.c: the errata of cpu.  libipt's own table (pt_cpu_errata) first;
 * for CPUs the libipt built against does not know, ptdecode's table of the
 * models newer libipt releases list.  Returns 0, or -pte_bad_cpu when
 * neither knows the cpu (errata then all clear, decode by the spec). */
int ptd_ipt_errata(struct pt_errata *errata, const struct pt_cpu *cpu);

/* config.c: apply the backend options (see intel_pt.h) to config.
 * Returns 0, or -PTD_E_INVAL naming the bad key or value. */
int ptd_ipt_apply_opts(struct pt_config *config, const struct ptd_decoder_opt *opts,
		       size_t nopts, struct ptd_err *err);

/* events.c: libipt's enums and events in ptdecode's terms. */
uint8_t ptd_ipt_mode(enum pt_exec_mode mode);
uint8_t ptd_ipt_iclass(enum pt_insn_class iclass);
/* Fill the EVENT fields of s (already initialized) from ev. */
void ptd_ipt_event(struct ptd_trace_sample *s, const struct pt_event *ev);

#endif
