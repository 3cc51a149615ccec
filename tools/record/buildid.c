#include "tools/record/buildid.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symfile.h"

int ptd_buildid_read(const char *path, uint8_t id[20])
{
	struct stat st;
	void *m;
	int fd, n = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0) {
		m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m != MAP_FAILED) {
			n = (int)ptd_elf_build_id(m, (uint64_t)st.st_size, id);
			munmap(m, (size_t)st.st_size);
		}
	}
	close(fd);
	return n;
}
