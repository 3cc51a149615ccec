/* libipt, loaded when the raw Intel PT backend (intel_pt.c, ptxed's decode
 * through libipt's instruction flow decoder) is first created, instead of
 * linked: the perf.data path parses its packets itself (pdec_parse.h,
 * pdec_rare.c) and never calls libipt, and linking it made every run load
 * it and the libpthread it names, some 0.3 ms of start-up here.  The
 * backend's files include this header (through ipt_priv.h) after
 * intel-pt.h and call libipt under its own names (the macros below),
 * having called ptd_ipt_load() first. */
#ifndef PTD_DECODERS_INTEL_PT_IPT_LOAD_H
#define PTD_DECODERS_INTEL_PT_IPT_LOAD_H

#include <intel-pt.h>

#include "common/err.h"

struct ptd_ipt {
#define F(f) __typeof__(pt_##f) *f
	F(errstr); F(cpu_errata);
	F(iscache_alloc); F(iscache_free); F(iscache_add_file);
	F(image_alloc); F(image_free); F(image_add_cached); F(image_set_callback);
	F(insn_alloc_decoder); F(insn_free_decoder); F(insn_set_image); F(insn_sync_forward);
	F(insn_get_offset); F(insn_event); F(insn_next); F(insn_time);
#undef F
};

extern struct ptd_ipt ptd_ipt;

/* Load libipt (once, whichever thread asks first): 0, or -PTD_E_UNSUPPORTED
 * with err saying why ("cannot load libipt (Debian package libipt2): ..."). */
int ptd_ipt_load(struct ptd_err *err);

#ifndef PTD_IPT_LOAD_IMPL
#define pt_errstr ptd_ipt.errstr
#define pt_cpu_errata ptd_ipt.cpu_errata
#define pt_iscache_alloc ptd_ipt.iscache_alloc
#define pt_iscache_free ptd_ipt.iscache_free
#define pt_iscache_add_file ptd_ipt.iscache_add_file
#define pt_image_alloc ptd_ipt.image_alloc
#define pt_image_free ptd_ipt.image_free
#define pt_image_add_cached ptd_ipt.image_add_cached
#define pt_image_set_callback ptd_ipt.image_set_callback
#define pt_insn_alloc_decoder ptd_ipt.insn_alloc_decoder
#define pt_insn_free_decoder ptd_ipt.insn_free_decoder
#define pt_insn_set_image ptd_ipt.insn_set_image
#define pt_insn_sync_forward ptd_ipt.insn_sync_forward
#define pt_insn_get_offset ptd_ipt.insn_get_offset
#define pt_insn_event ptd_ipt.insn_event
#define pt_insn_next ptd_ipt.insn_next
#define pt_insn_time ptd_ipt.insn_time
#endif

#endif
