/* --dump of SAMPLE records: the lines perf's dump_sample prints for each
 * sample_type field, then the thread and dso the sample resolves to. */
#include "formats/out/dump_priv.h"

#include <inttypes.h>
#include <string.h>

#include "formats/perf/abi.h"
#include "formats/perf/cursor.h"

static const char *reg_name_x86(unsigned id)
{
	static const char *const gp[] = {
		"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
		"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
	};
	static const char *const xmm[] = {
		"XMM0", "XMM1", "XMM2", "XMM3", "XMM4", "XMM5", "XMM6", "XMM7", "XMM8",
		"XMM9", "XMM10", "XMM11", "XMM12", "XMM13", "XMM14", "XMM15",
	};

	if (id < sizeof(gp) / sizeof(gp[0]))
		return gp[id];
	if (id >= 32 && id < 64)
		return xmm[(id - 32) / 2];
	return NULL;
}

static const char *reg_name_arm64(unsigned id)
{
	static const char *const x[] = {
		"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11",
		"x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20", "x21", "x22",
		"x23", "x24", "x25", "x26", "x27", "x28", "x29", "lr", "sp", "pc",
	};

	if (id < sizeof(x) / sizeof(x[0]))
		return x[id];
	return id == 46 ? "vg" : "unknown";
}

static void regs(FILE *f, const char *type, uint64_t abi, uint64_t mask,
		 const uint8_t *vals, const char *arch)
{
	static const char *const abis[] = { "none", "32-bit", "64-bit" };
	unsigned id, i = 0;

	if (!vals)
		return;
	fprintf(f, "... %s regs: mask 0x%" PRIx64 " ABI %s\n", type, mask,
		abi < 3 ? abis[abi] : "unknown");
	for (id = 0; id < 64; id++) {
		const char *name = NULL;

		if (!((mask >> id) & 1))
			continue;
		if (!strcmp(arch, "x86"))
			name = reg_name_x86(id);
		else if (!strcmp(arch, "arm64"))
			name = reg_name_arm64(id);
		fprintf(f, ".... %-5s 0x%016" PRIx64 "\n", name ? name : "(null)",
			ptd_load_u64(vals + 8 * i++));
	}
}

static const char *branch_type(uint64_t flags)
{
	static const char *const names[] = {
		"N/A", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL",
		"SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX", "",
	};
	static const char *const new_names[] = {
		"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1", "ARCH_2", "ARCH_3",
		"ARCH_4", "ARCH_5", "", "", "", "", "", "", "", "",
	};
	unsigned type = (unsigned)(flags >> 20) & 0xf;

	if (type == 0)
		return "";
	if (type == 15)
		return new_names[(flags >> 26) & 0xf];
	return names[type];
}

static void branch_stack(FILE *f, const struct ptd_sample *s)
{
	uint64_t i;

	fprintf(f, "... branch stack: nr:%" PRIu64 "\n", s->nr_branch);
	for (i = 0; i < s->nr_branch; i++) {
		const uint8_t *e = s->branches + 24 * i;
		uint64_t fl = ptd_load_u64(e + 16);

		fprintf(f, "..... %2" PRIu64 ": %016" PRIx64 " -> %016" PRIx64 " %hu cycles %s%s%s%s %x %s\n",
			i, ptd_load_u64(e), ptd_load_u64(e + 8), (unsigned short)((fl >> 4) & 0xffff),
			(fl & 1) ? "M" : " ", (fl & 2) ? "P" : " ", (fl & 8) ? "A" : " ",
			(fl & 4) ? "T" : " ", (unsigned)(fl >> 33), branch_type(fl));
	}
}

static const char *page_size(uint64_t size, char *buf, size_t len)
{
	static const char units[] = "BKMGTPE";
	unsigned u = 0;

	if (!size) {
		snprintf(buf, len, "N/A");
		return buf;
	}
	while (u + 1 < sizeof(units) - 1 && size >= 1024 && !(size % 1024)) {
		size /= 1024;
		u++;
	}
	snprintf(buf, len, "%" PRIu64 "%c", size, units[u]);
	return buf;
}

/* one counter's line: its value, then the id and lost count read_format adds */
static void read_value(FILE *f, struct ptd_cursor *c, uint64_t rf, uint64_t value)
{
	uint64_t id = 0, lost = 0;

	if (rf & PTD_FORMAT_ID)
		id = ptd_cur_u64(c);
	if (rf & PTD_FORMAT_LOST)
		lost = ptd_cur_u64(c);
	fprintf(f, "..... id %016" PRIx64 ", value %016" PRIx64, id, value);
	if (rf & PTD_FORMAT_LOST)
		fprintf(f, ", lost %" PRIu64, lost);
	fputc('\n', f);
}

static void sample_read(FILE *f, const struct ptd_sample *s, uint64_t rf)
{
	struct ptd_cursor c;
	uint64_t nr = 1, i;

	ptd_cur_init(&c, s->read, s->read_size);
	fprintf(f, "... sample_read:\n");
	if (rf & PTD_FORMAT_GROUP)
		nr = ptd_cur_u64(&c);
	else
		ptd_cur_u64(&c);   /* value; printed below with the id */
	if (rf & PTD_FORMAT_TOTAL_TIME_ENABLED)
		fprintf(f, "...... time enabled %016" PRIx64 "\n", ptd_cur_u64(&c));
	if (rf & PTD_FORMAT_TOTAL_TIME_RUNNING)
		fprintf(f, "...... time running %016" PRIx64 "\n", ptd_cur_u64(&c));
	if (!(rf & PTD_FORMAT_GROUP)) {
		read_value(f, &c, rf, ptd_load_u64(s->read));
		return;
	}
	fprintf(f, ".... group nr %" PRIu64 "\n", nr);
	for (i = 0; i < nr && !c.bad; i++)
		read_value(f, &c, rf, ptd_cur_u64(&c));
}

