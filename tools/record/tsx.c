#include "tools/record/tsx.h"

static int is_call(const struct ptd_xev *ev)
{
	/* a call to the next instruction (PIC) pushes no frame a return
	 * comes back to: the decoders do not count it either */
	return ev->cls == PTD_X_ICALL ||
	       (ev->cls == PTD_X_CALL && ev->to != ev->from + ev->insn_len);
}

enum ptd_tsx_what ptd_tsx_at(struct ptd_tsx *x, const struct ptd_xev *ev)
{
	if (!x->every)
		return PTD_TSX_NONE;
	if (!x->in_tx) {
		if (!is_call(ev) || ++x->ncalls % x->every)
			return PTD_TSX_NONE;
		x->in_tx = 1;
		x->depth = 1;
		x->ninside = 1;
		x->ntx++;
		return PTD_TSX_BEGIN;
	}
	if (ev->cls == PTD_X_SYSCALL || ev->cls == PTD_X_ASYNC)
		return ptd_tsx_leave(x);
	if (ev->cls > PTD_X_RET)
		return PTD_TSX_NONE;
	x->ninside++;
	if (ev->cls == PTD_X_RET && x->depth == 1) {
		x->in_tx = 0;
		return x->ntx % 3 == 0 ? PTD_TSX_ABORT : PTD_TSX_COMMIT;
	}
	if (x->capacity && x->ninside >= x->capacity) {
		x->in_tx = 0;
		return PTD_TSX_ABORT;
	}
	if (is_call(ev))
		x->depth++;
	else if (ev->cls == PTD_X_RET)
		x->depth--;
	return PTD_TSX_NONE;
}

enum ptd_tsx_what ptd_tsx_leave(struct ptd_tsx *x)
{
	if (!x->in_tx)
		return PTD_TSX_NONE;
	x->in_tx = 0;
	return PTD_TSX_COMMIT;
}

const char *ptd_tsx_name(enum ptd_tsx_what w)
{
	switch (w) {
	case PTD_TSX_BEGIN: return "begin";
	case PTD_TSX_COMMIT: return "commit";
	case PTD_TSX_ABORT: return "abort";
	default: return "none";
	}
}
