/* perf's bare address filters: see addrfilter.h. */
#include "addrfilter.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* perf's parse_num_or_str: a number when it starts with a digit, else a
 * word up to one of delim (its end is cut off in the copy) */
static int num_or_str(char **inp, uint64_t *num, const char **str, const char *delim)
{
	*inp += strspn(*inp, " ");
	if (isdigit((unsigned char)**inp)) {
		char *end;

		if (!num)
			return -1;
		errno = 0;
		*num = strtoull(*inp, &end, 0);
		if (errno || end == *inp)
			return -1;
		*inp = end;
	} else {
		size_t n;

		if (!str)
			return -1;
		*inp += strspn(*inp, " ");
		*str = *inp;
		n = strcspn(*inp, delim);
		if (!n)
			return -1;
		*inp += n;
		if (**inp) {
			**inp = '\0';
			*inp += 1;
		}
	}
	return 0;
}

/* perf's parse_sym_idx: "#N" or "#g" after a symbol name */
static int sym_idx(char **inp)
{
	char *end;

	*inp += strspn(*inp, " ");
	if (**inp != '#')
		return 0;
	*inp += 1;
	if (**inp == 'g' || **inp == 'G') {
		*inp += 1;
		return 0;
	}
	errno = 0;
	if (strtoul(*inp, &end, 0) > 0x7fffffff || errno || end == *inp)
		return -1;
	*inp = end;
	return 0;
}

static int addr_size(char **inp, uint64_t *num)
{
	const char *sym = NULL;

	if (num_or_str(inp, num, &sym, " "))
		return -1;
	return sym ? sym_idx(inp) : 0;
}

/* perf's parse_one_filter on a copy of the rest; *used: how far it got */
static int one(struct ptd_addrfilter *f, const char *in, size_t *used)
{
	char *copy = strdup(in), *s = copy;
	const char *action = NULL, *file = NULL;
	int rc = -1;

	if (!copy)
		return -1;
	if (num_or_str(&s, NULL, &action, " "))
		goto out;
	if (!strcmp(action, "filter"))
		f->start = f->range = 1;
	else if (!strcmp(action, "start"))
		f->start = 1;
	else if (!strcmp(action, "tracestop"))
		f->range = 1;
	else if (strcmp(action, "stop"))
		goto out;
	if (addr_size(&s, &f->addr))
		goto out;
	s += strspn(s, " ");
	if (*s == '/') {
		s++;
		if (addr_size(&s, &f->size))
			goto out;
		f->range = 1;
	}
	s += strspn(s, " ");
	if (*s == '@') {
		s++;
		if (num_or_str(&s, NULL, &file, " ,"))
			goto out;
		if (!(f->filename = strdup(file)))
			goto out;
	}
	s += strspn(s, " ,");
	*used = (size_t)(s - copy);
	rc = 0;
out:
	free(copy);
	return rc;
}

int ptd_addrfilters_parse(struct ptd_addrfilters *fs, const char *str)
{
	size_t used;

	memset(fs, 0, sizeof(*fs));
	while (*str) {
		struct ptd_addrfilter *f;

		if (fs->n == PTD_ADDRFILTER_MAX)
			goto bad;
		f = &fs->f[fs->n];
		memset(f, 0, sizeof(*f));
		if (one(f, str, &used) || !used) {
			free(f->filename);
			goto bad;
		}
		fs->n++;
		str += used;
	}
	return 0;
bad:
	ptd_addrfilters_fini(fs);
	return -1;
}

void ptd_addrfilters_fini(struct ptd_addrfilters *fs)
{
	size_t i;

	for (i = 0; i < fs->n; i++)
		free(fs->f[i].filename);
	fs->n = 0;
}

int ptd_addrfilters_left(const struct ptd_addrfilters *fs, uint64_t offset, const char *filename)
{
	int have_filter = 0, hit_stop = 0, hit_filter = 0;
	size_t i;

	for (i = 0; i < fs->n; i++) {
		const struct ptd_addrfilter *f = &fs->f[i];

		if (f->start)
			have_filter = 1;
		if ((filename && !f->filename) || (!filename && f->filename) ||
		    (filename && strcmp(filename, f->filename)))
			continue;
		if (!(offset >= f->addr && offset < f->addr + f->size))
			continue;
		if (f->start)
			hit_filter = 1;
		else
			hit_stop = 1;
	}
	return hit_stop || (have_filter && !hit_filter);
}
