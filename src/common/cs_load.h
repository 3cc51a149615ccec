/* capstone, loaded the first time an instruction needs it (dlopen)
 * instead of linked: loading and relocating libcapstone costs every run
 * some 6 ms, more than a small trace takes to decode, while the walk
 * knows the length of most instructions without it (x86len.h).  The
 * code that calls capstone includes this header after capstone.h and
 * calls it under capstone's own names (the macros below), having called
 * ptd_cs_load() first. */
#ifndef PTD_COMMON_CS_LOAD_H
#define PTD_COMMON_CS_LOAD_H

#include <capstone/capstone.h>

struct ptd_cs {
#define F(f) __typeof__(cs_##f) *f
	F(open); F(option); F(malloc); F(free); F(close); F(disasm_iter);
#undef F
};

extern struct ptd_cs ptd_cs;

/* Load capstone (once, whichever thread asks first): 0, or -1 when it
 * cannot be loaded, which is reported on stderr once. */
int ptd_cs_load(void);

#ifndef PTD_CS_LOAD_IMPL
#define cs_open ptd_cs.open
#define cs_option ptd_cs.option
#define cs_malloc ptd_cs.malloc
#define cs_free ptd_cs.free
#define cs_close ptd_cs.close
#define cs_disasm_iter ptd_cs.disasm_iter
#endif

#endif
