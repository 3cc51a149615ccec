/* ELF64 executables by virtual address; see elfimage.h. */
#include "tools/record/elfimage.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define PAGE 4096ull
#define MAX_SEGS 64
#define MAX_FILE (1ull << 31)

struct seg {
	uint64_t vaddr, memsz, offset, filesz;
	uint32_t flags;
};

struct ptd_elfimage {
	char *path;
	uint8_t *data;          /* whole file */
	size_t size;
	uint64_t entry;
	unsigned type;
	unsigned machine;       /* EM_X86_64 or EM_AARCH64 */
	int interp;
	struct seg segs[MAX_SEGS];
	size_t nsegs;
	struct ptd_xmap maps[MAX_SEGS];
	size_t nmaps;
};

/* [off, off+len) inside a buffer of size total? */
static int in_file(uint64_t off, uint64_t len, uint64_t total)
{
	return off <= total && len <= total - off;
}

static int read_file(struct ptd_elfimage *img, struct stat *st, struct ptd_err *err)
{
	int fd = open(img->path, O_RDONLY | O_CLOEXEC);
	size_t done = 0;

	if (fd < 0)
		return ptd_err_set(err, PTD_E_IO, "%s: %s", img->path, strerror(errno));
	if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode)) {
		close(fd);
		return ptd_err_set(err, PTD_E_IO, "%s: not a regular file", img->path);
	}
	if ((uint64_t)st->st_size > MAX_FILE || st->st_size < (off_t)sizeof(Elf64_Ehdr)) {
		close(fd);
		return ptd_err_set(err, PTD_E_FORMAT, "%s: size %lld is not that of an executable",
				   img->path, (long long)st->st_size);
	}
	img->size = (size_t)st->st_size;
	img->data = malloc(img->size);
	if (!img->data) {
		close(fd);
		return ptd_err_set(err, PTD_E_NOMEM, "%s: out of memory", img->path);
	}
	while (done < img->size) {
		ssize_t n = read(fd, img->data + done, img->size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			return ptd_err_set(err, PTD_E_IO, "%s: read: %s", img->path,
					   n < 0 ? strerror(errno) : "file shrank");
		}
		done += (size_t)n;
	}
	close(fd);
	return 0;
}

static int parse(struct ptd_elfimage *img, const struct stat *st, struct ptd_err *err)
{
	Elf64_Ehdr eh;

	memcpy(&eh, img->data, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB || (eh.e_machine != EM_X86_64 && eh.e_machine != EM_AARCH64))
		return ptd_err_set(err, PTD_E_FORMAT, "%s: not an ELF64 little-endian x86-64 or AArch64 file",
				   img->path);
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)
		return ptd_err_set(err, PTD_E_FORMAT, "%s: ELF type %u is not an executable", img->path, eh.e_type);
	if (eh.e_phentsize != sizeof(Elf64_Phdr) ||
	    !in_file(eh.e_phoff, (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr), img->size))
		return ptd_err_set(err, PTD_E_FORMAT, "%s: program headers outside the file", img->path);
	img->entry = eh.e_entry;
	img->type = eh.e_type;
	img->machine = eh.e_machine;
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;
		struct seg *s;

		memcpy(&ph, img->data + eh.e_phoff + (uint64_t)i * sizeof(ph), sizeof(ph));
		if (ph.p_type == PT_INTERP)
			img->interp = 1;
		if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
			continue;
		if (img->nsegs == MAX_SEGS)
			return ptd_err_set(err, PTD_E_FORMAT, "%s: more than %d PT_LOAD segments", img->path, MAX_SEGS);
		if (!in_file(ph.p_offset, ph.p_filesz, img->size) || ph.p_filesz > ph.p_memsz ||
		    ph.p_vaddr + ph.p_memsz < ph.p_vaddr || (ph.p_vaddr % PAGE) != (ph.p_offset % PAGE))
			return ptd_err_set(err, PTD_E_FORMAT, "%s: PT_LOAD %u is inconsistent", img->path, i);
		s = &img->segs[img->nsegs++];
		s->vaddr = ph.p_vaddr;
		s->memsz = ph.p_memsz;
		s->offset = ph.p_offset;
		s->filesz = ph.p_filesz;
		s->flags = ph.p_flags;
		if (ph.p_flags & PF_X) {
			struct ptd_xmap *m = &img->maps[img->nmaps++];
			uint64_t start = ph.p_vaddr & ~(PAGE - 1);
			uint64_t end = (ph.p_vaddr + ph.p_memsz + PAGE - 1) & ~(PAGE - 1);

			memset(m, 0, sizeof(*m));
			m->start = start;
			m->len = end - start;
			m->pgoff = ph.p_offset & ~(PAGE - 1);
			m->prot = PROT_EXEC | ((ph.p_flags & PF_R) ? PROT_READ : 0) |
				  ((ph.p_flags & PF_W) ? PROT_WRITE : 0);
			m->flags = MAP_PRIVATE;
			m->maj = major(st->st_dev);
			m->min = minor(st->st_dev);
			m->ino = st->st_ino;
			m->path = img->path;
		}
	}
	if (img->nsegs == 0)
		return ptd_err_set(err, PTD_E_FORMAT, "%s: no PT_LOAD segment", img->path);
	return 0;
}

