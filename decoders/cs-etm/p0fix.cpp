/* Repairs of OpenCSD 1.3's ETMv4/ETE decoder, which crashes on hostile
 * trace in two places where it handles its P0 element stack.
 *
 * 1. A Mispredict packet makes the decoder walk its P0 element stack from
 * the newest element to the most recent atom, erasing each Address element
 * on the way with EtmV4P0Stack::erase_curr_from_front().  That function
 * erases from the std::deque and goes on with the walk's iterator, which
 * the erase has invalidated.  When the erased Address element is the
 * oldest on the stack (an address packet after the last atom was
 * committed, then a Mispredict, which no real trace unit emits there), the
 * iterator ends up past the deque's end and the walk reads and
 * dereferences what lies beyond it: a crash, or a freed element.  The
 * erased element is never freed either.  OpenCSD fixed both in 1.4.1 (its
 * issues 52, 53 and 58); Debian 12 ships 1.3.3.
 *
 * 2. An Exception packet waits on the stack for the Address packet that
 * follows it.  A Commit packet in between (no real trace unit emits one
 * there) commits the exception alone, and
 * TrcPktDecodeEtmV4I::processException() pops it and reads the element
 * behind it without looking whether there is one: on an empty deque that
 * is whatever pointer lies before its first slot.  trc_pkt_lister 1.3.3
 * dies with signal 11 on such a trace.
 *
 * This file defines both member functions, in ptdecode-ocsd.so: the
 * module through which the program loads OpenCSD (ocsd_load.h), and which
 * links it.  The library calls them through its PLT, and the module
 * loaded comes before its own dependencies in their lookup scope, so the
 * dynamic linker binds the calls to these definitions.
 *
 * With OpenCSD 1.3.x, erase_curr_from_front() mirrors the stack's members
 * (a deque of element pointers, the list of popped elements the decoder
 * frees, the walk's iterator: the layout 1.3.3's own code uses), erases
 * through the iterator the deque returns and hands the element to the
 * popped list.  The decoder then reports the Mispredict with no atom to
 * act on as an error, as 1.4.1 does, which the backend turns into a gap.
 *
 * With OpenCSD 1.3.3 on x86-64, processException() first looks whether an
 * element (an Address, or a Context and then an Address) lies behind the
 * exception, and if none does, reports what the library's own code
 * reports when the element there is no Address: "Address missing in
 * exception packet", through the decoder's handlePacketSeqErr(), which
 * resets it (a gap).  Otherwise, and for a PE reset (which takes no
 * address), it calls the library's definition.  It reads two of the
 * decoder's members where 1.3.3's x86-64 code has them: the stack at byte
 * 0x148 and the current packet's index at 0xc8 (processException() and
 * decodePacket() read them there), and an element's P0 type at byte 0x10
 * and its packet type at 8.
 *
 * With any other version both call the library's own definitions. */
#include <dlfcn.h>
#include <string.h>

#include <deque>
#include <vector>

#include <opencsd/c_api/opencsd_c_api.h>

class TrcStackElem;

class EtmV4P0Stack {
public:
	void erase_curr_from_front();

	/* the members, in 1.3.3's order (public here: the layout is the same) */
	std::deque<TrcStackElem *> m_P0_stack;
	std::vector<TrcStackElem *> m_popped_elem;
	std::deque<TrcStackElem *>::iterator m_iter;
};

/* 1. Erasing through an invalidated iterator */

typedef void (*erase_fn)(EtmV4P0Stack *);

/* NULL when this file's repair applies, else the library's definition */
static erase_fn library_erase()
{
	static const erase_fn f = [] {
		uint32_t v = ocsd_get_version();

		if ((v >> 8) == 0x0103)
			return (erase_fn)nullptr;
		return (erase_fn)dlsym(RTLD_NEXT, "_ZN12EtmV4P0Stack21erase_curr_from_frontEv");
	}();
	return f;
}

void EtmV4P0Stack::erase_curr_from_front()
{
	erase_fn lib = library_erase();

	if (lib) {
		lib(this);
		return;
	}
	std::deque<TrcStackElem *>::iterator it = m_iter;

	--it;
	m_popped_elem.push_back(*it);
	m_iter = m_P0_stack.erase(it);
}

/* 2. Committing an exception with nothing behind it */

class TrcPktDecodeEtmV4I {
public:
	ocsd_err_t processException();
};

/* what 1.3.3's x86-64 code reads of the decoder and of a stack element */
enum {
	DCD_P0_STACK = 0x148,        /* TrcPktDecodeEtmV4I::m_P0_stack */
	DCD_INDEX_CURR_PKT = 0xc8,   /* m_index_curr_pkt */
	P0_CTXT = 3,                 /* p0_elem_t */
	ETE_PE_RESET = 0x400         /* ocsd_etmv4_i_pkt_type: no address follows */
};

struct stack_elem_head {     /* the start of TrcStackElem */
	const void *vtable;
	int32_t root_pkt;
	uint32_t root_idx;
	int32_t p0_type;
};

typedef ocsd_err_t (*excep_fn)(TrcPktDecodeEtmV4I *);
typedef ocsd_err_t (*seq_err_fn)(TrcPktDecodeEtmV4I *, ocsd_err_t, ocsd_trc_index_t, const char *);

struct excep_repair {
	excep_fn lib;            /* the library's processException() */
	seq_err_fn seq_err;      /* its handlePacketSeqErr(), when the repair applies */
};

static const excep_repair &excep_repair_get()
{
	static const excep_repair r = [] {
		excep_repair x = {
			(excep_fn)dlsym(RTLD_NEXT, "_ZN18TrcPktDecodeEtmV4I16processExceptionEv"), nullptr
		};
#if defined(__x86_64__)
		if (ocsd_get_version() == 0x010303)
			x.seq_err = (seq_err_fn)dlsym(RTLD_NEXT,
			                              "_ZN18TrcPktDecodeEtmV4I18handlePacketSeqErrE11_ocsd_err_tjPKc");
#endif
		return x;
	}();
	return r;
}

static const stack_elem_head *head(const TrcStackElem *e)
{
	return reinterpret_cast<const stack_elem_head *>(e);
}

ocsd_err_t TrcPktDecodeEtmV4I::processException()
{
	const excep_repair &r = excep_repair_get();

	if (r.seq_err) {
		const char *self = reinterpret_cast<const char *>(this);
		const std::deque<TrcStackElem *> &q =
			reinterpret_cast<const EtmV4P0Stack *>(self + DCD_P0_STACK)->m_P0_stack;
		size_t n = q.size();   /* q.back() is the exception */

		if (n && head(q[n - 1])->root_pkt != ETE_PE_RESET &&
		    (n < 2 || (head(q[n - 2])->p0_type == P0_CTXT && n < 3))) {
			ocsd_trc_index_t idx;

			memcpy(&idx, self + DCD_INDEX_CURR_PKT, sizeof(idx));
			return r.seq_err(this, OCSD_ERR_BAD_PACKET_SEQ, idx, "Address missing in exception packet.");
		}
	}
	return r.lib(this);
}

/* Whether the first repair is in use (1) or the library's own code (0).
 * The backend calls it when it builds a decode tree, having loaded the
 * module; it settles the second repair's choice too. */
extern "C" int csetm_p0fix_active(void)
{
	(void)excep_repair_get();
	return library_erase() == nullptr;
}
