/* Raw inputs (formats/raw) and the image (src/image): ptxed-style argument
 * forms, flat binaries, ELF segments (good and damaged), trace ranges, and
 * reading memory back through the image. */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/raw/raw.h"
#include "image.h"
#include "tests/tap.h"

static char dir[] = "/tmp/ptd-test-raw.XXXXXX";

static const char *path_of(const char *name)
{
	static char buf[4][256];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", dir, name);
	return buf[i];
}

static void write_file(const char *name, const void *data, size_t n)
{
	FILE *f = fopen(path_of(name), "wb");

	if (!f || fwrite(data, 1, n, f) != n || fclose(f))
		abort();
}

/* An ELF64 file: header, 3 program headers (LOAD 0x1000 at 0x400000,
 * a NOTE, LOAD 0x2000 at 0x600000 with filesz 0x10) and their contents. */
static size_t make_elf(uint8_t *buf, size_t cap)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph[3];
	size_t i, n = 0x2010;

	if (cap < n)
		abort();
	memset(buf, 0, n);
	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_EXEC;
	eh.e_machine = EM_X86_64;
	eh.e_phoff = sizeof(eh);
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = 3;
	memset(ph, 0, sizeof(ph));
	ph[0].p_type = PT_LOAD;
	ph[0].p_offset = 0x1000;
	ph[0].p_vaddr = 0x400000;
	ph[0].p_filesz = 0x1000;
	ph[1].p_type = PT_NOTE;
	ph[1].p_offset = 0x200;
	ph[1].p_filesz = 0x20;
	ph[2].p_type = PT_LOAD;
	ph[2].p_offset = 0x2000;
	ph[2].p_vaddr = 0x600000;
	ph[2].p_filesz = 0x10;
	memcpy(buf, &eh, sizeof(eh));
	memcpy(buf + sizeof(eh), ph, sizeof(ph));
	for (i = 0x1000; i < n; i++)
		buf[i] = (uint8_t)i;
	return n;
}

static int read_back(struct ptd_image *im, uint64_t va, uint8_t want)
{
	uint8_t b = 0;

	return ptd_image_read(im, &b, 1, va, 0) == 1 && b == want;
}

static int cb_reads;

static int reader(void *ctx, uint8_t *buf, size_t size, uint64_t vaddr, uint64_t asid)
{
	(void)ctx;
	(void)asid;
	cb_reads++;
	if (vaddr < 0x9000 || vaddr >= 0x9100)
		return -1;
	memset(buf, 0xcc, size);
	return (int)size;
}

