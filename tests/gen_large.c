/* Writes a perf.data larger than 4 GiB without using the disk space: one
 * AUXTRACE record whose payload is a hole of GIB GiB in a sparse file,
 * surrounded by COMM records.  Tests read it for 64-bit offsets and for
 * memory that does not grow with the file.
 *
 *   gen_large OUT.data GIB
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/perf/abi.h"
#include "formats/perf/recbuf.h"
#include "formats/perf/writer.h"

#define ST (PTD_SAMPLE_TID | PTD_SAMPLE_TIME | PTD_SAMPLE_CPU)

static struct ptd_err err;

static int comm(struct ptd_writer *w, uint64_t time)
{
	struct ptd_recbuf rb;
	struct ptd_sample_id sid = { .pid = 1, .tid = 1, .time = time, .cpu = 0 };

	ptd_rb_start(&rb, PTD_REC_COMM, 0);
	ptd_rb_u32(&rb, 1);
	ptd_rb_u32(&rb, 1);
	ptd_rb_str(&rb, "big");
	ptd_rb_sample_id(&rb, ST, &sid);
	return ptd_writer_data(w, rb.buf, ptd_rb_finish(&rb), NULL, &err);
}

int main(int argc, char **argv)
{
	uint8_t attr[64] = { 0 };
	uint64_t v, size;
	uint32_t u;
	struct ptd_writer *w = NULL;
	struct ptd_recbuf rb;

	if (argc != 3) {
		fprintf(stderr, "usage: gen_large OUT.data GIB\n");
		return 1;
	}
	size = strtoull(argv[2], NULL, 0) << 30;
	u = 1; memcpy(attr, &u, 4);                  /* software */
	u = 64; memcpy(attr + 4, &u, 4);
	v = ST; memcpy(attr + 24, &v, 8);
	v = 1ULL << 18; memcpy(attr + 40, &v, 8);    /* sample_id_all */
	if (ptd_writer_open(&w, argv[1], &err) || ptd_writer_attr(w, attr, 64, NULL, 0, &err) ||
	    comm(w, 100))
		goto fail;
	ptd_rb_start(&rb, PTD_REC_AUXTRACE, 0);
	ptd_rb_u64(&rb, size);
	ptd_rb_u64(&rb, 0);
	ptd_rb_u64(&rb, 0);
	ptd_rb_u32(&rb, 0);
	ptd_rb_u32(&rb, 1);
	ptd_rb_u32(&rb, 0);
	ptd_rb_u32(&rb, 0);
	if (ptd_writer_data(w, rb.buf, ptd_rb_finish(&rb), NULL, &err) ||
	    ptd_writer_hole(w, size, &err) || comm(w, 200) || ptd_writer_close(w, &err))
		goto fail;
	return 0;
fail:
	fprintf(stderr, "gen_large: %s\n", err.msg);
	return 1;
}