void ptd_dump_sample(struct ptd_dump *d, struct ptd_session *s, const struct ptd_event *ev)
{
	const struct ptd_sample *sm = &ev->sample;
	const struct ptd_evsel *es = ev->evsel;
	FILE *f = d->out;
	uint64_t st;
	char buf[32];
	unsigned cpumode;
	uint64_t i;

	if (!ev->sample_ok) {
		fprintf(f, "(IP, 0x%x): unparsable sample\n", ev->misc);
		return;
	}
	st = es->sample_type;
	fprintf(f, "(IP, 0x%x): %d/%d: %#" PRIx64 " period: %" PRIu64 " addr: %#" PRIx64 "\n",
		ev->misc, (int)sm->pid, (int)sm->tid, sm->ip,
		(st & PTD_SAMPLE_PERIOD) ? sm->period : es->sample_period, sm->addr);
	if (st & PTD_SAMPLE_CALLCHAIN) {
		fprintf(f, "... FP chain: nr:%" PRIu64 "\n", sm->nr_callchain);
		for (i = 0; i < sm->nr_callchain; i++)
			fprintf(f, "..... %2d: %016" PRIx64 "\n", (int)i, ptd_load_u64(sm->callchain + 8 * i));
	}
	if (st & PTD_SAMPLE_BRANCH_STACK)
		branch_stack(f, sm);
	if (st & PTD_SAMPLE_REGS_USER)
		regs(f, "user", sm->user_regs_abi, es->sample_regs_user, sm->user_regs, d->arch);
	if (st & PTD_SAMPLE_REGS_INTR)
		regs(f, "intr", sm->intr_regs_abi, es->sample_regs_intr, sm->intr_regs, d->arch);
	if (st & PTD_SAMPLE_STACK_USER)
		fprintf(f, "... ustack: size %" PRIu64 ", offset 0x%x\n", sm->user_stack_size,
			sm->user_stack ? (unsigned)(sm->user_stack - 8 - ev->data) : 0);
	if (st & (PTD_SAMPLE_WEIGHT | PTD_SAMPLE_WEIGHT_STRUCT)) {
		uint64_t w = sm->weight;

		if (st & PTD_SAMPLE_WEIGHT_STRUCT)
			fprintf(f, "... weight: %" PRIu64 ",0x%" PRIx16 ",0x%" PRIx16 "\n",
				w & 0xffffffff, (uint16_t)(w >> 32), (uint16_t)(w >> 48));
		else
			fprintf(f, "... weight: %" PRIu64 "\n", w);
	}
	if (st & PTD_SAMPLE_DATA_SRC)
		fprintf(f, " . data_src: 0x%" PRIx64 "\n", sm->data_src);
	if (st & PTD_SAMPLE_PHYS_ADDR)
		fprintf(f, " .. phys_addr: 0x%" PRIx64 "\n", sm->phys_addr);
	if (st & PTD_SAMPLE_DATA_PAGE_SIZE)
		fprintf(f, " .. data page size: %s\n", page_size(sm->data_page_size, buf, sizeof(buf)));
	if (st & PTD_SAMPLE_CODE_PAGE_SIZE)
		fprintf(f, " .. code page size: %s\n", page_size(sm->code_page_size, buf, sizeof(buf)));
	if (st & PTD_SAMPLE_TRANSACTION)
		fprintf(f, "... transaction: %" PRIx64 "\n", sm->transaction);
	if (st & PTD_SAMPLE_READ)
		sample_read(f, sm, es->read_format);

	/* thread and dso are resolved when the record is printed, once the
	 * records around it in time have been read */
	d->cur.n = s->cur_deliveries;
	d->cur.pid = (int32_t)sm->pid;
	d->cur.tid = (int32_t)sm->tid;
	d->cur.ip = sm->ip;
	d->cur.time = sm->time;
	cpumode = ev->misc & PTD_MISC_CPUMODE_MASK;
	d->cur.kernel = cpumode == PTD_MISC_KERNEL || cpumode == PTD_MISC_GUEST_KERNEL;
}

void ptd_dump_resolve(struct ptd_dump *d, struct ptd_session *s, const struct ptd_dump_pending *p)
{
	const struct ptd_map *map;
	const char *comm;
	char buf[32];
	unsigned n = p->n;

	if (!n)
		return;
	comm = ptd_machine_comm_at(&s->machine, p->tid, p->time);
	if (!comm && p->tid == 0)
		comm = "swapper";   /* perf's idle thread */
	if (!comm) {
		snprintf(buf, sizeof(buf), ":%d", (int)p->tid);
		comm = buf;
	}
	map = ptd_machine_find_map(&s->machine, p->pid, p->kernel, p->ip, p->time);
	while (n--) {
		fprintf(d->out, " ... thread: %s:%d\n", comm, (int)p->tid);
		fprintf(d->out, " ...... dso: %s\n", map ? map->filename : "<not found>");
	}
}
