/* Files behind maps: see dsofiles.h. */
#include "dsofiles.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/ending.h"
#include "common/u64map.h"
#include "pathsafe.h"
#include "symfile.h"

struct entry {
	struct ptd_dsofile f;
	char *path;
	void *map;
	size_t map_size;
};

struct ptd_dsofiles {
	char *symfs;
	char *buildid_dir;
	char *kernel;                /* --vmlinux, under symfs: the kernel's file */
	char *kernel_name;           /* ... as given */
	char *kallsyms;              /* --kallsyms: the kernel's symbols ... */
	int kallsyms_ok;             /* ... which perf loads (ptd_dsofiles_kernel_map) */
	char *kcore;                 /* the kcore next to a file named kallsyms ... */
	int kcore_ok;                /* ... which gives the kernel's code */
	struct ptd_u64map by_name;   /* hash of the recorded name -> struct entry * chain */
	struct entry **all;
	size_t n, cap;
	char **names;                /* recorded names, parallel to all */
	pthread_mutex_t mu;          /* ptd_dsofiles_get: the decode-ahead threads ask too */
};

struct ptd_dsofiles *ptd_dsofiles_new(const char *symfs, const char *buildid_dir)
{
	struct ptd_dsofiles *f = calloc(1, sizeof(*f));
	const char *home = getenv("HOME");
	char buf[4096];

	if (!f)
		return NULL;
	pthread_mutex_init(&f->mu, NULL);
	if (symfs && *symfs && !(f->symfs = strdup(symfs)))
		goto fail;
	if (buildid_dir) {
		f->buildid_dir = strdup(buildid_dir);
	} else {
		snprintf(buf, sizeof(buf), "%s/.debug", home ? home : "");
		f->buildid_dir = strdup(buf);
	}
	if (!f->buildid_dir)
		goto fail;
	return f;
fail:
	ptd_dsofiles_free(f);
	return NULL;
}

void ptd_dsofiles_free(struct ptd_dsofiles *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->n; i++) {
		if (f->all[i]->map && !ptd_ending())
			munmap(f->all[i]->map, f->all[i]->map_size);
		free(f->all[i]->path);
		free(f->all[i]->f.symfile);
		free(f->all[i]);
		free(f->names[i]);
	}
	free(f->all);
	free(f->names);
	ptd_u64map_fini(&f->by_name);
	free(f->symfs);
	free(f->buildid_dir);
	free(f->kernel);
	free(f->kernel_name);
	free(f->kallsyms);
	free(f->kcore);
	pthread_mutex_destroy(&f->mu);
	free(f);
}

const char *ptd_dsofiles_symfs(const struct ptd_dsofiles *f)
{
	return f->symfs;
}

const char *ptd_dsofiles_buildid_dir(const struct ptd_dsofiles *f)
{
	return f->buildid_dir;
}

/* The local file for a map, into buf; 0 or -1 when there is none. */
static int resolve(const struct ptd_dsofiles *f, const struct ptd_map *map, char *buf, size_t n)
{
	const char *name = map->filename;
	size_t i;
	int k;

	if (name && f->kallsyms && !strcmp(name, PTD_KERNEL_MAP_NAME)) {
		if (!f->kcore_ok)
			return -1;   /* perf reads no code from kallsyms */
		snprintf(buf, n, "%s", f->kcore);
		return ptd_path_regular_within(NULL, buf) ? 0 : -1;
	}
	if (name && f->kernel && !strcmp(name, PTD_KERNEL_MAP_NAME)) {
		snprintf(buf, n, "%s", f->kernel);
		return ptd_path_regular_within(NULL, buf) ? 0 : -1;
	}
	if (!name || name[0] != '/')
		return -1;   /* [vdso], [anon], //anon ... have no file */
	if (f->symfs) {
		snprintf(buf, n, "%s%s", f->symfs, name);
		if (ptd_path_regular_within(f->symfs, buf))
			return 0;
	}
	if (map->build_id_size) {
		k = snprintf(buf, n, "%s/.build-id/%02x/", f->buildid_dir, map->build_id[0]);
		for (i = 1; i < map->build_id_size && k > 0 && (size_t)k + 3 < n; i++)
			k += snprintf(buf + k, n - (size_t)k, "%02x", map->build_id[i]);
		if (k > 0 && (size_t)k + 5 < n) {
			snprintf(buf + k, n - (size_t)k, "/elf");
			if (ptd_path_regular_within(f->buildid_dir, buf))
				return 0;
		}
	}
	if (f->symfs)
		return -1;   /* perf looks under --symfs only */
	snprintf(buf, n, "%s", name);
	return ptd_path_regular_within(NULL, buf) ? 0 : -1;
}

