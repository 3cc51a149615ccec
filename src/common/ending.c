/* The process ending: see ending.h. */
#include "common/ending.h"

#include <stdatomic.h>

static atomic_int ending;   /* read by the threads that free tables */

void ptd_ending_set(void)
{
	atomic_store(&ending, 1);
}

int ptd_ending(void)
{
	return atomic_load(&ending);
}
