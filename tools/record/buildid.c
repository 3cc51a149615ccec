#include "tools/record/buildid.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NOTES (1u << 20)

static int find_in_notes(const uint8_t *p, size_t len, uint8_t id[20])
{
	size_t pos = 0;

	while (len - pos >= 12) {
		uint32_t namesz, descsz, type;
		size_t name_end, desc_end;

		memcpy(&namesz, p + pos, 4);
		memcpy(&descsz, p + pos + 4, 4);
		memcpy(&type, p + pos + 8, 4);
		name_end = pos + 12 + (((size_t)namesz + 3) & ~(size_t)3);
		desc_end = name_end + (((size_t)descsz + 3) & ~(size_t)3);
		if (namesz > len || descsz > len || desc_end > len || name_end > len)
			return 0;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(p + pos + 12, "GNU", 4) &&
		    descsz > 0) {
			size_t n = descsz > 20 ? 20 : descsz;

			memcpy(id, p + name_end, n);
			return (int)n;
		}
		pos = desc_end;
	}
	return 0;
}

int ptd_buildid_read(const char *path, uint8_t id[20])
{
	FILE *f = fopen(path, "rb");
	Elf64_Ehdr eh;
	int found = 0;
	unsigned i;

	if (!f)
		return 0;
	if (fread(&eh, sizeof(eh), 1, f) != 1 || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr))
		goto out;
	for (i = 0; i < eh.e_phnum && !found; i++) {
		Elf64_Phdr ph;
		uint8_t *buf;

		if (fseeko(f, (off_t)(eh.e_phoff + (uint64_t)i * sizeof(ph)), SEEK_SET) ||
		    fread(&ph, sizeof(ph), 1, f) != 1)
			goto out;
		if (ph.p_type != PT_NOTE || ph.p_filesz == 0 || ph.p_filesz > MAX_NOTES)
			continue;
		buf = malloc((size_t)ph.p_filesz);
		if (!buf)
			goto out;
		if (!fseeko(f, (off_t)ph.p_offset, SEEK_SET) &&
		    fread(buf, 1, (size_t)ph.p_filesz, f) == ph.p_filesz)
			found = find_in_notes(buf, (size_t)ph.p_filesz, id);
		free(buf);
	}
out:
	fclose(f);
	return found;
}
