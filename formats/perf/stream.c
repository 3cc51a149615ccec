/* Handing out records one by one: framing checks, payloads, compressed
 * records, the header records of pipe mode, and each record's attr and
 * sample_id. */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/perf/abi.h"
#include "formats/perf/cursor.h"
#include "formats/perf/decomp.h"
#include "formats/perf/reader_priv.h"

static const char *tname(uint32_t type)
{
	const char *n = ptd_rec_name(type);

	return n ? n : "unknown";
}

/* HEADER_ATTR: attr (attr.size bytes, 0 meaning 64) then sample ids */
static int header_attr(struct ptd_reader *r, const uint8_t *rec, size_t size, struct ptd_err *err)
{
	uint32_t asz;
	size_t nids;

	if (size < 8 + PTD_ATTR_SIZE_VER0)
		return ptd_err_set(err, PTD_E_FORMAT, "too short for an attr");
	asz = ptd_load_u32(rec + 8 + 4);
	if (!asz)
		asz = PTD_ATTR_SIZE_VER0;
	if (asz < PTD_ATTR_SIZE_VER0 || asz > size - 8)
		return ptd_err_set(err, PTD_E_FORMAT, "attr.size %u does not fit the record", asz);
	nids = (size - 8 - asz) / 8;
	return ptd_evlist_add(&r->evlist, rec + 8, asz, (const uint64_t *)(rec + 8 + asz), nids, NULL, err);
}

/* EVENT_UPDATE of type NAME (2) names an evsel */
static void event_update(struct ptd_reader *r, const uint8_t *rec, size_t size)
{
	struct ptd_evsel *ev;
	const char *name;
	size_t n;

	if (size < 24 || ptd_load_u64(rec + 8) != 2)
		return;
	ev = ptd_evlist_by_id(&r->evlist, ptd_load_u64(rec + 16));
	if (!ev)
		return;
	name = (const char *)rec + 24;
	n = strnlen(name, size - 24);
	free(ev->name);
	ev->name = strndup(name, n);
}

/* ev's evsel, and its sample or its sample_id trailer: 0, or
 * -PTD_E_FORMAT when they do not parse (err says why, for a sample) */
static int event_ids(struct ptd_event *ev, struct ptd_evsel *evsel, struct ptd_err *err)
{
	struct ptd_err e;

	ev->evsel = evsel;
	if (ev->type != PTD_REC_SAMPLE)
		return ptd_parse_sample_id(evsel, ev->data, ev->size, &ev->sid);
	if (ptd_sample_parse(evsel, ev->data, ev->size, &ev->sample, err ? err : &e))
		return -PTD_E_FORMAT;
	ev->sample_ok = 1;
	ev->sid.have = evsel->sample_type;
	ev->sid.pid = ev->sample.pid;
	ev->sid.tid = ev->sample.tid;
	ev->sid.time = ev->sample.time;
	ev->sid.id = ev->sample.id;
	ev->sid.stream_id = ev->sample.stream_id;
	ev->sid.cpu = ev->sample.cpu;
	return 0;
}

/* Fill *ev for one record and apply what it says about the header. */
static int deliver(struct ptd_reader *r, struct ptd_event *ev, const uint8_t *rec,
		   size_t size, uint64_t off, int compressed, struct ptd_err *err)
{
	struct ptd_err e;
	int rc = 0;

	ptd_event_fill(ev, rec, size, off, compressed, NULL, NULL);
	r->hdr.nr_records++;

	switch (ev->type) {
	case PTD_REC_HEADER_ATTR:
		rc = header_attr(r, rec, size, &e);
		break;
	case PTD_REC_HEADER_FEATURE:
		if (size < 16)
			rc = ptd_err_set(&e, PTD_E_FORMAT, "too short");
		else if (ptd_features_parse(&r->feat, (unsigned)ptd_load_u64(rec + 8), rec + 16,
					    size - 16, &r->evlist, &e))
			ptd_reader_warnf(r, "FEATURE record at offset %#llx: %s",
					 (unsigned long long)off, e.msg);
		break;
	case PTD_REC_HEADER_BUILD_ID:
		if (ptd_features_parse(&r->feat, PTD_FEAT_BUILD_ID, rec, size, NULL, &e))
			ptd_reader_warnf(r, "BUILD_ID record at offset %#llx: %s",
					 (unsigned long long)off, e.msg);
		break;
	case PTD_REC_EVENT_UPDATE:
		event_update(r, rec, size);
		break;
	case PTD_REC_AUXTRACE:
		if (size < PTD_AUXTRACE_REC_SIZE)
			rc = ptd_err_set(&e, PTD_E_FORMAT, "size %zu is smaller than an AUXTRACE record (%d)",
					 size, PTD_AUXTRACE_REC_SIZE);
		else if (compressed)
			rc = ptd_err_set(&e, PTD_E_UNSUPPORTED, "AUXTRACE inside compressed data");
		break;
	default:
		break;
	}
	if (rc)
		return ptd_err_set(err, -rc, "record at offset %#llx (%s, type %u, size %zu): %s",
				   (unsigned long long)off, tname(ev->type), ev->type, size, e.msg);

	if (ev->type == PTD_REC_SAMPLE) {
		struct ptd_evsel *evsel = ptd_evlist_for_record(&r->evlist, rec, size, 1);

		if (!evsel)
			ptd_reader_warnf(r, "SAMPLE at offset %#llx: no attr for its sample id; skipped",
					 (unsigned long long)off);
		else if (event_ids(ev, evsel, &e))
			ptd_reader_warnf(r, "record at offset %#llx: %s; skipped", (unsigned long long)off, e.msg);
	} else if (ev->type < PTD_REC_HEADER_ATTR) {
		struct ptd_evsel *evsel = ptd_evlist_for_record(&r->evlist, rec, size, 0);

		if (evsel && event_ids(ev, evsel, NULL))
			ptd_reader_warnf(r, "%s at offset %#llx: too short for its sample_id trailer",
					 tname(ev->type), (unsigned long long)off);
	}
	return 0;
}

