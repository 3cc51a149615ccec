/* A repair of OpenCSD 1.3's ETMv4/ETE decoder, which crashes on hostile
 * trace.
 *
 * A Mispredict packet makes the decoder walk its P0 element stack from the
 * newest element to the most recent atom, erasing each Address element on
 * the way with EtmV4P0Stack::erase_curr_from_front().  That function erases
 * from the std::deque and goes on with the walk's iterator, which the erase
 * has invalidated.  When the erased Address element is the oldest on the
 * stack (an address packet after the last atom was committed, then a
 * Mispredict, which no real trace unit emits there), the iterator ends up
 * past the deque's end and the walk reads and dereferences what lies beyond
 * it: a crash, or a freed element.  The erased element is never freed
 * either.  OpenCSD fixed both in 1.4.1 (its issues 52, 53 and 58); Debian
 * 12 ships 1.3.3.
 *
 * This file defines that member function, in ptdecode-ocsd.so: the module
 * through which the program loads OpenCSD (ocsd_load.h), and which links
 * it.  The library calls the function through its PLT, and the module
 * loaded comes before its own dependencies in their lookup scope, so the
 * dynamic linker binds the call to this definition.  With OpenCSD 1.3.x
 * it mirrors the class's members (a deque of element pointers, the list
 * of popped elements the decoder frees, the walk's iterator: the layout
 * 1.3.3's own code uses), erases through the iterator the deque returns
 * and hands the element to the popped list.
 * With any other version it calls the library's own definition.  The
 * decoder then reports the Mispredict with no atom to act on as an error,
 * as 1.4.1 does, which the backend turns into a gap. */
#include <dlfcn.h>

#include <deque>
#include <vector>

#include <opencsd/c_api/opencsd_c_api.h>

class TrcStackElem;

class EtmV4P0Stack {
public:
	void erase_curr_from_front();

private:
	std::deque<TrcStackElem *> m_P0_stack;
	std::vector<TrcStackElem *> m_popped_elem;
	std::deque<TrcStackElem *>::iterator m_iter;
};

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

/* Whether the repair is in use (1) or the library's own code (0).  The
 * backend calls it when it builds a decode tree, having loaded the
 * module. */
extern "C" int csetm_p0fix_active(void)
{
	return library_erase() == nullptr;
}
