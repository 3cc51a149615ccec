/* Where a dso's symbols are: see symfile.h. */
#include "symfile.h"

#include <elf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "pathsafe.h"

static uint64_t rd(const uint8_t *p, int n)
{
	uint64_t v = 0;
	int i;

	for (i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* ELF header fields of a little-endian image; 0 or -1 */
struct ehdr {
	int is64;
	uint64_t phoff, shoff;
	unsigned phnum, phentsize, shnum, shentsize, shstrndx;
};

static int ehdr(const uint8_t *d, uint64_t size, struct ehdr *h)
{
	if (size < 52 || memcmp(d, ELFMAG, SELFMAG) || d[EI_DATA] != ELFDATA2LSB)
		return -1;
	h->is64 = d[EI_CLASS] == ELFCLASS64;
	if (h->is64 && size < 64)
		return -1;
	h->phoff = h->is64 ? rd(d + 32, 8) : rd(d + 28, 4);
	h->shoff = h->is64 ? rd(d + 40, 8) : rd(d + 32, 4);
	h->phentsize = (unsigned)rd(d + (h->is64 ? 54 : 42), 2);
	h->phnum = (unsigned)rd(d + (h->is64 ? 56 : 44), 2);
	h->shentsize = (unsigned)rd(d + (h->is64 ? 58 : 46), 2);
	h->shnum = (unsigned)rd(d + (h->is64 ? 60 : 48), 2);
	h->shstrndx = (unsigned)rd(d + (h->is64 ? 62 : 50), 2);
	return 0;
}

static int in(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

/* Program header i: type, file offset, vaddr, file size; 0 or -1 */
struct phdr {
	uint64_t type, flags, off, vaddr, filesz, memsz;
};

static int phdr(const uint8_t *d, uint64_t size, const struct ehdr *h, unsigned i,
		struct phdr *p)
{
	const uint8_t *ph;

	if (!in(h->phoff + (uint64_t)i * h->phentsize, h->is64 ? 56 : 32, size))
		return -1;
	ph = d + h->phoff + (uint64_t)i * h->phentsize;
	p->type = rd(ph, 4);
	p->flags = h->is64 ? rd(ph + 4, 4) : rd(ph + 24, 4);
	p->off = h->is64 ? rd(ph + 8, 8) : rd(ph + 4, 4);
	p->vaddr = h->is64 ? rd(ph + 16, 8) : rd(ph + 8, 4);
	p->filesz = h->is64 ? rd(ph + 32, 8) : rd(ph + 16, 4);
	p->memsz = h->is64 ? rd(ph + 40, 8) : rd(ph + 20, 4);
	return 0;
}

int ptd_elf_vaddr_offset(const uint8_t *d, uint64_t size, uint64_t vaddr, uint64_t *off)
{
	struct ehdr h;
	struct phdr p;
	unsigned i;

	if (!d || ehdr(d, size, &h))
		return -1;
	for (i = 0; i < h.phnum && !phdr(d, size, &h, i, &p); i++) {
		if (p.type == PT_LOAD && vaddr >= p.vaddr && vaddr - p.vaddr < p.filesz &&
		    in(p.off, p.filesz, size)) {
			*off = p.off + (vaddr - p.vaddr);
			return 0;
		}
	}
	return -1;
}

int ptd_kcore_segment(const uint8_t *d, uint64_t size, int has_addr, uint64_t addr,
		      uint64_t *vaddr, uint64_t *len, uint64_t *off)
{
	struct ehdr h;
	struct phdr p;
	unsigned i;
	int found = 0, chose = 0;

	if (!d || ehdr(d, size, &h))
		return -1;
	/* elf_read_maps (PF_R, min(p_memsz, p_filesz) bytes), kcore_mapfn
	 * adding each at the head of a list */
	for (i = 0; i < h.phnum && !phdr(d, size, &h, i, &p); i++) {
		uint64_t sz = p.memsz < p.filesz ? p.memsz : p.filesz;
		int holds = has_addr && addr >= p.vaddr && addr - p.vaddr < sz;

		if (p.type != PT_LOAD || !(p.flags & PF_R) || !sz || !in(p.off, sz, size) ||
		    sz > UINT64_MAX - p.vaddr)
			continue;
		/* the last one read (the list's head) unless one holds addr:
		 * then the first of those in list order, or a smaller one */
		if (holds ? !chose || sz <= *len : !chose) {
			*vaddr = p.vaddr, *len = sz, *off = p.off;
			chose = holds;
		}
		found = 1;
	}
	return found ? 0 : -1;
}

size_t ptd_elf_build_id(const uint8_t *d, uint64_t size, uint8_t id[20])
{
	struct ehdr h;
	struct phdr p;
	unsigned i;

	if (!d || ehdr(d, size, &h))
		return 0;
	for (i = 0; i < h.phnum; i++) {
		uint64_t off, len, pos;

		if (phdr(d, size, &h, i, &p))
			return 0;
		if (p.type != PT_NOTE)
			continue;
		off = p.off;
		len = p.filesz;
		if (!in(off, len, size))
			continue;
		for (pos = 0; pos + 12 <= len;) {
			const uint8_t *n = d + off + pos;
			uint64_t namesz = rd(n, 4), descsz = rd(n + 4, 4), type = rd(n + 8, 4);
			uint64_t desc = 12 + ((namesz + 3) & ~3ULL);

			if (desc > len - pos || ((descsz + 3) & ~3ULL) > len - pos - desc)
				break;
			if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(n + 12, "GNU", 4) &&
			    descsz) {
				size_t k = descsz > 20 ? 20 : (size_t)descsz;   /* perf keeps 20 */

				memcpy(id, n + desc, k);
				return k;
			}
			pos += desc + ((descsz + 3) & ~3ULL);
		}
	}
	return 0;
}

/* The .gnu_debuglink file name into out; 0 or -1 */
static int debuglink(const uint8_t *d, uint64_t size, char *out, size_t n)
{
	struct ehdr h;
	uint64_t stroff, strsz;
	const uint8_t *sh;
	unsigned i;

	if (!d || ehdr(d, size, &h) || h.shstrndx >= h.shnum ||
	    !in(h.shoff, (uint64_t)h.shnum * h.shentsize, size) || h.shentsize < (h.is64 ? 64u : 40u))
		return -1;
	sh = d + h.shoff + (uint64_t)h.shstrndx * h.shentsize;
	stroff = h.is64 ? rd(sh + 24, 8) : rd(sh + 16, 4);
	strsz = h.is64 ? rd(sh + 32, 8) : rd(sh + 20, 4);
	if (!in(stroff, strsz, size))
		return -1;
	for (i = 0; i < h.shnum; i++) {
		uint64_t name, off, len;

		sh = d + h.shoff + (uint64_t)i * h.shentsize;
		name = rd(sh, 4);
		if (name >= strsz || strsz - name < sizeof(".gnu_debuglink") ||
		    memcmp(d + stroff + name, ".gnu_debuglink", sizeof(".gnu_debuglink")))
			continue;
		off = h.is64 ? rd(sh + 24, 8) : rd(sh + 16, 4);
		len = h.is64 ? rd(sh + 32, 8) : rd(sh + 20, 4);
		if (!in(off, len, size) || !len || !memchr(d + off, 0, len) || strlen((const char *)d + off) >= n)
			return -1;
		strcpy(out, (const char *)d + off);
		return 0;
	}
	return -1;
}

/* Is the candidate that fmt makes a regular file inside root with a
 * symbol table?  Then its path into out (n bytes).  The candidates are
 * made and tried one at a time in one buffer: eight of them side by side
 * (64 KB of stack) put every call below ptd_symfile_find on pages of
 * their own, each a page fault the first time. */
static __attribute__((format(printf, 5, 6))) bool found(struct ptd_symcache *c, const char *root,
							  char *out, size_t n, const char *fmt, ...)
{
	char cand[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cand, sizeof(cand), fmt, ap);
	va_end(ap);
	if (!ptd_path_regular_within(root, cand) || ptd_symcache_full(c, cand) != 1)
		return false;
	snprintf(out, n, "%s", cand);
	return true;
}

int ptd_symfile_find(struct ptd_symcache *c, const char *symfs, const char *buildid_dir,
		     const char *name, const char *binary, const uint8_t *data, uint64_t size,
		     const uint8_t *map_bid, size_t map_bid_len, char *out, size_t n)
{
	char link[1024], dir[4096], hex[41];
	uint8_t bid[20];
	size_t bidlen = 0, i;
	const char *fs = symfs ? symfs : "", *slash, *bin_root = fs;

	if (map_bid_len && map_bid_len <= 20) {
		memcpy(bid, map_bid, map_bid_len);
		bidlen = map_bid_len;
	} else {
		bidlen = ptd_elf_build_id(data, size, bid);
	}
	for (i = 0; i < bidlen; i++)
		snprintf(hex + 2 * i, 3, "%02x", bid[i]);
	hex[2 * bidlen] = 0;
	/* in perf's order; each must stay inside its root */
	if (binary && !debuglink(data, size, link, sizeof(link))) {
		slash = strrchr(binary, '/');
		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - binary) : 0, binary);
		/* beside the binary: inside the root it was found in */
		if (buildid_dir && !strncmp(binary, buildid_dir, strlen(buildid_dir)) &&
		    (!*fs || strncmp(binary, fs, strlen(fs))))
			bin_root = buildid_dir;
		slash = strrchr(name, '/');
		if (found(c, bin_root, out, n, "%s/%s", dir, link) ||
		    found(c, bin_root, out, n, "%s/.debug/%s", dir, link) ||
		    found(c, fs, out, n, "%s/usr/lib/debug%.*s/%s", fs,
			  slash ? (int)(slash - name) : 0, name, link))
			return 0;
	}
	if ((bidlen && buildid_dir &&
	     found(c, buildid_dir, out, n, "%s/.build-id/%.2s/%s/debug", buildid_dir, hex, hex + 2)) ||
	    found(c, fs, out, n, "%s/usr/lib/debug%s.debug", fs, name) ||
	    found(c, fs, out, n, "%s/usr/lib/debug%s", fs, name) ||
	    (bidlen && found(c, fs, out, n, "%s/usr/lib/debug/.build-id/%.2s/%s.debug", fs, hex,
			     hex + 2)))
		return 0;
	if (!binary)
		return -1;
	snprintf(out, n, "%s", binary);
	return 0;
}