int ptd_event_fill(struct ptd_event *ev, const uint8_t *rec, size_t size, uint64_t off,
		   int compressed, struct ptd_evsel *evsel, struct ptd_err *err)
{
	/* every member but the sample (most of the event's 400 bytes, its
	 * last), which is read only where sample_ok says it was parsed, and
	 * parsing clears it; member by member, as a memset of the rest took
	 * more instructions than the stores (a record is filled twice when
	 * it is queued in time order) */
	ev->offset = off;
	ev->compressed = compressed;
	ev->type = ptd_load_u32(rec);
	ev->misc = (uint16_t)(ptd_load_u32(rec + 4) & 0xffff);
	ev->size = (uint16_t)size;
	ev->data = rec;
	ev->evsel = NULL;
	ev->sid = (struct ptd_sample_id){ .pid = (uint32_t)-1, .tid = (uint32_t)-1,
					  .cpu = (uint32_t)-1 };
	ev->payload = (struct ptd_payload){ 0 };
	ev->sample_ok = 0;
	return evsel ? event_ids(ev, evsel, err) : 0;
}

/* bytes that follow a record in the stream */
static uint64_t trailing_bytes(const uint8_t *rec, uint32_t type)
{
	if (type == PTD_REC_AUXTRACE)
		return ptd_load_u64(rec + 8);
	if (type == PTD_REC_HEADER_TRACING_DATA)
		return (ptd_load_u32(rec + 8) + 7ULL) & ~7ULL;
	return 0;
}

static int start_compressed(struct ptd_reader *r, const uint8_t *rec, size_t size,
			    uint32_t type, uint64_t off, struct ptd_err *err)
{
	const uint8_t *data = rec + 8;
	size_t len = size - 8;

	if (type == PTD_REC_COMPRESSED2) {
		uint64_t dsz;

		if (size < 16)
			return ptd_err_set(err, PTD_E_FORMAT, "record at offset %#llx (COMPRESSED2): too short",
					   (unsigned long long)off);
		dsz = ptd_load_u64(rec + 8);
		data = rec + 16;
		len = size - 16;
		if (dsz > len)
			return ptd_err_set(err, PTD_E_FORMAT,
					   "record at offset %#llx (COMPRESSED2): data_size %llu exceeds the record",
					   (unsigned long long)off, (unsigned long long)dsz);
		len = (size_t)dsz;
	}
	if (!r->decomp && ptd_decomp_new(&r->decomp, err))
		return ptd_err_append(err, "record at offset %#llx (%s)", (unsigned long long)off, tname(type));
	r->comp_offset = off;
	return ptd_decomp_feed(r->decomp, data, len, err);
}

