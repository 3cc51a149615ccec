/* The sideband model: threads with their comm history, processes with their
 * memory maps, each change stamped with its perf time, so that "which comm,
 * which map at time t" can be asked after the whole file was read.
 *
 * pid -1 (PTD_KERNEL_PID) holds the kernel's maps. */
#ifndef PTD_MACHINE_H
#define PTD_MACHINE_H

#include <stdint.h>

#include "common/err.h"
#include "common/u64map.h"
#include "common/vec.h"

#define PTD_KERNEL_PID (-1)
#define PTD_KERNEL_MAP_NAME "[kernel.kallsyms]"   /* the kernel image's map */

struct ptd_map {
	uint64_t start, end;        /* [start, end) */
	uint64_t pgoff;
	uint64_t file_adj;          /* file offsets of the code are pgoff-based offsets
	                               plus this, ... */
	uint64_t sym_adj;           /* ... and those of the symbols plus this: 0 but
	                               for the kernel (ptd_dsofiles_kernel_map) */
	int kcore;                  /* the kernel's, from a kcore: perf cuts the
	                               symbols at its end */
	uint64_t time;              /* perf time it appeared (0: from the start) */
	uint64_t seq;               /* order of arrival, breaks time ties */
	uint32_t prot, flags;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint8_t build_id_size;      /* 0: none in the record */
	uint8_t build_id[20];
	const char *filename;       /* owned by the machine */
};

/* The file offset of address addr of map m's file, where code is read,
 * and where its symbols are looked up (perf's map offset, addr - start +
 * pgoff, is what it prints). */
static inline uint64_t ptd_map_file_off(const struct ptd_map *m, uint64_t addr)
{
	return addr - m->start + m->pgoff + m->file_adj;
}

static inline uint64_t ptd_map_sym_off(const struct ptd_map *m, uint64_t addr)
{
	return addr - m->start + m->pgoff + m->sym_adj;
}

struct ptd_comm {
	uint64_t time;
	int exec;
	const char *comm;           /* owned by the machine */
};

struct ptd_thread {
	int32_t pid, tid;
	int32_t ppid;
	uint64_t start_time;        /* FORK time, 0 when unknown */
	uint64_t exit_time;         /* EXIT time, 0 while alive */
	struct ptd_vec comms;       /* struct ptd_comm, in arrival order */
};

struct ptd_process {
	int32_t pid;
	struct ptd_vec maps;        /* struct ptd_map, in arrival order */
};

struct ptd_machine {
	struct ptd_u64map threads;  /* tid -> struct ptd_thread */
	struct ptd_u64map procs;    /* pid -> struct ptd_process */
	struct ptd_vec strings;     /* char *, owned */
	uint64_t seq;
	uint64_t nr_maps;
};

void ptd_machine_init(struct ptd_machine *m);
void ptd_machine_fini(struct ptd_machine *m);

/* Changes.  Each returns 0 or -PTD_E_NOMEM / -PTD_E_LIMIT. */
int ptd_machine_comm(struct ptd_machine *m, int32_t pid, int32_t tid, const char *comm,
		     int exec, uint64_t time);
int ptd_machine_fork(struct ptd_machine *m, int32_t pid, int32_t ppid, int32_t tid,
		     int32_t ptid, uint64_t time);
int ptd_machine_exit(struct ptd_machine *m, int32_t pid, int32_t tid, uint64_t time);
/* map->filename is copied; pid PTD_KERNEL_PID for kernel maps */
int ptd_machine_mmap(struct ptd_machine *m, int32_t pid, int32_t tid,
		     const struct ptd_map *map);

/* Queries.  Results are borrowed from the machine. */
struct ptd_thread *ptd_machine_thread(const struct ptd_machine *m, int32_t tid);
/* comm of tid at `time` (the latest set at or before it, or the first one
 * when all are later); NULL when the thread has none. */
const char *ptd_machine_comm_at(const struct ptd_machine *m, int32_t tid, uint64_t time);
/* perf script's comm for a sample of tid (-1: none) at `time`: the
 * thread's, as ptd_machine_comm_at, or "swapper" for tid 0, perf's idle
 * thread, when there is no thread 0 */
const char *ptd_machine_sample_comm(const struct ptd_machine *m, int32_t tid, uint64_t time);
/* map containing addr at `time` (the latest to appear at or before time):
 * among the kernel's maps when `kernel` is set, else among process pid's. */
const struct ptd_map *ptd_machine_find_map(const struct ptd_machine *m, int32_t pid,
					   int kernel, uint64_t addr, uint64_t time);

/* ptd_machine_find_map, remembering its last answers in *h (zeroed before
 * the first call): an answer holds for any address in the map and any time
 * between the arrivals of the process's maps around it.  Only while no map
 * is added (the decoding after the session ran). */
#define PTD_MAP_HINTS 4
struct ptd_map_hint {
	struct {
		const struct ptd_map *map;   /* NULL: empty */
		uint64_t key;                /* the process: (uint32_t)pid */
		uint64_t from, until;        /* times it holds for: [from, until) */
	} e[PTD_MAP_HINTS];
	unsigned next;                   /* the one to replace */
	unsigned last;                   /* the last answer */
};
const struct ptd_map *ptd_machine_find_map_hints(const struct ptd_machine *m, int32_t pid,
						 int kernel, uint64_t addr, uint64_t time,
						 struct ptd_map_hint *h);

/* The last answer checked inline: the walk asks again and again for the
 * map it is in. */
static inline const struct ptd_map *ptd_machine_find_map_hint(const struct ptd_machine *m,
							      int32_t pid, int kernel,
							      uint64_t addr, uint64_t time,
							      struct ptd_map_hint *h)
{
	const struct ptd_map *mp = h->e[h->last].map;

	if (mp && h->e[h->last].key == (uint32_t)(kernel ? PTD_KERNEL_PID : pid) &&
	    addr >= mp->start && addr < mp->end && time >= h->e[h->last].from &&
	    time < h->e[h->last].until)
		return mp;
	return ptd_machine_find_map_hints(m, pid, kernel, addr, time, h);
}

#endif