int main(void)
{
	struct ptd_err err = { 0 };
	struct ptd_file_range fr;
	struct ptd_image *im;
	struct ptd_cpu cpu;
	struct ptd_raw_trace t;
	uint8_t elf[0x2010], data[256];
	char arg[512];
	size_t n, i;

	if (!mkdtemp(dir))
		return 1;
	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)i;
	write_file("flat.bin", data, sizeof(data));
	write_file("empty.pt", data, 0);

	/* FILE[:FROM[-TO]] */
	ok(!ptd_raw_parse_range("a.pt", &fr, &err) && !strcmp(fr.path, "a.pt") && !fr.offset && !fr.size,
	   "range: plain file name");
	free(fr.path);
	ok(!ptd_raw_parse_range("a.pt:0x10", &fr, &err) && !strcmp(fr.path, "a.pt") && fr.offset == 16 && !fr.size,
	   "range: offset");
	free(fr.path);
	ok(!ptd_raw_parse_range("a.pt:16-0x20", &fr, &err) && fr.offset == 16 && fr.size == 16, "range: from-to");
	free(fr.path);
	ok(!ptd_raw_parse_range("c:name", &fr, &err) && !strcmp(fr.path, "c:name") && !fr.offset,
	   "range: a ':' that starts no number belongs to the name");
	free(fr.path);
	ok(ptd_raw_parse_range("a.pt:0x20-0x10", &fr, &err) == -PTD_E_INVAL, "range: TO below FROM refused");

	/* --cpu */
	ok(!ptd_raw_parse_cpu(&cpu, "6/142/10", &err) && cpu.vendor == PTD_CPU_INTEL && cpu.family == 6 &&
	   cpu.model == 142 && cpu.stepping == 10, "cpu: F/M/S");
	ok(!ptd_raw_parse_cpu(&cpu, "6/0x8e", &err) && cpu.model == 0x8e && !cpu.stepping, "cpu: F/M, hex");
	ok(!ptd_raw_parse_cpu(&cpu, "none", &err) && cpu.vendor == PTD_CPU_UNKNOWN, "cpu: none");
	ok(ptd_raw_parse_cpu(&cpu, "6", &err) && ptd_raw_parse_cpu(&cpu, "6/300", &err) &&
	   ptd_raw_parse_cpu(&cpu, "6/1/2/3", &err) && ptd_raw_parse_cpu(&cpu, "x/y", &err) &&
	   ptd_raw_parse_cpu(&cpu, "6//1", &err), "cpu: bad forms refused");

	/* --raw */
	if (ptd_image_new(&im, &err))
		return 1;
	snprintf(arg, sizeof(arg), "%s:0x1000", path_of("flat.bin"));
	ok(!ptd_raw_add_binary(im, arg, &err), "raw: FILE:BASE (%s)", err.msg);
	snprintf(arg, sizeof(arg), "%s:0x10-0x20:0x2000", path_of("flat.bin"));
	ok(!ptd_raw_add_binary(im, arg, &err), "raw: FILE:FROM-TO:BASE (%s)", err.msg);
	snprintf(arg, sizeof(arg), "%s:0x80:0x1080", path_of("flat.bin"));
	ok(!ptd_raw_add_binary(im, arg, &err), "raw: FILE:FROM:BASE");
	is_u64(ptd_image_nsections(im), 3, "raw: three sections");
	ok(ptd_image_section(im, 1)->offset == 0x10 && ptd_image_section(im, 1)->size == 0x10 &&
	   ptd_image_section(im, 2)->size == 0x80, "raw: ranges become offset and size");
	ok(read_back(im, 0x1005, 5) && read_back(im, 0x2000, 0x10) && read_back(im, 0x200f, 0x1f) &&
	   read_back(im, 0x10ff, 0xff), "image: bytes read back from the right file offsets");
	ok(ptd_image_read(im, data, 1, 0x2010, 0) == -PTD_E_NOTFOUND, "image: nothing after a range's end");
	n = (size_t)ptd_image_read(im, data, sizeof(data), 0x10f0, 0);
	is_u64(n, 16, "image: a read stops at its section's end");
	snprintf(arg, sizeof(arg), "%s", path_of("flat.bin"));
	ok(ptd_raw_add_binary(im, arg, &err) == -PTD_E_INVAL, "raw: a missing BASE is refused");
	snprintf(arg, sizeof(arg), "%s:0x100:0x5000", path_of("flat.bin"));
	ok(ptd_raw_add_binary(im, arg, &err) == -PTD_E_INVAL, "raw: an offset at the end of the file is refused");
	snprintf(arg, sizeof(arg), "%s:0x10-0x200:0x5000", path_of("flat.bin"));
	ok(ptd_raw_add_binary(im, arg, &err) == -PTD_E_INVAL, "raw: a range past the end is refused (%s)", err.msg);
	snprintf(arg, sizeof(arg), "%s:0x1000", path_of("missing.bin"));
	ok(ptd_raw_add_binary(im, arg, &err) == -PTD_E_IO && strstr(err.msg, "No such file"),
	   "raw: a missing file is named");
	ok(ptd_image_add_file(im, path_of("flat.bin"), 0, 0x100, UINT64_MAX - 0x10, &err) == -PTD_E_INVAL,
	   "image: a section wrapping the address space is refused");
	cb_reads = 0;
	ptd_image_set_reader(im, reader, NULL);
	ok(read_back(im, 0x9010, 0xcc) && read_back(im, 0x1001, 1) && cb_reads == 1,
	   "image: the callback answers only where no section does");
	ptd_image_free(im);

	/* --elf */
	n = make_elf(elf, sizeof(elf));
	write_file("a.elf", elf, n);
	if (ptd_image_new(&im, &err))
		return 1;
	ok(!ptd_raw_add_elf(im, path_of("a.elf"), &err), "elf: loads (%s)", err.msg);
	ok(ptd_image_nsections(im) == 2 && ptd_image_section(im, 0)->vaddr == 0x400000 &&
	   ptd_image_section(im, 1)->vaddr == 0x600000 && ptd_image_section(im, 1)->size == 0x10,
	   "elf: the two PT_LOAD segments at their addresses");
	ok(read_back(im, 0x400010, 0x10) && read_back(im, 0x600001, 0x01), "elf: contents read back");
	ptd_image_free(im);
	if (ptd_image_new(&im, &err))
		return 1;
	snprintf(arg, sizeof(arg), "%s:0x7f0000000000", path_of("a.elf"));
	ok(!ptd_raw_add_elf(im, arg, &err) && ptd_image_section(im, 0)->vaddr == 0x7f0000000000 &&
	   ptd_image_section(im, 1)->vaddr == 0x7f0000200000, "elf: FILE:BASE moves the lowest segment to BASE");
	ptd_image_free(im);

	{
		uint8_t bad[0x2010] __attribute__((aligned(8)));
		Elf64_Ehdr *eh = (Elf64_Ehdr *)bad;
		Elf64_Phdr *ph = (Elf64_Phdr *)(bad + sizeof(Elf64_Ehdr));
		struct {
			const char *what;
			int want;
		} cases[] = {
			{ "phoff past the end", -PTD_E_FORMAT },
			{ "a segment past the end", -PTD_E_FORMAT },
			{ "tiny program header entries", -PTD_E_FORMAT },
			{ "truncated header", -PTD_E_TRUNCATED },
			{ "not an ELF file", -PTD_E_FORMAT },
			{ "big-endian", -PTD_E_UNSUPPORTED },
			{ "no PT_LOAD", -PTD_E_FORMAT },
		};
		size_t len;

		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			memcpy(bad, elf, n);
			len = n;
			switch (i) {
			case 0: eh->e_phoff = 0x10000; break;
			case 1: ph[2].p_filesz = 0x1000; break;
			case 2: eh->e_phentsize = 8; break;
			case 3: len = 40; break;
			case 4: bad[1] = 'X'; break;
			case 5: bad[EI_DATA] = ELFDATA2MSB; break;
			case 6: ph[0].p_type = ph[2].p_type = PT_NULL; break;
			}
			write_file("bad.elf", bad, len);
			if (ptd_image_new(&im, &err))
				return 1;
			ptd_err_clear(&err);
			ok(ptd_raw_add_elf(im, path_of("bad.elf"), &err) == cases[i].want && err.msg[0],
			   "elf: %s refused (%s)", cases[i].what, err.msg);
			ptd_image_free(im);
		}
	}

	/* --pt */
	snprintf(arg, sizeof(arg), "%s:0x10-0x18", path_of("flat.bin"));
	ok(!ptd_raw_trace_open(&t, arg, &err) && t.size == 8 && t.data[0] == 0x10 && t.data[7] == 0x17,
	   "trace: a byte range");
	ptd_raw_trace_close(&t);
	snprintf(arg, sizeof(arg), "%s:0x1001", path_of("flat.bin"));
	ok(ptd_raw_trace_open(&t, arg, &err) == -PTD_E_INVAL && !t.size, "trace: an offset past the end is refused");
	ok(!ptd_raw_trace_open(&t, path_of("empty.pt"), &err) && !t.size, "trace: an empty file is an empty trace");
	ptd_raw_trace_close(&t);
	ok(ptd_raw_trace_open(&t, path_of("nope.pt"), &err) == -PTD_E_IO, "trace: a missing file");

	unlink(path_of("flat.bin"));
	unlink(path_of("empty.pt"));
	unlink(path_of("a.elf"));
	unlink(path_of("bad.elf"));
	rmdir(dir);
	return done_testing();
}
