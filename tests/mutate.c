/* Writes a damaged copy of a file, for the corrupt-input tests.
 *
 *   mutate IN OUT trunc N            the first N bytes
 *   mutate IN OUT flip OFFSET BIT    one bit flipped
 *   mutate IN OUT set OFFSET WIDTH VALUE   a little-endian field overwritten
 *                                          (WIDTH 1, 2, 4 or 8; VALUE in C syntax)
 *   mutate IN OUT u64 OFFSET         print the u64 at OFFSET (OUT ignored)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	FILE *f;
	unsigned char *buf = NULL;
	long n;
	unsigned long long off;

	if (argc < 5)
		goto usage;
	f = fopen(argv[1], "rb");
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		return perror(argv[1]), 1;
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
		return perror("read"), 1;
	fclose(f);
	off = strtoull(argv[4], NULL, 0);
	if (!strcmp(argv[3], "u64")) {
		uint64_t v = 0;

		if (off + 8 <= (unsigned long long)n)
			memcpy(&v, buf + off, 8);
		printf("%llu\n", (unsigned long long)v);
		free(buf);
		return 0;
	}
	if (!strcmp(argv[3], "trunc")) {
		if (off < (unsigned long long)n)
			n = (long)off;
	} else if (!strcmp(argv[3], "flip") && argc == 6) {
		if (off < (unsigned long long)n)
			buf[off] ^= (unsigned char)(1u << (atoi(argv[5]) & 7));
	} else if (!strcmp(argv[3], "set") && argc == 7) {
		int w = atoi(argv[5]);
		uint64_t v = strtoull(argv[6], NULL, 0);

		if (w != 1 && w != 2 && w != 4 && w != 8)
			goto usage;
		if (off + (unsigned)w <= (unsigned long long)n)
			memcpy(buf + off, &v, (size_t)w);   /* little-endian host */
	} else {
		goto usage;
	}
	f = fopen(argv[2], "wb");
	if (!f || fwrite(buf, 1, (size_t)n, f) != (size_t)n || fclose(f))
		return perror(argv[2]), 1;
	free(buf);
	return 0;
usage:
	free(buf);
	fprintf(stderr, "usage: mutate IN OUT trunc N | flip OFF BIT | set OFF WIDTH VALUE | u64 OFF\n");
	return 2;
}
