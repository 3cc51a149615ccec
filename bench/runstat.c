/* Run a command with its standard output to a file (default /dev/null)
 * and print its wall time in seconds, its peak resident set size in KiB
 * (getrusage's ru_maxrss of the child) and its exit status:
 *   runstat [-o FILE] [-e FILE] -- COMMAND [ARGS...]
 * prints "WALL MAXRSS STATUS" on standard output. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int redirect(const char *path, int fd)
{
	int f = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (f < 0 || dup2(f, fd) < 0)
		return -1;
	close(f);
	return 0;
}

int main(int argc, char **argv)
{
	const char *out = "/dev/null", *err = NULL;
	struct timespec t0, t1;
	struct rusage ru;
	int i = 1, status;
	pid_t pid;

	for (; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "-e") && i + 1 < argc)
			err = argv[++i];
		else
			break;
	}
	if (i >= argc || strcmp(argv[i], "--") || i + 1 >= argc) {
		fprintf(stderr, "usage: runstat [-o FILE] [-e FILE] -- COMMAND [ARGS...]\n");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		perror("runstat: fork");
		return 1;
	}
	if (!pid) {
		if (redirect(out, 1) || (err && redirect(err, 2))) {
			perror("runstat: redirect");
			_exit(127);
		}
		execvp(argv[i + 1], argv + i + 1);
		perror("runstat: exec");
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("runstat: wait4");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%.6f %ld %d\n", (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       ru.ru_maxrss, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return 0;
}
