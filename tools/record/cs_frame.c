#include "config.h"
#include "tools/record/cs_frame.h"

#include <string.h>

size_t ptd_cs_frames_size(size_t n)
{
	return (n + PTD_CS_FRAME_DATA - 1) / PTD_CS_FRAME_DATA * PTD_CS_FRAME_SIZE;
}

/* byte `pos` (0..14) of frame f holds b as data */
static void data(uint8_t *f, unsigned pos, uint8_t b)
{
	if (pos & 1) {
		f[pos] = b;
		return;
	}
	f[pos] = (uint8_t)(b & 0xfe);
	f[15] = (uint8_t)(f[15] | ((b & 1) << (pos / 2)));
}

size_t ptd_cs_frames(uint8_t id, const uint8_t *in, size_t n, uint8_t *out)
{
	size_t done = 0, o = 0;

	while (done < n) {
		uint8_t *f = out + o;
		unsigned pos = 1;

		memset(f, 0, PTD_CS_FRAME_SIZE);
		f[0] = (uint8_t)(id << 1 | 1);
		while (pos < 15 && done < n)
			data(f, pos++, in[done++]);
		if (pos < 15) {
			if (pos & 1) {
				/* the last data byte (even) moves after an ID change
				 * flagged "next byte is the old ID" */
				uint8_t last = (uint8_t)(f[pos - 1] | ((f[15] >> ((pos - 1) / 2)) & 1));

				f[15] = (uint8_t)(f[15] & ~(1u << ((pos - 1) / 2)));
				f[pos - 1] = 0x01;
				f[15] = (uint8_t)(f[15] | (1u << ((pos - 1) / 2)));
				f[pos] = last;
			} else {
				f[pos] = 0x01;   /* null ID; the rest is its (zero) data */
			}
		}
		o += PTD_CS_FRAME_SIZE;
	}
	return o;
}
