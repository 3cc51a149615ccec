/* The GNU build id of an ELF file (its NT_GNU_BUILD_ID note). */
#ifndef PTD_RECORD_BUILDID_H
#define PTD_RECORD_BUILDID_H

#include <stdint.h>

/* Fills id (up to 20 bytes) and returns its size, or 0 when the file has
 * none or cannot be read. */
int ptd_buildid_read(const char *path, uint8_t id[20]);

#endif
