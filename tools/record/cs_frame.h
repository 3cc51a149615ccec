/* The CoreSight trace formatter (TPIU/TMC in formatted mode): one trace
 * source's bytes wrapped in 16-byte frames, as an ETR sink writes them to
 * memory (perf's AUX data without PERF_AUX_FLAG_CORESIGHT_FORMAT_RAW).
 *
 * Each frame starts with an ID change to the source's trace ID (byte 0:
 * ID << 1 | 1, taking effect at once) and carries 14 data bytes; byte 15
 * holds bit 0 of the data in the even bytes (the even bytes carry bits
 * 7:1, their bit 0 marking an ID change).  A last frame that the data does
 * not fill is padded with the null trace ID 0: an ID change at the next
 * even byte (when the data ends at an even byte, that byte becomes the ID
 * change with its flag set, "the next byte is still the old source", and
 * the data byte moves to the odd byte after it), then zeros. */
#ifndef PTD_RECORD_CS_FRAME_H
#define PTD_RECORD_CS_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define PTD_CS_FRAME_SIZE 16
#define PTD_CS_FRAME_DATA 14

/* Bytes of frames for n data bytes. */
size_t ptd_cs_frames_size(size_t n);

/* Write the frames of data[0, n) with trace ID `id` (1..0x6f) to out,
 * which holds ptd_cs_frames_size(n) bytes; returns that size. */
size_t ptd_cs_frames(uint8_t id, const uint8_t *data, size_t n, uint8_t *out);

#endif
