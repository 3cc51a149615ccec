/* libipt loaded at run time: see ipt_load.h. */
#define PTD_IPT_LOAD_IMPL
#include "decoders/intel-pt/ipt_load.h"

#include "common/dlsyms.h"

struct ptd_ipt ptd_ipt;

static const struct ptd_dlsym fns[] = {
#define F(f) PTD_DLSYM(struct ptd_ipt, f, "pt_" #f)
	F(errstr), F(cpu_errata),
	F(iscache_alloc), F(iscache_free), F(iscache_add_file),
	F(image_alloc), F(image_free), F(image_add_cached), F(image_set_callback),
	F(insn_alloc_decoder), F(insn_free_decoder), F(insn_set_image), F(insn_sync_forward),
	F(insn_get_offset), F(insn_event), F(insn_next), F(insn_time),
#undef F
};

/* libipt's soname has been libipt.so.2 since its 2.0 release */
static struct ptd_dllib lib = PTD_DLLIB("libipt.so.2", fns, &ptd_ipt,
					"libipt (Debian package libipt2)", 0);

int ptd_ipt_load(struct ptd_err *err)
{
	if (ptd_dllib_load(&lib))
		return ptd_err_set(err, PTD_E_UNSUPPORTED, "intel-pt: cannot load %s: %s", lib.what,
				   lib.why);
	return 0;
}
