/* Execution source: qemu user mode; see exec_qemu.h. */
#define _GNU_SOURCE
#include "tools/record/exec_qemu.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tools/record/classify.h"
#include "tools/record/elfimage.h"
#include "tools/record/qemu_blocks.h"
#include "tools/record/qemu_code.h"

#define BUFSZ (1u << 20)
#define MAX_ARGS 65536

struct qrun {
	const struct ptd_xsink *sink;
	struct ptd_err *err;
	pid_t pid;
	int fd;                 /* the FIFO, read end (opened read-write) */
	int pidfd;              /* -1: poll with a timeout instead */
	int exited;
	int feeding;            /* 0 once the walker asked to stop */
	char dir[PATH_MAX];
	char fifo[PATH_MAX + 8];
	unsigned arch;          /* enum ptd_arch */
	struct ptd_elfimage *img;
	struct ptd_qcode *code;
	struct ptd_classifier *cls;
	struct ptd_qblocks *blocks;
	struct ptd_qwalk *walk;
	struct ptd_qemu_stats st;
};

/* ---- the program ---- */

static int find_program(const char *name, char *out, size_t outsz, struct ptd_err *err)
{
	const char *path = getenv("PATH");

	if (strchr(name, '/')) {
		if ((size_t)snprintf(out, outsz, "%s", name) >= outsz)
			return ptd_err_set(err, PTD_E_INVAL, "program path too long");
		return 0;
	}
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");
		struct stat st;

		if ((size_t)snprintf(out, outsz, "%.*s/%s", (int)n, n ? path : ".", name) < outsz &&
		    stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, X_OK) == 0)
			return 0;
		path += n;
		if (*path == ':')
			path++;
	}
	return ptd_err_set(err, PTD_E_IO, "%s: not found in PATH", name);
}

/* ---- qemu ---- */

