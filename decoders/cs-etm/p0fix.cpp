/* Repairs of OpenCSD 1.3's ETMv4/ETE decoder, which crashes on hostile
 * trace in three places where it handles its P0 element stack.
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
 * is whatever pointer lies before its first slot.
 *
 * 3. A Q packet without an address waits for one likewise, and
 * TrcPktDecodeEtmV4I::processQElement() reads behind an empty stack as in
 * 2.  When the address is there, it frees the Q element (and a Context
 * element between them) and then reads both: a use after free, which
 * garbles only the index of the element it outputs, but which the
 * sanitizers stop at.  The packet processor takes Q packets whatever the
 * configuration says, so one byte of damage makes one.  OpenCSD 1.8.3
 * still has 2 and 3.  trc_pkt_lister 1.3.3 dies with signal 11 on the
 * commits of 2 and 3.
 *
 * This file defines these member functions, in ptdecode-ocsd.so: the
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
 * With OpenCSD 1.3.3 on x86-64, processException() and processQElement()
 * first look whether an element (an Address, or a Context and then an
 * Address) lies behind the exception or Q element.  If none does, they
 * report what the library's own code reports when the element there is
 * no Address ("Address missing in ... packet."), through the decoder's
 * handlePacketSeqErr(), which resets it (a gap).  For a Q element with
 * its address behind it, processQElement() moves the address into the Q
 * element first (below).  Then they call the library's definitions.  They
 * read and write the decoder's members and the elements' where 1.3.3's
 * x86-64 code has them: the stack at byte 0x148 of the decoder and the
 * current packet's index at 0xc8 (processException() and decodePacket()
 * read them there), an element's packet type at byte 8, its P0 type at
 * 0x10, a Q element's "address present" at 0x15 and the address of a Q or
 * Address element at 0x18 (decodePacket() sets them there).
 *
 * With any other version or machine, the library's own definitions run. */
#include <dlfcn.h>
#include <stddef.h>
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

/* 2 and 3: the decoder's members that take an element and the one or two
 * behind it (OpenCSD 1.3.3 on x86-64) */

class TrcPktDecodeEtmV4I {
public:
	ocsd_err_t processException();
	ocsd_err_t processQElement();
};

/* where 1.3.3's x86-64 code has what the repairs read and write */
enum {
	DCD_P0_STACK = 0x148,        /* TrcPktDecodeEtmV4I::m_P0_stack */
	DCD_INDEX_CURR_PKT = 0xc8,   /* m_index_curr_pkt */
	P0_ADDR = 2,                 /* p0_elem_t */
	P0_CTXT = 3,
	ETE_PE_RESET = 0x400         /* ocsd_etmv4_i_pkt_type: no address follows */
};

struct stack_elem_head {     /* the start of TrcStackElem */
	const void *vtable;
	int32_t root_pkt;
	uint32_t root_idx;
	int32_t p0_type;
	bool is_p0;
	bool addr_present;           /* TrcStackQElem's, whose address follows */
	etmv4_addr_val_t addr;       /* TrcStackQElem's and TrcStackElemAddr's */
};
#if defined(__x86_64__)
static_assert(offsetof(stack_elem_head, p0_type) == 0x10 && offsetof(stack_elem_head, addr_present) == 0x15 &&
	      offsetof(stack_elem_head, addr) == 0x18, "TrcStackElem as OpenCSD 1.3.3's x86-64 code has it");
#endif

typedef ocsd_err_t (*member_fn)(TrcPktDecodeEtmV4I *);
typedef ocsd_err_t (*seq_err_fn)(TrcPktDecodeEtmV4I *, ocsd_err_t, ocsd_trc_index_t, const char *);

struct dcd_repair {
	member_fn excep, q;          /* the library's processException(), processQElement() */
	seq_err_fn seq_err;          /* its handlePacketSeqErr(), when the repairs apply */
};

static const dcd_repair &dcd_repair_get()
{
	static const dcd_repair r = [] {
		dcd_repair x = {
			(member_fn)dlsym(RTLD_NEXT, "_ZN18TrcPktDecodeEtmV4I16processExceptionEv"),
			(member_fn)dlsym(RTLD_NEXT, "_ZN18TrcPktDecodeEtmV4I15processQElementEv"), nullptr
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

static stack_elem_head *head(TrcStackElem *e)
{
	return reinterpret_cast<stack_elem_head *>(e);
}

static EtmV4P0Stack *p0_stack(TrcPktDecodeEtmV4I *d)
{
	return reinterpret_cast<EtmV4P0Stack *>(reinterpret_cast<char *>(d) + DCD_P0_STACK);
}

/* The index of the element that must be an address behind the newest
 * (q.back()), past a context: or -1 when the stack ends before it. */
static long addr_slot(std::deque<TrcStackElem *> &q)
{
	long n = (long)q.size();

	if (n >= 2 && head(q[n - 2])->p0_type == P0_CTXT)
		return n >= 3 ? n - 3 : -1;
	return n - 2;
}

/* What the library reports when the element there is no address (the
 * decoder resets: a gap) */
static ocsd_err_t addr_missing(const dcd_repair &r, TrcPktDecodeEtmV4I *d, const char *msg)
{
	ocsd_trc_index_t idx;

	memcpy(&idx, reinterpret_cast<char *>(d) + DCD_INDEX_CURR_PKT, sizeof(idx));
	return r.seq_err(d, OCSD_ERR_BAD_PACKET_SEQ, idx, msg);
}

/* 2. Committing an exception with nothing behind it */
ocsd_err_t TrcPktDecodeEtmV4I::processException()
{
	const dcd_repair &r = dcd_repair_get();

	if (r.seq_err) {
		std::deque<TrcStackElem *> &q = p0_stack(this)->m_P0_stack;

		if (!q.empty() && head(q.back())->root_pkt != ETE_PE_RESET && addr_slot(q) < 0)
			return addr_missing(r, this, "Address missing in exception packet.");
	}
	return r.excep(this);
}

/* 3. A Q element whose address follows it.  The library frees the Q and
 * context elements and then reads both (use after free), and reads behind
 * an empty stack as in 2.  The repair moves the address into the Q
 * element, as a Q packet with an address has it, and leaves the address
 * element to the popped list the decoder frees: the library's code for
 * that case then does the same work, and a context element behind stays
 * there for the next commit, where the library puts a copy of it. */
ocsd_err_t TrcPktDecodeEtmV4I::processQElement()
{
	const dcd_repair &r = dcd_repair_get();

	if (r.seq_err) {
		EtmV4P0Stack *st = p0_stack(this);
		std::deque<TrcStackElem *> &q = st->m_P0_stack;

		if (!q.empty() && !head(q.back())->addr_present) {
			long at = addr_slot(q);

			if (at < 0)
				return addr_missing(r, this, "Address missing in Q packet.");
			if (head(q[at])->p0_type == P0_ADDR) {
				head(q.back())->addr = head(q[at])->addr;
				head(q.back())->addr_present = true;
				st->m_popped_elem.push_back(q[at]);
				q.erase(q.begin() + at);
			}
		}
	}
	return r.q(this);
}

/* Whether the first repair is in use (1) or the library's own code (0).
 * The backend calls it when it builds a decode tree, having loaded the
 * module; it settles the other repairs' choice too. */
extern "C" int csetm_p0fix_active(void)
{
	(void)dcd_repair_get();
	return library_erase() == nullptr;
}
