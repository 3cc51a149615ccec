/* Code that maps another file over itself and runs on in it
 * (tests/golden/remap.test): the walk must take the code of the file
 * mapped at the time, at an address it was already walking.
 *
 * The program writes two files of raw x86-64 code into the directory
 * given (default "."), maps the first at AT and calls it with n and the
 * second file's descriptor.  Both begin alike: an mmap system call that
 * maps the second file at AT.  After the call the code is the second
 * file's: a loop that counts n down by 2 (6 for n = 12), where the first
 * file's would count it down by 1 with a different branch layout. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#define AT ((void *)0x10000000)

#define HEAD \
	0x41, 0x89, 0xf0,                   /* mov %esi,%r8d (fd) */        \
	0x89, 0x7c, 0x24, 0xf8,             /* mov %edi,-8(%rsp) (n) */     \
	0xb8, 0x09, 0x00, 0x00, 0x00,       /* mov $9,%eax (mmap) */        \
	0xbf, 0x00, 0x00, 0x00, 0x10,       /* mov $AT,%edi */              \
	0xbe, 0x00, 0x10, 0x00, 0x00,       /* mov $4096,%esi */            \
	0xba, 0x05, 0x00, 0x00, 0x00,       /* mov $5,%edx (read, exec) */  \
	0x41, 0xba, 0x12, 0x00, 0x00, 0x00, /* mov $0x12,%r10d (private, fixed) */ \
	0x4d, 0x31, 0xc9,                   /* xor %r9,%r9 (offset 0) */    \
	0x0f, 0x05                          /* syscall */

static const unsigned char a[] = {
	HEAD,
	0x8b, 0x4c, 0x24, 0xf8, /* mov -8(%rsp),%ecx */
	0x31, 0xc0,             /* xor %eax,%eax */
	0xff, 0xc0,             /* 1: inc %eax */
	0xff, 0xc9,             /* dec %ecx */
	0x75, 0xfa,             /* jne 1b */
	0xc3,                   /* ret */
};
static const unsigned char b[] = {
	HEAD,
	0x8b, 0x4c, 0x24, 0xf8, /* mov -8(%rsp),%ecx */
	0x31, 0xc0,             /* xor %eax,%eax */
	0x90,                   /* nop */
	0xff, 0xc0,             /* 1: inc %eax */
	0x83, 0xe9, 0x02,       /* sub $2,%ecx */
	0x7f, 0xf9,             /* jg 1b */
	0xc3,                   /* ret */
};

static int put(const char *path, const unsigned char *code, size_t len)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0755);

	if (fd < 0 || write(fd, code, len) != (ssize_t)len)
		return -1;
	return fd;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : ".";
	char pa[4096], pb[4096];
	int fa, fb, r;
	void *p;

	snprintf(pa, sizeof(pa), "%s/selfmap-a.bin", dir);
	snprintf(pb, sizeof(pb), "%s/selfmap-b.bin", dir);
	if ((fa = put(pa, a, sizeof(a))) < 0 || (fb = put(pb, b, sizeof(b))) < 0)
		return 1;
	p = mmap(AT, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_FIXED, fa, 0);
	if (p != AT)
		return 1;
	r = ((int (*)(int, int))p)(12, fb);
	printf("%d\n", r);
	return r == 6 ? 0 : 1;
}