int ptd_reader_next(struct ptd_reader *r, struct ptd_event *ev, struct ptd_err *err)
{
	const uint8_t *p;
	uint64_t off, after;
	uint32_t type;
	size_t size = 0;
	int rc;

	if (r->decomp) {
		const uint8_t *rec = NULL;

		rc = ptd_decomp_next(r->decomp, &rec, &size, err);
		if (rc < 0)
			return ptd_err_append(err, "compressed record at offset %#llx",
					      (unsigned long long)r->comp_offset);
		if (rc > 0)
			return deliver(r, ev, rec, size, r->comp_offset, 1, err) ? -err->code : 1;
	}
	off = r->pos;
	if (r->hdr.pipe) {
		rc = ptd_reader_pipe_eof(r, off, err);
		if (rc < 0)
			return ptd_err_append(err, "data before offset %#llx", (unsigned long long)off);
	} else {
		rc = off >= r->end;
	}
	if (rc) {
		if (r->decomp && ptd_decomp_pending(r->decomp))
			ptd_reader_warnf(r, "%zu bytes of an unfinished record at the end of the compressed data",
					 ptd_decomp_pending(r->decomp));
		return 0;
	}
	if (!r->hdr.pipe && r->end - off < 8)
		return ptd_err_set(err, PTD_E_TRUNCATED,
				   "record at offset %#llx: only %llu bytes left in the data section, less than a record header",
				   (unsigned long long)off, (unsigned long long)(r->end - off));
	p = ptd_reader_window(r, off, 8, err);
	if (!p)
		return ptd_err_append(err, "record header at offset %#llx", (unsigned long long)off);
	type = ptd_load_u32(p);
	size = ptd_load_u32(p + 4) >> 16;
	if (size < 8)
		return ptd_err_set(err, PTD_E_FORMAT, "record at offset %#llx (%s, type %u): size %zu is smaller than its header",
				   (unsigned long long)off, tname(type), type, size);
	if (!r->hdr.pipe && size > r->end - off)
		return ptd_err_set(err, PTD_E_TRUNCATED,
				   "record at offset %#llx (%s, type %u): size %zu runs past the end of the data section at %#llx",
				   (unsigned long long)off, tname(type), type, size, (unsigned long long)r->end);
	p = ptd_reader_window(r, off, size, err);
	if (!p)
		return ptd_err_append(err, "record at offset %#llx (%s, type %u, size %zu)",
				      (unsigned long long)off, tname(type), type, size);
	after = (type == PTD_REC_AUXTRACE && size < PTD_AUXTRACE_REC_SIZE) ? 0 : trailing_bytes(p, type);
	if (r->hdr.pipe && type == PTD_REC_AUXTRACE && r->opts.keep_payloads) {
		/* copying the payload below moves the window: keep the record */
		if (!r->rec_copy && !(r->rec_copy = malloc(65536)))
			return ptd_err_set(err, PTD_E_NOMEM, "record at offset %#llx (%s): out of memory",
					   (unsigned long long)off, tname(type));
		memcpy(r->rec_copy, p, size);
		p = r->rec_copy;
	}
	if (deliver(r, ev, p, size, off, 0, err))
		return -err->code;
	r->pos = off + size;
	if (after) {
		if (!r->hdr.pipe) {
			if (after > r->end - r->pos)
				return ptd_err_set(err, PTD_E_TRUNCATED,
						   "record at offset %#llx (%s): payload of %llu bytes runs past the end of the data section at %#llx",
						   (unsigned long long)off, tname(type), (unsigned long long)after,
						   (unsigned long long)r->end);
			ev->payload.available = 1;
			ev->payload.offset = r->pos;
			ev->payload.size = after;
		} else if (type == PTD_REC_AUXTRACE && r->opts.keep_payloads) {
			ev->payload.size = after;
			rc = ptd_reader_pipe_payload(r, r->pos, after, &ev->payload, err);
			if (rc)
				return ptd_err_append(err, "record at offset %#llx (%s)",
						      (unsigned long long)off, tname(type));
		} else {
			/* pipe input is skipped by the next window() call */
			ev->payload.spilled = 1;
			ev->payload.size = after;
		}
		if (type != PTD_REC_AUXTRACE)
			memset(&ev->payload, 0, sizeof(ev->payload));
		r->pos += after;
	}
	if (type == PTD_REC_COMPRESSED || type == PTD_REC_COMPRESSED2) {
		if (start_compressed(r, p, size, type, off, err))
			return -err->code;
	}
	return 1;
}

int ptd_reader_read_payload(struct ptd_reader *r, const struct ptd_payload *p,
			    uint64_t off, void *buf, size_t len, struct ptd_err *err)
{
	if (!p->available)
		return ptd_err_set(err, PTD_E_NOTFOUND, "AUX payload was not kept");
	if (off > p->size || len > p->size - off)
		return ptd_err_set(err, PTD_E_INVAL, "read [%#llx, +%#zx) outside a payload of %#llx bytes",
				   (unsigned long long)off, len, (unsigned long long)p->size);
	if (p->spilled) {
		if (fflush(r->spill) || pread(fileno(r->spill), buf, len, (off_t)(p->offset + off)) != (ssize_t)len)
			return ptd_err_set(err, PTD_E_IO, "reading the AUX spill file");
		return 0;
	}
	return ptd_reader_pread(r, p->offset + off, buf, len, err);
}
