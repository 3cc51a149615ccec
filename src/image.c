#include "image.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/vec.h"

#define PTD_IMAGE_MAX_SECTIONS (1u << 20)

struct ptd_image {
	struct ptd_vec sections;     /* struct ptd_image_section */
	ptd_image_read_fn read;
	void *read_ctx;
};

int ptd_image_new(struct ptd_image **out, struct ptd_err *err)
{
	struct ptd_image *im = calloc(1, sizeof(*im));

	if (!im)
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory for an image");
	im->sections = (struct ptd_vec)PTD_VEC_INIT(sizeof(struct ptd_image_section));
	im->sections.limit = PTD_IMAGE_MAX_SECTIONS;
	*out = im;
	return 0;
}

void ptd_image_free(struct ptd_image *im)
{
	size_t i;

	if (!im)
		return;
	for (i = 0; i < im->sections.len; i++)
		free(((struct ptd_image_section *)ptd_vec_at(&im->sections, i))->path);
	ptd_vec_fini(&im->sections);
	free(im);
}

int ptd_image_add_file(struct ptd_image *im, const char *path, uint64_t offset,
		       uint64_t size, uint64_t vaddr, struct ptd_err *err)
{
	struct ptd_image_section *sec;
	struct stat st;
	uint64_t fsize;
	char *copy;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ptd_err_set(err, PTD_E_IO, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st) < 0) {
		int e = errno;

		close(fd);
		return ptd_err_set(err, PTD_E_IO, "%s: %s", path, strerror(e));
	}
	close(fd);
	if (!S_ISREG(st.st_mode))
		return ptd_err_set(err, PTD_E_INVAL, "%s: not a regular file", path);
	fsize = (uint64_t)st.st_size;
	if (offset >= fsize)
		return ptd_err_set(err, PTD_E_INVAL, "%s: offset %#" PRIx64 " is not inside the file (%" PRIu64 " bytes)",
				   path, offset, fsize);
	if (!size || size > fsize - offset)
		size = fsize - offset;
	if (vaddr + size - 1 < vaddr)
		return ptd_err_set(err, PTD_E_INVAL, "%s: %#" PRIx64 " bytes at %#" PRIx64 " wrap the address space",
				   path, size, vaddr);
	copy = strdup(path);
	if (!copy)
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory for an image section");
	sec = ptd_vec_push(&im->sections);
	if (!sec) {
		free(copy);
		if (im->sections.len >= PTD_IMAGE_MAX_SECTIONS)
			return ptd_err_set(err, PTD_E_LIMIT, "more than %u image sections", PTD_IMAGE_MAX_SECTIONS);
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory for an image section");
	}
	sec->path = copy;
	sec->offset = offset;
	sec->size = size;
	sec->vaddr = vaddr;
	return 0;
}

void ptd_image_set_reader(struct ptd_image *im, ptd_image_read_fn fn, void *ctx)
{
	im->read = fn;
	im->read_ctx = fn ? ctx : NULL;
}

ptd_image_read_fn ptd_image_reader(const struct ptd_image *im, void **ctx)
{
	if (ctx)
		*ctx = im->read_ctx;
	return im->read;
}

size_t ptd_image_nsections(const struct ptd_image *im)
{
	return im->sections.len;
}

const struct ptd_image_section *ptd_image_section(const struct ptd_image *im, size_t i)
{
	return ptd_vec_at(&im->sections, i);
}

int ptd_image_read(const struct ptd_image *im, uint8_t *buf, size_t size,
		   uint64_t vaddr, uint64_t asid)
{
	size_t i;

	if (!size)
		return -PTD_E_INVAL;
	if (size > INT32_MAX)
		size = INT32_MAX;
	for (i = im->sections.len; i-- > 0;) {
		const struct ptd_image_section *s = ptd_vec_at(&im->sections, i);
		uint64_t left;
		ssize_t got;
		int fd;

		if (vaddr < s->vaddr || vaddr - s->vaddr >= s->size)
			continue;
		left = s->size - (vaddr - s->vaddr);
		if (size > left)
			size = (size_t)left;
		fd = open(s->path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -PTD_E_IO;
		got = pread(fd, buf, size, (off_t)(s->offset + (vaddr - s->vaddr)));
		close(fd);
		if (got <= 0)
			return -PTD_E_IO;
		return (int)got;
	}
	if (im->read) {
		int n = im->read(im->read_ctx, buf, size, vaddr, asid);

		if (n > 0)
			return n > (int)size ? (int)size : n;
	}
	return -PTD_E_NOTFOUND;
}
