/* Paths under a root: see pathsafe.h. */
#define _GNU_SOURCE
#include "pathsafe.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int ptd_path_regular_within(const char *root, const char *path)
{
	char *real_root = NULL, *real = NULL;
	struct stat st;
	size_t n;
	int ok = 0;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	if (!root || !*root || !strcmp(root, "/"))
		return 1;
	real_root = realpath(root, NULL);
	real = realpath(path, NULL);
	if (real_root && real) {
		n = strlen(real_root);
		/* "/" as a root's real path: everything is inside */
		ok = (n == 1 && real_root[0] == '/') ||
		     (!strncmp(real, real_root, n) && real[n] == '/');
	}
	free(real_root);
	free(real);
	return ok;
}