static void open_file(struct entry *e, const char *path)
{
	struct stat st;
	int fd;
	void *m;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0) {
		close(fd);
		return;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return;
	e->map = m;
	e->map_size = (size_t)st.st_size;
	e->f.data = m;
	e->f.size = (uint64_t)st.st_size;
	e->f.is_64_bit = st.st_size > 4 && !memcmp(m, "\177ELF", 4) ? ((const uint8_t *)m)[4] == 2 : 1;
	if (st.st_size >= 18 && !memcmp(m, "\177ELF", 4)) {
		const uint8_t *b = m;   /* e_type, in the file's byte order */

		e->f.is_exec = (b[5] == 2 ? (b[16] << 8 | b[17]) : (b[16] | b[17] << 8)) == 2;
	}
}

static void unload(struct entry *e)
{
	if (e->map)
		munmap(e->map, e->map_size);
	e->map = NULL;
	e->map_size = 0;
	e->f.data = NULL;
	e->f.size = 0;
}

/* perf's symsrc__init: a vmlinux whose build id is not the one recorded
 * (or that has none when one was) is not the kernel's */
static void check_kernel(struct entry *e, const struct ptd_map *map)
{
	uint8_t id[20];
	size_t n;

	if (!map->build_id_size)
		return;
	n = ptd_elf_build_id(e->f.data, e->f.size, id);
	if (n != map->build_id_size || memcmp(id, map->build_id, n))
		unload(e);
}

static struct ptd_dsofile *get(struct ptd_dsofiles *f, const struct ptd_map *map)
{
	const char *name = map->filename ? map->filename : "";
	uint64_t h = ptd_u64map_str_key(name);
	void *slot;
	size_t i;
	char buf[4096];
	struct entry *e;

	slot = ptd_u64map_get(&f->by_name, h);
	if (slot) {
		/* the value is the index + 1 of the first entry with this hash */
		for (i = (size_t)(uintptr_t)slot - 1; i < f->n; i++)
			if (!strcmp(f->names[i], name))
				return &f->all[i]->f;
	}
	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 16;
		struct entry **a = realloc(f->all, cap * sizeof(*a));
		char **nm;

		if (!a)
			return NULL;
		f->all = a;
		nm = realloc(f->names, cap * sizeof(*nm));
		if (!nm)
			return NULL;
		f->names = nm;
		f->cap = cap;
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	f->names[f->n] = strdup(name);
	if (!f->names[f->n]) {
		free(e);
		return NULL;
	}
	e->f.is_64_bit = 1;
	if (!resolve(f, map, buf, sizeof(buf))) {
		e->path = strdup(buf);
		e->f.path = e->path;
		if (e->path)
			open_file(e, buf);
		if (e->f.data && f->kernel && !strcmp(name, PTD_KERNEL_MAP_NAME))
			check_kernel(e, map);
	}
	f->all[f->n] = e;
	if (!slot)
		ptd_u64map_put(&f->by_name, h, (void *)(uintptr_t)(f->n + 1));
	f->n++;
	return &e->f;
}

struct ptd_dsofile *ptd_dsofiles_get(struct ptd_dsofiles *f, const struct ptd_map *map)
{
	struct ptd_dsofile *r;

	pthread_mutex_lock(&f->mu);
	r = get(f, map);
	pthread_mutex_unlock(&f->mu);
	return r;
}

int ptd_dsofiles_set_kernel(struct ptd_dsofiles *f, const char *vmlinux)
{
	const char *root = f->symfs ? f->symfs : "";
	const char *sep = f->symfs && vmlinux[0] != '/' ? "/" : "";
	size_t n = strlen(root) + strlen(sep) + strlen(vmlinux) + 1;

	free(f->kernel);
	free(f->kernel_name);
	f->kernel_name = strdup(vmlinux);
	if (!(f->kernel = malloc(n)) || !f->kernel_name)
		return -1;
	snprintf(f->kernel, n, "%s%s%s", root, sep, vmlinux);
	return 0;
}

const char *ptd_dsofiles_kernel_name(const struct ptd_dsofiles *f)
{
	return f->kallsyms ? (f->kcore_ok ? f->kcore : NULL) : f->kernel_name;
}

