/* --elf FILE[:BASE]: an ELF file's PT_LOAD segments as image sections.
 *
 * The headers are read with explicit bounds checks against the file size
 * (no libelf needed for this much): the program header table must lie
 * inside the file, and so must each segment's file contents.  With BASE,
 * every segment moves by BASE minus the lowest PT_LOAD address (ptxed's
 * rule); without, segments load at their p_vaddr. */
#include "formats/raw/raw.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct seg {
	uint32_t type;
	uint64_t offset, vaddr, filesz;
};

static int read_at(int fd, void *buf, size_t n, uint64_t off)
{
	ssize_t got = pread(fd, buf, n, (off_t)off);

	return got == (ssize_t)n ? 0 : -1;
}

/* Program header i of a table at phoff with entries of phentsize bytes. */
static int read_phdr(int fd, int is64, uint64_t phoff, uint64_t phentsize, uint64_t i, struct seg *s)
{
	uint64_t off = phoff + i * phentsize;

	if (is64) {
		Elf64_Phdr p;

		if (read_at(fd, &p, sizeof(p), off))
			return -1;
		s->type = p.p_type;
		s->offset = p.p_offset;
		s->vaddr = p.p_vaddr;
		s->filesz = p.p_filesz;
	} else {
		Elf32_Phdr p;

		if (read_at(fd, &p, sizeof(p), off))
			return -1;
		s->type = p.p_type;
		s->offset = p.p_offset;
		s->vaddr = p.p_vaddr;
		s->filesz = p.p_filesz;
	}
	return 0;
}

static int load(struct ptd_image *im, const char *path, int fd, int has_base, uint64_t base,
		struct ptd_err *err)
{
	unsigned char ident[EI_NIDENT];
	uint64_t fsize, phoff, phentsize, phnum, i, minaddr = UINT64_MAX, shift = 0;
	struct stat st;
	struct seg s;
	int is64, added = 0, rc;

	if (fstat(fd, &st) < 0)
		return ptd_err_set(err, PTD_E_IO, "%s: %s", path, strerror(errno));
	fsize = (uint64_t)st.st_size;
	if (fsize < EI_NIDENT || read_at(fd, ident, sizeof(ident), 0) || memcmp(ident, ELFMAG, SELFMAG))
		return ptd_err_set(err, PTD_E_FORMAT, "%s: not an ELF file (offset 0)", path);
	if (ident[EI_CLASS] != ELFCLASS32 && ident[EI_CLASS] != ELFCLASS64)
		return ptd_err_set(err, PTD_E_FORMAT, "%s: unknown ELF class %u (offset %u)", path,
				   ident[EI_CLASS], EI_CLASS);
	if (ident[EI_DATA] != ELFDATA2LSB)
		return ptd_err_set(err, PTD_E_UNSUPPORTED, "%s: not a little-endian ELF file (offset %u)",
				   path, EI_DATA);
	is64 = ident[EI_CLASS] == ELFCLASS64;
	if (is64) {
		Elf64_Ehdr eh;

		if (fsize < sizeof(eh) || read_at(fd, &eh, sizeof(eh), 0))
			return ptd_err_set(err, PTD_E_TRUNCATED, "%s: ELF header truncated (offset 0)", path);
		phoff = eh.e_phoff;
		phentsize = eh.e_phentsize;
		phnum = eh.e_phnum;
		if (phentsize < sizeof(Elf64_Phdr))
			goto bad_entsize;
	} else {
		Elf32_Ehdr eh;

		if (fsize < sizeof(eh) || read_at(fd, &eh, sizeof(eh), 0))
			return ptd_err_set(err, PTD_E_TRUNCATED, "%s: ELF header truncated (offset 0)", path);
		phoff = eh.e_phoff;
		phentsize = eh.e_phentsize;
		phnum = eh.e_phnum;
		if (phentsize < sizeof(Elf32_Phdr))
			goto bad_entsize;
	}
	if (phnum == PN_XNUM)
		return ptd_err_set(err, PTD_E_UNSUPPORTED, "%s: more than %u program headers", path, PN_XNUM - 1);
	if (phoff > fsize || phnum * phentsize > fsize - phoff)
		return ptd_err_set(err, PTD_E_FORMAT,
				   "%s: program header table (offset %#" PRIx64 ", %" PRIu64 " entries of %" PRIu64
				   " bytes) runs past the end of the file (%" PRIu64 " bytes)",
				   path, phoff, phnum, phentsize, fsize);
	for (i = 0; i < phnum; i++) {
		if (read_phdr(fd, is64, phoff, phentsize, i, &s))
			return ptd_err_set(err, PTD_E_IO, "%s: cannot read program header %" PRIu64, path, i);
		if (s.type == PT_LOAD && s.vaddr < minaddr)
			minaddr = s.vaddr;
	}
	if (minaddr == UINT64_MAX)
		return ptd_err_set(err, PTD_E_FORMAT, "%s: no PT_LOAD segment", path);
	if (has_base && base)
		shift = base - minaddr;
	for (i = 0; i < phnum; i++) {
		if (read_phdr(fd, is64, phoff, phentsize, i, &s))
			return ptd_err_set(err, PTD_E_IO, "%s: cannot read program header %" PRIu64, path, i);
		if (s.type != PT_LOAD || !s.filesz)
			continue;
		if (s.offset > fsize || s.filesz > fsize - s.offset)
			return ptd_err_set(err, PTD_E_FORMAT,
					   "%s: program header %" PRIu64 " (offset %#" PRIx64 "): segment %#" PRIx64
					   "+%#" PRIx64 " runs past the end of the file (%" PRIu64 " bytes)",
					   path, i, phoff + i * phentsize, s.offset, s.filesz, fsize);
		rc = ptd_image_add_file(im, path, s.offset, s.filesz, s.vaddr + shift, err);
		if (rc)
			return ptd_err_append(err, "program header %" PRIu64, i);
		added++;
	}
	if (!added)
		return ptd_err_set(err, PTD_E_FORMAT, "%s: no PT_LOAD segment with file contents", path);
	return 0;
bad_entsize:
	return ptd_err_set(err, PTD_E_FORMAT, "%s: program header entries of %" PRIu64 " bytes are too small",
			   path, phentsize);
}

int ptd_raw_add_elf(struct ptd_image *im, const char *arg, struct ptd_err *err)
{
	const char *colon = strrchr(arg, ':');
	uint64_t base = 0;
	int has_base = 0, fd, rc;
	char *path;

	if (colon && colon[1] >= '0' && colon[1] <= '9') {
		unsigned long long v;
		char *end;

		errno = 0;
		v = strtoull(colon + 1, &end, 0);
		if (!errno && !*end) {
			base = v;
			has_base = 1;
		}
	}
	path = strndup(arg, has_base ? (size_t)(colon - arg) : strlen(arg));
	if (!path)
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = ptd_err_set(err, PTD_E_IO, "%s: %s", path, strerror(errno));
	} else {
		rc = load(im, path, fd, has_base, base, err);
		close(fd);
	}
	free(path);
	return rc ? ptd_err_append(err, "--elf") : 0;
}
