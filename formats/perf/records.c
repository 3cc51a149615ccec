#include "formats/perf/records.h"

#include <string.h>

#include "formats/perf/abi.h"
#include "formats/perf/cursor.h"

size_t ptd_rec_body_size(const struct ptd_event *ev)
{
	size_t trailer = 0;

	if (ev->type < PTD_REC_HEADER_ATTR && ev->type != PTD_REC_SAMPLE &&
	    ev->evsel && ev->evsel->sample_id_all)
		trailer = ev->evsel->id_hdr_size;
	return trailer < ev->size ? ev->size - trailer : ev->size;
}

void ptd_rec_body(const struct ptd_event *ev, struct ptd_cursor *c)
{
	size_t n = ptd_rec_body_size(ev);

	ptd_cur_init(c, ev->data + 8, n > 8 ? n - 8 : 0);
}

static int bad(const struct ptd_event *ev, struct ptd_err *err, const char *what)
{
	const char *n = ptd_rec_name(ev->type);

	return ptd_err_set(err, PTD_E_FORMAT, "%s record at offset %#llx (size %u): %s",
			   n ? n : "unknown", (unsigned long long)ev->offset, ev->size, what);
}

int ptd_rec_mmap(const struct ptd_event *ev, struct ptd_rec_mmap *m, struct ptd_err *err)
{
	struct ptd_cursor c;

	memset(m, 0, sizeof(*m));
	ptd_rec_body(ev, &c);
	m->mmap2 = ev->type == PTD_REC_MMAP2;
	m->pid = ptd_cur_u32(&c);
	m->tid = ptd_cur_u32(&c);
	m->start = ptd_cur_u64(&c);
	m->len = ptd_cur_u64(&c);
	m->pgoff = ptd_cur_u64(&c);
	if (m->mmap2) {
		if (ev->misc & PTD_MISC_MMAP_BUILD_ID) {
			const uint8_t *id;

			m->has_build_id = 1;
			m->build_id_size = ptd_cur_u8(&c);
			ptd_cur_take(&c, 3);
			id = ptd_cur_take(&c, 20);
			if (id)
				memcpy(m->build_id, id, 20);
			if (m->build_id_size > 20)
				return bad(ev, err, "build id size over 20");
		} else {
			m->maj = ptd_cur_u32(&c);
			m->min = ptd_cur_u32(&c);
			m->ino = ptd_cur_u64(&c);
			m->ino_generation = ptd_cur_u64(&c);
		}
		m->prot = ptd_cur_u32(&c);
		m->flags = ptd_cur_u32(&c);
	}
	m->filename = ptd_cur_cstr(&c);
	if (c.bad)
		return bad(ev, err, "fields or file name run past the record");
	return 0;
}

int ptd_rec_comm(const struct ptd_event *ev, struct ptd_rec_comm *m, struct ptd_err *err)
{
	struct ptd_cursor c;

	ptd_rec_body(ev, &c);
	m->pid = ptd_cur_u32(&c);
	m->tid = ptd_cur_u32(&c);
	m->comm = ptd_cur_cstr(&c);
	m->exec = !!(ev->misc & PTD_MISC_COMM_EXEC);
	return c.bad ? bad(ev, err, "comm runs past the record") : 0;
}

int ptd_rec_fork(const struct ptd_event *ev, struct ptd_rec_fork *m, struct ptd_err *err)
{
	struct ptd_cursor c;

	ptd_rec_body(ev, &c);
	m->pid = ptd_cur_u32(&c);
	m->ppid = ptd_cur_u32(&c);
	m->tid = ptd_cur_u32(&c);
	m->ptid = ptd_cur_u32(&c);
	m->time = ptd_cur_u64(&c);
	return c.bad ? bad(ev, err, "too short") : 0;
}

int ptd_rec_lost(const struct ptd_event *ev, struct ptd_rec_lost *m, struct ptd_err *err)
{
	struct ptd_cursor c;

	ptd_rec_body(ev, &c);
	m->id = ev->type == PTD_REC_LOST ? ptd_cur_u64(&c) : 0;
	m->lost = ptd_cur_u64(&c);
	return c.bad ? bad(ev, err, "too short") : 0;
}

int ptd_rec_aux(const struct ptd_event *ev, struct ptd_rec_aux *m, struct ptd_err *err)
{
	struct ptd_cursor c;

	ptd_rec_body(ev, &c);
	m->aux_offset = ptd_cur_u64(&c);
	m->aux_size = ptd_cur_u64(&c);
	m->flags = ptd_cur_u64(&c);
	return c.bad ? bad(ev, err, "too short") : 0;
}

int ptd_rec_itrace_start(const struct ptd_event *ev, struct ptd_rec_itrace_start *m, struct ptd_err *err)
{
	struct ptd_cursor c;

	ptd_rec_body(ev, &c);
	m->pid = ptd_cur_u32(&c);
	m->tid = ptd_cur_u32(&c);
	return c.bad ? bad(ev, err, "too short") : 0;
}

/* Read without a cursor: a record of each context switch, the most
 * common sideband (bench/analysis.md, twenty-eighth round) */
