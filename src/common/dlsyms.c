/* Libraries loaded at run time: see dlsyms.h. */
#include "common/dlsyms.h"

#include <limits.h>
#include <stdio.h>

#ifdef PTD_LINKED_LIBS
/* the static program: the tables of the libraries linked with it */
static int load(struct ptd_dllib *l)
{
	size_t i;

	if (!l->linked) {
		snprintf(l->why, sizeof(l->why), "not linked with this static program (ptdecode-full has it)");
		return -1;
	}
	for (i = 0; i < l->n; i++)
		*(void **)((char *)l->table + l->fns[i].off) = l->linked[i];
	return 0;
}

int ptd_dl_linked(void)
{
	return 1;
}
#else
#include <dlfcn.h>

int ptd_dl_linked(void)
{
	return 0;
}

static int load(struct ptd_dllib *l)
{
	char path[PATH_MAX];
	const char *name = l->soname;
	void *h;
	size_t i;

	if (!name) {
		if (l->locate(path, sizeof(path))) {
			snprintf(l->why, sizeof(l->why), "%.255s", path);
			return -1;
		}
		name = path;
	}
	h = dlopen(name, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		snprintf(l->why, sizeof(l->why), "%s", dlerror());
		return -1;
	}
	for (i = 0; i < l->n; i++) {
		void *p = dlsym(h, l->fns[i].name);

		if (!p) {
			snprintf(l->why, sizeof(l->why), "%.160s has no %.60s", name, l->fns[i].name);
			dlclose(h);
			return -1;
		}
		/* POSIX: a function's address converts to and from void * */
		*(void **)((char *)l->table + l->fns[i].off) = p;
	}
	return 0;
}
#endif

int ptd_dllib_load(struct ptd_dllib *l)
{
	int state;

	pthread_mutex_lock(&l->lock);
	if (!l->state) {
		l->state = load(l) ? -1 : 1;
		if (l->state < 0 && l->warn)
			fprintf(stderr, "ptdecode: cannot load %s: %s\n", l->what, l->why);
	}
	state = l->state;
	pthread_mutex_unlock(&l->lock);
	return state > 0 ? 0 : -1;
}