static int make_fifo(struct qrun *r)
{
	const char *tmp = getenv("TMPDIR");

	if (!tmp || !*tmp)
		tmp = "/tmp";
	if ((size_t)snprintf(r->dir, sizeof(r->dir), "%s/ptd-qemu-XXXXXX", tmp) >= sizeof(r->dir))
		return ptd_err_set(r->err, PTD_E_INVAL, "TMPDIR too long");
	if (!mkdtemp(r->dir)) {
		r->dir[0] = '\0';
		return ptd_err_set(r->err, PTD_E_IO, "mkdtemp in %s: %s", tmp, strerror(errno));
	}
	snprintf(r->fifo, sizeof(r->fifo), "%s/log", r->dir);
	if (mkfifo(r->fifo, 0600) < 0)
		return ptd_err_set(r->err, PTD_E_IO, "mkfifo %s: %s", r->fifo, strerror(errno));
	/* read-write: the open does not wait for qemu, and reads never see an
	 * end of file; the end is qemu's exit */
	r->fd = open(r->fifo, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (r->fd < 0)
		return ptd_err_set(r->err, PTD_E_IO, "open %s: %s", r->fifo, strerror(errno));
	(void)fcntl(r->fd, F_SETPIPE_SZ, 1 << 20);   /* fewer wake-ups; best effort */
	return 0;
}

static int spawn(struct qrun *r, const char *const argv[], const char *prog,
		 const struct ptd_qemu_opts *o)
{
	const char *qemu = o && o->qemu ? o->qemu
				       : r->arch == PTD_ARCH_AARCH64 ? "qemu-aarch64" : "qemu-x86_64";
	const char **qa;
	size_t n = 0, k = 0;
	int pfd[2], e = 0;

	while (argv[n])
		if (++n > MAX_ARGS)
			return ptd_err_set(r->err, PTD_E_LIMIT, "more than %d arguments", MAX_ARGS);
	qa = calloc(n + 10, sizeof(*qa));
	if (!qa)
		return ptd_err_set(r->err, PTD_E_NOMEM, "out of memory");
	qa[k++] = qemu;
	qa[k++] = "-d";
	/* -d page: the layout after loading shows qemu's trampoline page */
	qa[k++] = r->arch == PTD_ARCH_AARCH64 ? "exec,nochain,strace,page" : "exec,nochain,strace";
	qa[k++] = "-D";
	qa[k++] = r->fifo;
	qa[k++] = "-0";
	qa[k++] = argv[0];
	qa[k++] = prog;
	for (size_t i = 1; i < n; i++)
		qa[k++] = argv[i];
	qa[k] = NULL;
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		free(qa);
		return ptd_err_set(r->err, PTD_E_IO, "pipe: %s", strerror(errno));
	}
	fflush(NULL);
	r->pid = fork();
	if (r->pid == 0) {
		close(pfd[0]);
		if (o && o->no_aslr)
			personality(ADDR_NO_RANDOMIZE);
		if (o && o->envp)
			execvpe(qemu, (char *const *)qa, (char *const *)o->envp);
		else
			execvp(qemu, (char *const *)qa);
		e = errno;
		if (write(pfd[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	free(qa);
	close(pfd[1]);
	if (r->pid < 0) {
		close(pfd[0]);
		return ptd_err_set(r->err, PTD_E_IO, "fork: %s", strerror(errno));
	}
	if (read(pfd[0], &e, sizeof(e)) == (ssize_t)sizeof(e)) {
		close(pfd[0]);
		waitpid(r->pid, NULL, 0);
		r->pid = -1;
		return ptd_err_set(r->err, PTD_E_UNSUPPORTED, "cannot run %s: %s", qemu, strerror(e));
	}
	close(pfd[0]);
	r->pidfd = (int)syscall(SYS_pidfd_open, r->pid, 0);
	return 0;
}

/* ---- the log ---- */

/* a hex number of the log, with or without 0x */
static const char *hex(const char *p, const char *end, uint64_t *v)
{
	if (end - p >= 2 && p[0] == '0' && p[1] == 'x')
		p += 2;
	return ptd_qlog_hex(p, end, v);
}

/* "Trace N: 0xHOST [CSBASE/PC/FLAGS/CFLAGS] symbol", p at "Trace ". */
static int parse_trace(struct qrun *r, const char *p, const char *end)
{
	unsigned vcpu = 0;
	uint64_t host = 0, csbase, pc;
	const char *s;
	int rc;

	p += 6;
	for (s = p; p < end && *p >= '0' && *p <= '9' && p - s < 9; p++)
		vcpu = vcpu * 10 + (unsigned)(*p - '0');
	if (p == s || end - p < 2 || p[0] != ':' || p[1] != ' ')
		goto bad;
	p += 2;
	if (end - p >= 5 && !memcmp(p, "(nil)", 5))
		p += 5;
	else if (!(p = hex(p, end, &host)))
		goto bad;
	if (end - p < 2 || p[0] != ' ' || p[1] != '[' || !(p = hex(p + 2, end, &csbase)) ||
	    p >= end || *p != '/' || !(p = hex(p + 1, end, &pc)) || p >= end || *p != '/')
		goto bad;
	rc = ptd_qwalk_block(r->walk, vcpu, pc, host, r->err);
	if (rc > 0)
		r->feeding = 0;
	return rc < 0 ? rc : 0;
bad:
	return ptd_err_set(r->err, PTD_E_FORMAT, "qemu log: cannot parse '%.*s'",
			   (int)(end - s > 120 ? 120 : end - s), s - 6);
}

/* "Stopped execution of TB chain before 0xHOST [PC] symbol". */
static int parse_stopped(struct qrun *r, const char *p, const char *end)
{
	static const char pre[] = "Stopped execution of TB chain before ";
	const char *s = p;
	uint64_t host = 0, pc;

	p += sizeof(pre) - 1;
	if (end - p >= 5 && !memcmp(p, "(nil)", 5))
		p += 5;
	else if (!(p = hex(p, end, &host)))
		goto bad;
	if (end - p < 2 || p[0] != ' ' || p[1] != '[' || !(p = hex(p + 2, end, &pc)) || p >= end ||
	    *p != ']')
		goto bad;
	return ptd_qwalk_stopped(r->walk, pc, host, r->err);
bad:
	return ptd_err_set(r->err, PTD_E_FORMAT, "qemu log: cannot parse '%.*s'",
			   (int)(end - s > 120 ? 120 : end - s), s);
}

/* A line of -d page output (AArch64, until the layout after the load has
 * been seen): report qemu's trampoline page when it shows. */
static int layout(struct qrun *r, const char *p, const char *end)
{
	struct ptd_xmap m;
	int rc;

	if (ptd_qcode_log_line(r->code, p, end, &m) <= 0)
		return 0;
	rc = r->sink->mmap(r->sink->ctx, r->pid, r->pid, &m);
	if (rc < 0)
		return ptd_err_set(r->err, -rc > 0 && -rc < PTD_E_MAX ? -rc : PTD_E_INVAL,
				   "mmap callback failed");
	return 0;
}

static int line(struct qrun *r, const char *p, const char *end)
{
	static const char stopped[] = "Stopped execution of TB chain before ";
	const char *q;
	int rc;

	r->st.lines++;
	if (!r->feeding)
		return 0;
	if (end - p > 6 && !memcmp(p, "Trace ", 6))
		return parse_trace(r, p, end);
	if (ptd_qcode_wants_log(r->code) && (rc = layout(r, p, end)) < 0)
		return rc;
	if (end - p > 7 && !memcmp(p, "--- SIG", 7))
		ptd_qwalk_signal(r->walk);
	if ((size_t)(end - p) > sizeof(stopped) && !memcmp(p, stopped, sizeof(stopped) - 1))
		return parse_stopped(r, p, end);
	/* a system call line that another thread's line was written into */
	if ((q = memmem(p, (size_t)(end - p), "Trace ", 6)) && end - q > 10)
		return parse_trace(r, q, end);
	if ((q = memmem(p, (size_t)(end - p), stopped, sizeof(stopped) - 1)))
		return parse_stopped(r, q, end);
	return 0;
}

/* Wait a little for more log data; note qemu's exit.  Sleeping rather
 * than waiting on the pipe lets data pile up: qemu writes one line per
 * write(), and reading them one by one would cost more than qemu itself.
 * Returns 0, or negative on error. */
static int nap(struct qrun *r)
{
	struct pollfd p = { r->pidfd, POLLIN, 0 };
	int status;
	pid_t w;

	if (r->exited)
		return 0;
	if (r->pidfd >= 0) {
		if (poll(&p, 1, 1) < 0 && errno != EINTR)
			return ptd_err_set(r->err, PTD_E_IO, "poll: %s", strerror(errno));
		if (!p.revents)
			return 0;
	} else {
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
	w = waitpid(r->pid, &status, WNOHANG);
	if (w == r->pid) {
		r->exited = 1;
		r->st.exit_status = status;
	}
	return 0;
}

static int pump(struct qrun *r)
{
	char *buf = malloc(BUFSZ);
	size_t len = 0;
	int rc = 0;

	if (!buf)
		return ptd_err_set(r->err, PTD_E_NOMEM, "out of memory");
	for (;;) {
		int was_exited = r->exited;
		ssize_t n = read(r->fd, buf + len, BUFSZ - len);
		char *p, *nl;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN) {
			rc = ptd_err_set(r->err, PTD_E_IO, "reading the qemu log: %s", strerror(errno));
			break;
		}
		if (n <= 0) {
			if (was_exited) {
				/* qemu was gone before this read found the pipe
				 * empty: that was all of it */
				rc = len ? line(r, buf, buf + len) : 0;
				break;
			}
			if ((rc = nap(r)) < 0)
				break;
			continue;
		}
		r->st.bytes += (uint64_t)n;
		len += (size_t)n;
		for (p = buf; (nl = memchr(p, '\n', (size_t)(buf + len - p))); p = nl + 1)
			if ((rc = line(r, p, nl)) < 0)
				goto out;
		if (!r->feeding && r->pid > 0 && !r->exited)
			kill(r->pid, SIGKILL);   /* enough instructions */
		len = (size_t)(buf + len - p);
		if (len == BUFSZ) {
			/* a line longer than the buffer: keep its tail only */
			memmove(buf, buf + BUFSZ - 4096, 4096);
			len = 4096;
		} else if (len) {
			memmove(buf, p, len);
		}
		if ((size_t)n < BUFSZ / 16 && (rc = nap(r)) < 0)
			break;
	}
out:
	free(buf);
	return rc;
}

static int announce(struct qrun *r, const char *prog)
{
	const char *base = strrchr(prog, '/');
	char comm[16];
	int rc;

	base = base ? base + 1 : prog;
	memcpy(comm, base, strnlen(base, sizeof(comm) - 1));
	comm[strnlen(base, sizeof(comm) - 1)] = '\0';
	rc = r->sink->comm(r->sink->ctx, r->pid, r->pid, comm);
	for (size_t i = 0; rc >= 0 && i < ptd_elfimage_nmaps(r->img); i++)
		rc = r->sink->mmap(r->sink->ctx, r->pid, r->pid, ptd_elfimage_map(r->img, i));
	if (rc < 0)
		return ptd_err_set(r->err, -rc > 0 && -rc < PTD_E_MAX ? -rc : PTD_E_INVAL,
				   "comm/mmap callback failed");
	return 0;
}

static int setup(struct qrun *r, const char *const argv[], const struct ptd_qemu_opts *o)
{
	char prog[PATH_MAX];
	struct ptd_qwalk_cfg wc;
	int rc;

	if ((rc = find_program(argv[0], prog, sizeof(prog), r->err)) < 0 ||
	    (rc = ptd_elfimage_open(&r->img, prog, r->err)) < 0)
		return rc;
	if (ptd_elfimage_has_interp(r->img) || ptd_elfimage_type(r->img) != ET_EXEC)
		return ptd_err_set(r->err, PTD_E_UNSUPPORTED,
				   "%s: the qemu source runs static non-PIE executables only",
				   ptd_elfimage_path(r->img));
	if (ptd_arch_of_elf_machine(ptd_elfimage_machine(r->img), &r->arch) < 0)
		return ptd_err_set(r->err, PTD_E_UNSUPPORTED, "%s: ELF machine %u is not supported",
				   ptd_elfimage_path(r->img), ptd_elfimage_machine(r->img));
	if (!(((o && o->arches) ? o->arches : 1u << PTD_ARCH_X86_64) & (1u << r->arch)))
		return ptd_err_set(r->err, PTD_E_UNSUPPORTED, "%s: a%s program, which this caller does not take",
				   ptd_elfimage_path(r->img), r->arch == PTD_ARCH_AARCH64 ? "n AArch64" : " x86-64");
	/* x86-64 code is the image's alone: read it directly */
	if ((rc = ptd_qcode_new(&r->code, r->img, r->arch, r->err)) < 0 ||
	    (rc = ptd_classifier_new_arch(&r->cls, r->arch, 16, r->err)) < 0 ||
	    (rc = ptd_qblocks_new(&r->blocks, r->cls,
				  r->arch == PTD_ARCH_X86_64 ? ptd_elfimage_read_code : ptd_qcode_read,
				  r->arch == PTD_ARCH_X86_64 ? (void *)r->img : (void *)r->code, r->err)) < 0 ||
	    (rc = make_fifo(r)) < 0 ||
	    (rc = spawn(r, argv, ptd_elfimage_path(r->img), o)) < 0)
		return rc;
	wc.sink = r->sink;
	wc.blocks = r->blocks;
	wc.pid = r->pid;
	wc.max_insns = o ? o->max_insns : 0;
	wc.arch = r->arch;
	if ((rc = ptd_qwalk_new(&r->walk, &wc, r->err)) < 0)
		return rc;
	return announce(r, prog);
}

int ptd_exec_qemu_opts(const char *const argv[], const struct ptd_qemu_opts *opts,
		       const struct ptd_xsink *sink, struct ptd_err *err)
{
	struct qrun r;
	int rc;

	memset(&r, 0, sizeof(r));
	r.sink = sink;
	r.err = err;
	r.fd = r.pidfd = -1;
	r.pid = -1;
	r.feeding = 1;
	if (!argv || !argv[0] || !sink || !sink->thread_start || !sink->event || !sink->thread_end ||
	    !sink->mmap || !sink->comm)
		return ptd_err_set(err, PTD_E_INVAL, "qemu source: no program or incomplete sink");
	rc = setup(&r, argv, opts);
	if (rc == 0)
		rc = pump(&r);
	if (rc == 0)
		rc = ptd_qwalk_finish(r.walk, err);
	if (r.pid > 0 && !r.exited) {
		int status;
		if (rc < 0)
			kill(r.pid, SIGKILL);
		while (waitpid(r.pid, &status, 0) < 0 && errno == EINTR)
			;
		r.st.exit_status = status;
	}
	if (rc == 0 && !r.st.bytes)
		/* qemu wrote no log at all: it never ran the program (it could
		 * not start, or reserve the guest's address space) */
		rc = ptd_err_set(err, PTD_E_IO, "qemu ran nothing of %s (wait status %#x)", argv[0],
				 (unsigned)r.st.exit_status);
	if (r.walk)
		ptd_qwalk_get_stats(r.walk, &r.st.walk);
	if (opts && opts->stats)
		*opts->stats = r.st;
	if (r.fd >= 0)
		close(r.fd);
	if (r.pidfd >= 0)
		close(r.pidfd);
	if (r.fifo[0])
		unlink(r.fifo);
	if (r.dir[0])
		rmdir(r.dir);
	ptd_qwalk_free(r.walk);
	ptd_qblocks_free(r.blocks);
	ptd_classifier_free(r.cls);
	ptd_qcode_free(r.code);
	ptd_elfimage_free(r.img);
	return rc;
}

int ptd_exec_qemu(const char *const argv[], const struct ptd_xsink *sink, struct ptd_err *err)
{
	return ptd_exec_qemu_opts(argv, NULL, sink, err);
}