int ptd_elfimage_open(struct ptd_elfimage **out, const char *path, struct ptd_err *err)
{
	struct ptd_elfimage *img;
	struct stat st;
	int rc;

	*out = NULL;
	img = calloc(1, sizeof(*img));
	if (!img)
		return ptd_err_set(err, PTD_E_NOMEM, "%s: out of memory", path);
	img->path = realpath(path, NULL);
	if (!img->path) {
		rc = ptd_err_set(err, errno == ENOMEM ? PTD_E_NOMEM : PTD_E_IO, "%s: %s", path, strerror(errno));
		free(img);
		return rc;
	}
	rc = read_file(img, &st, err);
	if (rc == 0)
		rc = parse(img, &st, err);
	if (rc < 0) {
		ptd_elfimage_free(img);
		return rc;
	}
	*out = img;
	return 0;
}

void ptd_elfimage_free(struct ptd_elfimage *img)
{
	if (!img)
		return;
	free(img->data);
	free(img->path);
	free(img);
}

size_t ptd_elfimage_read(const struct ptd_elfimage *img, uint64_t vaddr, uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < img->nsegs; i++) {
		const struct seg *s = &img->segs[i];
		uint64_t off, avail, n, fromfile;

		if (vaddr < s->vaddr || vaddr - s->vaddr >= s->memsz)
			continue;
		off = vaddr - s->vaddr;
		avail = s->memsz - off;
		n = len < avail ? len : avail;
		fromfile = off < s->filesz ? s->filesz - off : 0;
		if (fromfile > n)
			fromfile = n;
		memcpy(buf, img->data + s->offset + off, fromfile);
		memset(buf + fromfile, 0, n - fromfile);
		return (size_t)n;
	}
	return 0;
}

long ptd_elfimage_read_code(void *ctx, uint64_t addr, uint8_t *buf, size_t len)
{
	const struct ptd_elfimage *img = ctx;

	return (long)ptd_elfimage_read(img, addr, buf, len);
}

size_t ptd_elfimage_nmaps(const struct ptd_elfimage *img)
{
	return img->nmaps;
}

const struct ptd_xmap *ptd_elfimage_map(const struct ptd_elfimage *img, size_t i)
{
	return i < img->nmaps ? &img->maps[i] : NULL;
}

const char *ptd_elfimage_path(const struct ptd_elfimage *img)
{
	return img->path;
}

uint64_t ptd_elfimage_entry(const struct ptd_elfimage *img)
{
	return img->entry;
}

unsigned ptd_elfimage_type(const struct ptd_elfimage *img)
{
	return img->type;
}

unsigned ptd_elfimage_machine(const struct ptd_elfimage *img)
{
	return img->machine;
}

int ptd_elfimage_has_interp(const struct ptd_elfimage *img)
{
	return img->interp;
}

/* Search one symbol table section (SHT_SYMTAB or SHT_DYNSYM). */
static int find_in(const struct ptd_elfimage *img, uint32_t shtype, const char *name,
		   uint64_t *addr, uint64_t *size)
{
	Elf64_Ehdr eh;
	size_t nlen = strlen(name);

	memcpy(&eh, img->data, sizeof(eh));
	if (eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    !in_file(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr), img->size))
		return 0;
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		Elf64_Shdr sh, strh;

		memcpy(&sh, img->data + eh.e_shoff + (uint64_t)i * sizeof(sh), sizeof(sh));
		if (sh.sh_type != shtype || sh.sh_entsize != sizeof(Elf64_Sym) || sh.sh_link >= eh.e_shnum ||
		    !in_file(sh.sh_offset, sh.sh_size, img->size))
			continue;
		memcpy(&strh, img->data + eh.e_shoff + (uint64_t)sh.sh_link * sizeof(strh), sizeof(strh));
		if (!in_file(strh.sh_offset, strh.sh_size, img->size))
			continue;
		for (uint64_t k = 0; k < sh.sh_size / sizeof(Elf64_Sym); k++) {
			Elf64_Sym sym;

			memcpy(&sym, img->data + sh.sh_offset + k * sizeof(sym), sizeof(sym));
			if (sym.st_name >= strh.sh_size || sym.st_shndx == SHN_UNDEF ||
			    strh.sh_size - sym.st_name <= nlen)
				continue;
			if (memcmp(img->data + strh.sh_offset + sym.st_name, name, nlen + 1))
				continue;
			*addr = sym.st_value;
			if (size)
				*size = sym.st_size;
			return 1;
		}
	}
	return 0;
}

int ptd_elfimage_symbol(const struct ptd_elfimage *img, const char *name, uint64_t *addr,
			uint64_t *size, struct ptd_err *err)
{
	if (find_in(img, SHT_SYMTAB, name, addr, size) || find_in(img, SHT_DYNSYM, name, addr, size))
		return 0;
	return ptd_err_set(err, PTD_E_NOTFOUND, "%s: no symbol %s", img->path, name);
}