int ptd_dsofiles_set_kallsyms(struct ptd_dsofiles *f, const char *path)
{
	const char *base = strrchr(path, '/');
	size_t dir = base ? (size_t)(base - path) + 1 : 0;

	free(f->kallsyms);
	free(f->kcore);
	f->kcore = NULL;
	f->kallsyms = strdup(path);
	f->kallsyms_ok = 1;
	f->kcore_ok = 0;
	if (!f->kallsyms)
		return -1;
	/* filename_from_kallsyms_filename: a kcore beside a file named kallsyms */
	if (!strcmp(path + dir, "kallsyms")) {
		if (!(f->kcore = malloc(dir + sizeof("kcore"))))
			return -1;
		memcpy(f->kcore, path, dir);
		memcpy(f->kcore + dir, "kcore", sizeof("kcore"));
	}
	return 0;
}

const char *ptd_dsofiles_kallsyms(const struct ptd_dsofiles *f)
{
	return f->kallsyms_ok ? f->kallsyms : NULL;
}

/* perf's dso__load_kcore: the kernel's map becomes the kcore segment
 * that holds _stext, its code read from there; 0 when there is no such
 * kcore (then kallsyms alone) */
static int kcore_map(struct ptd_dsofiles *f, const struct ptd_kallsyms_info *ki, struct ptd_map *map)
{
	struct ptd_dsofile *k;
	uint64_t vaddr = 0, len = 0, off = 0;

	f->kcore_ok = 1;
	k = ptd_dsofiles_get(f, map);
	if (k && k->data && !ptd_kcore_segment(k->data, k->size, ki->has_stext, ki->stext, &vaddr,
					       &len, &off)) {
		map->start = map->pgoff = vaddr;
		map->end = vaddr + len;
		map->file_adj = off - vaddr;
		map->sym_adj = 0;
		map->kcore = 1;
		return 1;
	}
	if (k)
		unload((struct entry *)k);   /* its first member */
	f->kcore_ok = 0;
	return 0;
}

/* perf's kernel map from kallsyms: kallsyms__delta (the file's _text less
 * the recorded one, which a relocated kernel's file moves) comes off every
 * symbol; a kcore beside it (with no relocation: validate_kcore_addresses)
 * gives the map and the code; else map__fixup_start/end put the map over
 * the symbols (an address outside is in no map).  Symbols are looked up
 * at address + delta; the map stays by address. */
static void kallsyms_map(struct ptd_dsofiles *f, struct ptd_symcache *syms, struct ptd_map *map)
{
	struct ptd_kallsyms_info ki;
	uint64_t delta = 0;

	if (ptd_symcache_kallsyms_info(syms, &ki))
		return;   /* it does not load: no symbols */
	if (map->pgoff) {
		if (!ki.has_text) {
			f->kallsyms_ok = 0;   /* perf's load fails without _text */
			return;
		}
		delta = ki.text - map->pgoff;
	}
	if (f->kcore && !delta && kcore_map(f, &ki, map))
		return;
	if (!ki.nsyms)
		return;   /* no kernel symbol: the map stays */
	map->start = ki.first - delta;
	map->end = ki.end - delta;
	if (map->end < map->start)
		map->end = UINT64_MAX;   /* symbols near the top of the address space */
	map->pgoff = map->start;
	map->sym_adj = delta;
}

void ptd_dsofiles_kernel_map(struct ptd_dsofiles *f, struct ptd_symcache *syms, struct ptd_map *map)
{
	struct ptd_dsofile *k;
	uint64_t off;

	if (!map->filename || strcmp(map->filename, PTD_KERNEL_MAP_NAME))
		return;
	if (f->kallsyms) {
		kallsyms_map(f, syms, map);
		return;
	}
	if (!f->kernel)
		return;
	k = ptd_dsofiles_get(f, map);
	if (k && k->data && !ptd_elf_vaddr_offset(k->data, k->size, map->start, &off))
		map->file_adj = map->sym_adj = off - map->pgoff;
}

int ptd_kcore_dir_kallsyms(const char *input, char *buf, size_t n)
{
	struct stat st;

	if (!input || stat(input, &st) || !S_ISDIR(st.st_mode))
		return 0;
	if ((size_t)snprintf(buf, n, "%s/kcore_dir/kallsyms", input) >= n)
		return 0;
	return access(buf, F_OK) == 0;
}
