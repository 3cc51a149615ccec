/* OpenCSD, loaded when a CoreSight trace is first decoded (dlopen)
 * instead of linked: OpenCSD and the C++ library it brings cost every
 * run some 3.5 ms to load, which most runs (Intel PT) never use.  It is
 * loaded through ptdecode-ocsd.so, the program's own module, which links
 * OpenCSD and holds p0fix.cpp's repairs of it: loading the module binds
 * OpenCSD's calls of the repaired functions to the module's definitions.
 * The module is looked for beside the program (the build tree), then in
 * the directory it is installed in (PTD_PKGLIBDIR).  cs_etm.c includes
 * this header after OpenCSD's and calls OpenCSD under its own names (the
 * macros below), having called ptd_ocsd_load() first. */
#ifndef PTD_DECODERS_CS_ETM_OCSD_LOAD_H
#define PTD_DECODERS_CS_ETM_OCSD_LOAD_H

#include <opencsd/c_api/opencsd_c_api.h>

#include "common/err.h"

#define PTD_OCSD_MODULE "ptdecode-ocsd.so"

struct ptd_ocsd {
#define F(f) __typeof__(ocsd_##f) *f
	F(create_dcd_tree); F(destroy_dcd_tree); F(dt_create_decoder); F(dt_process_data);
	F(dt_set_gen_elem_outfn); F(dt_add_callback_trcid_mem_acc); F(err_str);
#undef F
	/* whether p0fix.cpp's first repair is in use (1) or OpenCSD's own
	 * code (0: a version other than 1.3); settles the others' choice */
	int (*p0fix_active)(void);
};

extern struct ptd_ocsd ptd_ocsd;

/* Load the module and OpenCSD (once, whichever thread asks first): 0, or
 * a negative ptd error naming the module's file and the reason. */
int ptd_ocsd_load(struct ptd_err *err);

#ifndef PTD_OCSD_LOAD_IMPL
#define ocsd_create_dcd_tree ptd_ocsd.create_dcd_tree
#define ocsd_destroy_dcd_tree ptd_ocsd.destroy_dcd_tree
#define ocsd_dt_create_decoder ptd_ocsd.dt_create_decoder
#define ocsd_dt_process_data ptd_ocsd.dt_process_data
#define ocsd_dt_set_gen_elem_outfn ptd_ocsd.dt_set_gen_elem_outfn
#define ocsd_dt_add_callback_trcid_mem_acc ptd_ocsd.dt_add_callback_trcid_mem_acc
#define ocsd_err_str ptd_ocsd.err_str
#endif

#endif