int ptd_rec_switch(const struct ptd_event *ev, struct ptd_rec_switch *m, struct ptd_err *err)
{
	m->out = !!(ev->misc & PTD_MISC_SWITCH_OUT);
	m->preempt = !!(ev->misc & PTD_MISC_SWITCH_OUT_PREEMPT);
	m->cpu_wide = ev->type == PTD_REC_SWITCH_CPU_WIDE;
	m->next_prev_pid = m->next_prev_tid = 0;
	if (!m->cpu_wide)
		return 0;
	if (ptd_rec_body_size(ev) < 16)
		return bad(ev, err, "too short");
	m->next_prev_pid = ptd_load_u32(ev->data + 8);
	m->next_prev_tid = ptd_load_u32(ev->data + 12);
	return 0;
}

int ptd_rec_text_poke(const struct ptd_event *ev, struct ptd_rec_text_poke *m, struct ptd_err *err)
{
	struct ptd_cursor c;

	ptd_rec_body(ev, &c);
	m->addr = ptd_cur_u64(&c);
	m->old_len = ptd_cur_u16(&c);
	m->new_len = ptd_cur_u16(&c);
	m->bytes = ptd_cur_take(&c, (size_t)m->old_len + m->new_len);
	return c.bad ? bad(ev, err, "bytes run past the record") : 0;
}

int ptd_rec_aux_output_hw_id(const struct ptd_event *ev, uint64_t *hw_id, struct ptd_err *err)
{
	struct ptd_cursor c;

	ptd_rec_body(ev, &c);
	*hw_id = ptd_cur_u64(&c);
	return c.bad ? bad(ev, err, "too short") : 0;
}

int ptd_rec_auxtrace_info(const struct ptd_event *ev, struct ptd_rec_auxtrace_info *m, struct ptd_err *err)
{
	struct ptd_cursor c;

	ptd_rec_body(ev, &c);
	m->type = ptd_cur_u32(&c);
	ptd_cur_u32(&c);
	if (c.bad)
		return bad(ev, err, "too short");
	m->nr_priv = ptd_cur_left(&c) / 8;
	m->priv = c.p + c.pos;
	return 0;
}

int ptd_rec_auxtrace(const struct ptd_event *ev, struct ptd_rec_auxtrace *m, struct ptd_err *err)
{
	struct ptd_cursor c;

	ptd_rec_body(ev, &c);
	m->size = ptd_cur_u64(&c);
	m->offset = ptd_cur_u64(&c);
	m->reference = ptd_cur_u64(&c);
	m->idx = ptd_cur_u32(&c);
	m->tid = ptd_cur_u32(&c);
	m->cpu = ptd_cur_u32(&c);
	return c.bad ? bad(ev, err, "too short") : 0;
}

#define AUXTRACE_ERROR_MSG_MAX 64

int ptd_rec_auxtrace_error(const struct ptd_event *ev, struct ptd_rec_auxtrace_error *m, struct ptd_err *err)
{
	struct ptd_cursor c;
	const uint8_t *msg;

	memset(m, 0, sizeof(*m));
	ptd_rec_body(ev, &c);
	m->type = ptd_cur_u32(&c);
	m->code = ptd_cur_u32(&c);
	m->cpu = ptd_cur_u32(&c);
	m->pid = ptd_cur_u32(&c);
	m->tid = ptd_cur_u32(&c);
	m->fmt = ptd_cur_u32(&c);
	m->ip = ptd_cur_u64(&c);
	if (m->fmt == 0) {
		/* the first format had the message where the time is now */
		msg = ptd_cur_take(&c, AUXTRACE_ERROR_MSG_MAX);
		if (c.bad || !memchr(msg, 0, AUXTRACE_ERROR_MSG_MAX))
			return bad(ev, err, "too short or message not terminated");
		m->msg = (const char *)msg;
		return 0;
	}
	m->time = ptd_cur_u64(&c);
	msg = ptd_cur_take(&c, AUXTRACE_ERROR_MSG_MAX);
	if (c.bad)
		return bad(ev, err, "too short");
	if (!memchr(msg, 0, AUXTRACE_ERROR_MSG_MAX))
		return bad(ev, err, "message not terminated");
	m->msg = (const char *)msg;
	m->have_time = m->fmt >= 1;
	if (m->fmt >= 2) {
		m->machine_pid = ptd_cur_u32(&c);
		m->vcpu = ptd_cur_u32(&c);
		if (c.bad)
			m->machine_pid = m->vcpu = 0;
	}
	return 0;
}

int ptd_rec_time_conv(const struct ptd_event *ev, struct ptd_rec_time_conv *m, struct ptd_err *err)
{
	struct ptd_cursor c;

	memset(m, 0, sizeof(*m));
	ptd_rec_body(ev, &c);
	m->time_shift = ptd_cur_u64(&c);
	m->time_mult = ptd_cur_u64(&c);
	m->time_zero = ptd_cur_u64(&c);
	if (c.bad)
		return bad(ev, err, "too short");
	/* newer perf appends time_cycles, time_mask and two capability bytes */
	if (ptd_cur_left(&c) >= 18) {
		m->time_cycles = ptd_cur_u64(&c);
		m->time_mask = ptd_cur_u64(&c);
		m->cap_user_time_zero = ptd_cur_u8(&c);
		m->cap_user_time_short = ptd_cur_u8(&c);
		m->extended = 1;
	}
	return 0;
}
