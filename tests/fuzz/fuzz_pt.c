/* libFuzzer harness: arbitrary bytes as an Intel PT stream, decoded by the
 * intel-pt backend (libipt) over the code of a real program (the loops
 * binary of testdata/record, its PT_LOAD segments at their addresses), as
 * raw mode does.  Every input must decode to an end: errors become gap
 * samples, loops that consume no trace are cut short. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "decoders/decoder.h"
#include "formats/raw/raw.h"
#include "image.h"

#ifndef FUZZ_TESTDATA
#define FUZZ_TESTDATA "testdata"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ptd_image *im;
	static const struct ptd_decoder_ops *ops;
	static const struct ptd_raw_image_arg elf = { 1, FUZZ_TESTDATA "/record/bin/loops" };
	struct ptd_decoder_env env = { 0 };
	struct ptd_auxinfo info = { 0 };
	struct ptd_auxbuf buf = { data, size, 0 };
	struct ptd_trace_sample s;
	struct ptd_decoder *d = NULL;
	struct ptd_err err = { 0 };

	if (!ops) {
		ops = ptd_decoder_find("intel-pt");
		if (!ops || ptd_image_new(&im, &err) || ptd_raw_add_images(im, &elf, 1, &err)) {
			fprintf(stderr, "fuzz_pt: cannot set up: %s\n", err.msg);
			abort();
		}
	}
	env.image = im;
	if (ops->create(&d, &info, &env, &err))
		return 0;
	if (!ops->feed(d, &buf, &err))
		while (ops->next(d, &s, &err) > 0)
			;
	ops->destroy(d);
	return 0;
}
