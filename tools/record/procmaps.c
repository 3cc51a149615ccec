/* Executable mappings from /proc/PID/maps; see procmaps.h. */
#include "tools/record/procmaps.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/vec.h"

#define MAX_MAPS 65536
#define MAX_FILE (64u << 20)

struct known {
	struct ptd_xmap m;   /* m.path points to path below */
	char *path;
};

struct range {
	uint64_t start, end;
};

struct ptd_procmaps {
	struct ptd_vec known;   /* struct known: reported so far */
	struct ptd_vec cur;     /* struct range: executable ranges of the last scan */
	char *buf;
	size_t cap;
};

int ptd_procmaps_new(struct ptd_procmaps **out, struct ptd_err *err)
{
	struct ptd_procmaps *pm = calloc(1, sizeof(*pm));

	*out = NULL;
	if (!pm)
		return ptd_err_set(err, PTD_E_NOMEM, "maps: out of memory");
	pm->known = (struct ptd_vec)PTD_VEC_INIT(sizeof(struct known));
	pm->known.limit = MAX_MAPS;
	pm->cur = (struct ptd_vec)PTD_VEC_INIT(sizeof(struct range));
	pm->cur.limit = MAX_MAPS;
	*out = pm;
	return 0;
}

void ptd_procmaps_reset(struct ptd_procmaps *pm)
{
	for (size_t i = 0; i < pm->known.len; i++)
		free(((struct known *)ptd_vec_at(&pm->known, i))->path);
	pm->known.len = 0;
	pm->cur.len = 0;
}

void ptd_procmaps_free(struct ptd_procmaps *pm)
{
	if (!pm)
		return;
	ptd_procmaps_reset(pm);
	ptd_vec_fini(&pm->known);
	ptd_vec_fini(&pm->cur);
	free(pm->buf);
	free(pm);
}

/* Read the whole file into pm->buf (NUL-terminated).  Returns its length
 * or a negative -PTD_E_*. */
static long slurp(struct ptd_procmaps *pm, const char *name, struct ptd_err *err)
{
	int fd = open(name, O_RDONLY | O_CLOEXEC);
	size_t len = 0;

	if (fd < 0)
		return ptd_err_set(err, PTD_E_IO, "%s: %s", name, strerror(errno));
	for (;;) {
		ssize_t n;

		if (pm->cap - len < 4096 + 1) {
			size_t ncap = pm->cap ? pm->cap * 2 : 65536;
			char *nb;

			if (ncap > MAX_FILE) {
				close(fd);
				return ptd_err_set(err, PTD_E_LIMIT, "%s: larger than %u bytes", name, MAX_FILE);
			}
			nb = realloc(pm->buf, ncap);
			if (!nb) {
				close(fd);
				return ptd_err_set(err, PTD_E_NOMEM, "%s: out of memory", name);
			}
			pm->buf = nb;
			pm->cap = ncap;
		}
		n = read(fd, pm->buf + len, pm->cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			close(fd);
			return ptd_err_set(err, PTD_E_IO, "%s: read: %s", name, strerror(e));
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	pm->buf[len] = '\0';
	return (long)len;
}

/* Parse one maps line "start-end perms offset maj:min inode [path]".
 * Returns 0, or -1 when it does not parse.  *path points into line. */
static int parse_line(char *line, struct ptd_xmap *m, const char **path)
{
	unsigned long long start, end, off, ino;
	unsigned maj, min;
	char perms[5];
	int n = 0;

	if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu%n", &start, &end, perms, &off, &maj, &min,
		   &ino, &n) != 7 || end < start || strlen(perms) != 4)
		return -1;
	memset(m, 0, sizeof(*m));
	m->start = start;
	m->len = end - start;
	m->pgoff = off;
	m->maj = maj;
	m->min = min;
	m->ino = ino;
	m->prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
		  (perms[2] == 'x' ? PROT_EXEC : 0);
	m->flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
	line += n;
	while (*line == ' ' || *line == '\t')
		line++;
	*path = line;
	return 0;
}

static int same(const struct ptd_xmap *a, const struct ptd_xmap *b, const char *bpath)
{
	return a->start == b->start && a->len == b->len && a->pgoff == b->pgoff &&
	       a->maj == b->maj && a->min == b->min && a->ino == b->ino && a->prot == b->prot &&
	       !strcmp(a->path, bpath);
}

int ptd_procmaps_scan(struct ptd_procmaps *pm, int32_t pid, int32_t tid,
		      const struct ptd_xsink *sink, struct ptd_err *err)
{
	char name[64];
	long len;
	char *line, *next;
	int reported = 0;

	snprintf(name, sizeof(name), "/proc/%d/maps", (int)pid);
	len = slurp(pm, name, err);
	if (len < 0)
		return (int)len;
	pm->cur.len = 0;
	for (line = pm->buf; line < pm->buf + len && *line; line = next) {
		struct ptd_xmap m;
		const char *path;
		struct known *k;
		struct range *r;
		size_t i;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		if (parse_line(line, &m, &path) < 0)
			return ptd_err_set(err, PTD_E_FORMAT, "%s: cannot parse '%.80s'", name, line);
		if (!(m.prot & PROT_EXEC) || !strcmp(path, "[vsyscall]"))
			continue;
		if (!*path)
			path = "//anon";
		r = ptd_vec_push(&pm->cur);
		if (!r)
			return ptd_err_set(err, PTD_E_LIMIT, "%s: too many executable mappings", name);
		r->start = m.start;
		r->end = m.start + m.len;
		for (i = 0; i < pm->known.len; i++)
			if (same(&((struct known *)ptd_vec_at(&pm->known, i))->m, &m, path))
				break;
		if (i < pm->known.len)
			continue;
		k = ptd_vec_push(&pm->known);
		if (!k)
			return ptd_err_set(err, PTD_E_LIMIT, "%s: too many executable mappings", name);
		k->path = strdup(path);
		if (!k->path) {
			pm->known.len--;
			return ptd_err_set(err, PTD_E_NOMEM, "%s: out of memory", name);
		}
		k->m = m;
		k->m.path = k->path;
		if (sink->mmap) {
			int rc = sink->mmap(sink->ctx, pid, tid, &k->m);
			if (rc < 0)
				return ptd_err_set(err, -rc > 0 && -rc < PTD_E_MAX ? -rc : PTD_E_INVAL,
						   "mmap callback failed for %s", k->path);
		}
		reported++;
	}
	return reported;
}

int ptd_procmaps_is_exec(const struct ptd_procmaps *pm, uint64_t addr)
{
	for (size_t i = 0; i < pm->cur.len; i++) {
		const struct range *r = ptd_vec_at(&pm->cur, i);
		if (addr >= r->start && addr < r->end)
			return 1;
	}
	return 0;
}
