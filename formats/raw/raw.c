/* Raw inputs: parsing ptxed-style file arguments, flat binaries, the CPU,
 * and mapping the trace file. */
#include "formats/raw/raw.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* A whole unsigned number in C syntax: 1, or 0 when s is not one. */
static int parse_num(const char *s, const char *end, uint64_t *out)
{
	unsigned long long v;
	char buf[64], *stop;
	size_t n = (size_t)(end - s);

	if (!n || n >= sizeof(buf) || *s < '0' || *s > '9')
		return 0;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	v = strtoull(buf, &stop, 0);
	if (errno || *stop)
		return 0;
	*out = v;
	return 1;
}

int ptd_raw_parse_range(const char *arg, struct ptd_file_range *out, struct ptd_err *err)
{
	const char *colon = strrchr(arg, ':'), *dash;
	uint64_t from = 0, to = 0;
	size_t plen = strlen(arg);
	int parts = 0;

	if (colon && colon[1]) {
		dash = strchr(colon + 1, '-');
		if (!dash && parse_num(colon + 1, colon + strlen(colon), &from))
			parts = 1;
		else if (dash && parse_num(colon + 1, dash, &from) &&
			 parse_num(dash + 1, dash + strlen(dash), &to))
			parts = 2;
	}
	if (parts == 2 && to <= from)
		return ptd_err_set(err, PTD_E_INVAL, "'%s': the range ends at or before its start", arg);
	if (parts)
		plen = (size_t)(colon - arg);
	out->path = strndup(arg, plen);
	if (!out->path)
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	out->offset = from;
	out->size = parts == 2 ? to - from : 0;
	return 0;
}

int ptd_raw_add_binary(struct ptd_image *im, const char *arg, struct ptd_err *err)
{
	const char *colon = strrchr(arg, ':');
	struct ptd_file_range fr;
	struct stat st;
	uint64_t base;
	char *rest;
	int rc;

	if (!colon || !parse_num(colon + 1, colon + strlen(colon), &base))
		return ptd_err_set(err, PTD_E_INVAL, "--raw '%s': give the load address as FILE:BASE", arg);
	rest = strndup(arg, (size_t)(colon - arg));
	if (!rest)
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	rc = ptd_raw_parse_range(rest, &fr, err);
	free(rest);
	if (rc)
		return rc;
	/* a range must lie inside the file, as ptxed checks (the image would
	 * cut it short) */
	if (fr.size && !stat(fr.path, &st) && (uint64_t)st.st_size >= fr.offset &&
	    (uint64_t)st.st_size - fr.offset < fr.size)
		rc = ptd_err_set(err, PTD_E_INVAL, "%s: range %#" PRIx64 "-%#" PRIx64 " runs past the end of the file",
				 fr.path, fr.offset, fr.offset + fr.size);
	else
		rc = ptd_image_add_file(im, fr.path, fr.offset, fr.size, base, err);
	free(fr.path);
	return rc ? ptd_err_append(err, "--raw") : 0;
}

int ptd_raw_add_images(struct ptd_image *im, const struct ptd_raw_image_arg *args, size_t n,
		       struct ptd_err *err)
{
	size_t i;
	int rc;

	for (i = 0; i < n; i++) {
		rc = args[i].elf ? ptd_raw_add_elf(im, args[i].arg, err) : ptd_raw_add_binary(im, args[i].arg, err);
		if (rc)
			return rc;
	}
	return 0;
}

int ptd_raw_parse_cpu(struct ptd_cpu *cpu, const char *arg, struct ptd_err *err)
{
	const char *p = arg, *slash;
	uint64_t v[3] = { 0, 0, 0 };
	int i;

	if (!strcmp(arg, "none")) {
		memset(cpu, 0, sizeof(*cpu));
		return 0;
	}
	for (i = 0; i < 3; i++) {
		slash = strchr(p, '/');
		if (!slash)
			slash = p + strlen(p);
		if (!parse_num(p, slash, &v[i]))
			goto bad;
		if (!*slash)
			break;
		p = slash + 1;
	}
	if (i < 1 || i > 2 || v[0] > UINT16_MAX || v[1] > UINT8_MAX || v[2] > UINT8_MAX)
		goto bad;
	cpu->vendor = PTD_CPU_INTEL;
	cpu->family = (uint16_t)v[0];
	cpu->model = (uint8_t)v[1];
	cpu->stepping = (uint8_t)v[2];
	return 0;
bad:
	return ptd_err_set(err, PTD_E_INVAL, "--cpu '%s': give none or FAMILY/MODEL[/STEPPING]", arg);
}

int ptd_raw_trace_open(struct ptd_raw_trace *t, const char *arg, struct ptd_err *err)
{
	struct ptd_file_range fr;
	struct stat st;
	uint64_t fsize, start, len;
	long page = sysconf(_SC_PAGESIZE);
	void *map;
	int fd, rc;

	memset(t, 0, sizeof(*t));
	rc = ptd_raw_parse_range(arg, &fr, err);
	if (rc)
		return rc;
	fd = open(fr.path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		rc = ptd_err_set(err, PTD_E_IO, "%s: %s", fr.path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		rc = ptd_err_set(err, PTD_E_INVAL, "%s: not a regular file", fr.path);
		goto out;
	}
	fsize = (uint64_t)st.st_size;
	if (fr.offset && fr.offset >= fsize) {
		rc = ptd_err_set(err, PTD_E_INVAL, "%s: offset %#" PRIx64 " is not inside the file (%" PRIu64 " bytes)",
				 fr.path, fr.offset, fsize);
		goto out;
	}
	len = fsize - fr.offset;
	if (fr.size) {
		if (fr.size > len) {
			rc = ptd_err_set(err, PTD_E_INVAL, "%s: range %#" PRIx64 "-%#" PRIx64 " runs past the end of the file",
					 fr.path, fr.offset, fr.offset + fr.size);
			goto out;
		}
		len = fr.size;
	}
	if (!len || page <= 0)
		goto out;   /* an empty trace */
	start = fr.offset - fr.offset % (uint64_t)page;
	if (len + (fr.offset - start) > SIZE_MAX) {
		rc = ptd_err_set(err, PTD_E_LIMIT, "%s: too large to map", fr.path);
		goto out;
	}
	t->maplen = (size_t)(len + (fr.offset - start));
	map = mmap(NULL, t->maplen, PROT_READ, MAP_PRIVATE, fd, (off_t)start);
	if (map == MAP_FAILED) {
		rc = ptd_err_set(err, PTD_E_IO, "%s: cannot map it: %s", fr.path, strerror(errno));
		t->maplen = 0;
		goto out;
	}
	t->map = map;
	t->data = (const uint8_t *)map + (fr.offset - start);
	t->size = (size_t)len;
out:
	if (fd >= 0)
		close(fd);
	free(fr.path);
	return rc ? ptd_err_append(err, "--pt") : 0;
}

void ptd_raw_trace_close(struct ptd_raw_trace *t)
{
	if (!t)
		return;
	if (t->map)
		munmap(t->map, t->maplen);
	memset(t, 0, sizeof(*t));
}
