/* Execution source: ptrace single-stepping; see exec_ptrace.h.
 *
 * Every thread is single-stepped.  A stop is one of:
 *   - a step completion (SIGTRAP, si_code TRAP_TRACE/TRAP_BRKPT): the
 *     instruction at the thread's ip retired and the new ip says where it
 *     went;
 *   - a handler entry (SIGTRAP, si_code SIGTRAP: the kernel's report after
 *     it set up a signal frame for a thread being stepped): no instruction
 *     retired, execution continues at the handler;
 *   - a signal-delivery stop: the signal is passed on with the next step
 *     (a group-stop, where PTRACE_GETSIGINFO fails, is resumed without it);
 *   - ptrace events: clone (a new thread), exec, exit.
 */
#define _GNU_SOURCE
#include "tools/record/exec_ptrace.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/vec.h"
#include "tools/record/classify.h"
#include "tools/record/procmaps.h"

#define MAX_THREADS 65536

struct pthr {
	int32_t tid;
	uint8_t live;         /* exists, not yet ended */
	uint8_t announced;    /* thread_start reported */
	uint8_t fresh;        /* its initial SIGSTOP is still to come */
	uint8_t held;         /* stopped before its clone event: not resumed yet */
	uint8_t rep_counted;  /* the REP instruction at ip is already counted */
	uint8_t sys_pending;  /* a syscall-class instruction waits for its `to` */
	uint8_t skip_trap;    /* swallow one step report at ip (after exec) */
	uint8_t have_insn;    /* insn describes the instruction at ip */
	uint8_t vmexit_step;  /* on_step of the instruction after a cpuid, same step */
	uint8_t sys_len;
	uint64_t ip;
	uint64_t icount;
	uint64_t sys_from, sys_icount;
	struct ptd_insn insn;
};

struct tracer {
	const struct ptd_xsink *sink;
	struct ptd_err *err;
	pid_t pid;
	struct ptd_vec thr;              /* struct pthr */
	struct ptd_classifier *cls;
	struct ptd_procmaps *maps;
	struct ptd_ptrace_stats st;
	uint64_t max_insns;
	int memfd;                       /* /proc/PID/mem, when process_vm_readv fails */
	int stopping;                    /* killed: only reap from now on */
	int rescan;                      /* re-read the maps after this stop */
};

struct readctx {
	struct tracer *tr;
	pid_t tid;
};

static long read_code(void *ctx, uint64_t addr, uint8_t *buf, size_t len)
{
	struct readctx *rc = ctx;
	struct iovec local = { buf, len }, remote = { (void *)(uintptr_t)addr, len };
	ssize_t n = process_vm_readv(rc->tid, &local, 1, &remote, 1, 0);

	if (n > 0)
		return (long)n;
	if (n < 0 && errno == EFAULT)
		return 0;
	if (rc->tr->memfd < 0) {
		char name[64];
		snprintf(name, sizeof(name), "/proc/%d/mem", (int)rc->tr->pid);
		rc->tr->memfd = open(name, O_RDONLY | O_CLOEXEC);
		if (rc->tr->memfd < 0)
			return -1;
	}
	n = pread(rc->tr->memfd, buf, len, (off_t)addr);
	if (n < 0 && (errno == EIO || errno == EFAULT))
		return 0;
	return n < 0 ? -1 : (long)n;
}

static struct pthr *thr_at(struct tracer *tr, size_t i)
{
	return ptd_vec_at(&tr->thr, i);
}

static struct pthr *find(struct tracer *tr, pid_t tid)
{
	for (size_t i = tr->thr.len; i-- > 0;) {
		struct pthr *t = thr_at(tr, i);
		if (t->tid == tid && (t->live || t->held || t->fresh))
			return t;
	}
	return NULL;
}

static struct pthr *add(struct tracer *tr, pid_t tid)
{
	struct pthr *t = ptd_vec_push(&tr->thr);

	if (!t) {
		ptd_err_set(tr->err, PTD_E_LIMIT, "more than %d threads", MAX_THREADS);
		return NULL;
	}
	t->tid = tid;
	t->live = 1;
	tr->st.threads++;
	return t;
}

static int sinkfail(struct tracer *tr, int rc, const char *what)
{
	int code = -rc > 0 && -rc < PTD_E_MAX ? -rc : PTD_E_INVAL;

	if (tr->err && tr->err->code)
		return -tr->err->code;
	return ptd_err_set(tr->err, code, "%s callback failed", what);
}

static int emit(struct tracer *tr, struct pthr *t, unsigned cls, int taken, unsigned len,
		uint64_t from, uint64_t to, uint64_t icount)
{
	struct ptd_xev ev = { .cls = (uint8_t)cls, .taken = (uint8_t)taken, .insn_len = (uint8_t)len,
			      .from = from, .to = to, .icount = icount };
	int rc = tr->sink->event(tr->sink->ctx, t->tid, &ev);

	tr->st.events++;
	return rc < 0 ? sinkfail(tr, rc, "event") : 0;
}

static int end_thread(struct tracer *tr, struct pthr *t, uint64_t last_ip)
{
	int rc;

	if (!t->live)
		return 0;
	t->live = 0;
	t->sys_pending = 0;
	if (!t->announced)
		return 0;
	rc = tr->sink->thread_end(tr->sink->ctx, t->tid, t->icount, last_ip);
	return rc < 0 ? sinkfail(tr, rc, "thread_end") : 0;
}

static int get_ip(pid_t tid, uint64_t *ip)
{
	long v;

	errno = 0;
	v = ptrace(PTRACE_PEEKUSER, tid, (void *)offsetof(struct user_regs_struct, rip), NULL);
	if (v == -1 && errno)
		return -1;
	*ip = (uint64_t)v;
	return 0;
}

static int flush_syscall(struct tracer *tr, struct pthr *t, uint64_t to)
{
	if (!t->sys_pending)
		return 0;
	t->sys_pending = 0;
	return emit(tr, t, PTD_X_SYSCALL, 1, t->sys_len, t->sys_from, to, t->sys_icount);
}

static void count(struct tracer *tr, struct pthr *t)
{
	t->icount++;
	tr->st.insns++;
}

/* The instruction at t->ip retired and the thread is now at q. */
static int on_step(struct tracer *tr, struct pthr *t, uint64_t q)
{
	const struct ptd_insn *in = &t->insn;
	uint64_t p = t->ip, fall = p + in->len;
	int rc;

	tr->st.steps++;
	if ((rc = flush_syscall(tr, t, p)) < 0)
		return rc;
	if ((in->flags & PTD_INSN_REP) && q == p) {
		if (!t->rep_counted)
			count(tr, t);
		t->rep_counted = 1;
		return 0;
	}
	if (!((in->flags & PTD_INSN_REP) && t->rep_counted))
		count(tr, t);
	t->rep_counted = 0;
	switch (in->cls) {
	case PTD_X_COND:
		rc = emit(tr, t, PTD_X_COND, q != fall, in->len, p, q, t->icount);
		break;
	case PTD_X_JUMP: case PTD_X_CALL: case PTD_X_IJUMP: case PTD_X_ICALL: case PTD_X_RET:
		rc = emit(tr, t, in->cls, 1, in->len, p, q, t->icount);
		break;
	case PTD_X_SYSCALL:
		t->sys_pending = 1;
		t->sys_from = p;
		t->sys_len = in->len;
		t->sys_icount = t->icount;
		tr->rescan = 1;
		break;
	default:
		if (q != fall && (in->flags & PTD_INSN_VMEXIT) && !t->vmexit_step) {
			/* the hypervisor emulated cpuid and let the trap pass:
			 * the next instruction ran in the same step */
			struct readctx r = { tr, t->tid };

			if (ptd_classify_at(tr->cls, fall, read_code, &r, &t->insn, tr->err) >= 0) {
				t->ip = fall;
				t->vmexit_step = 1;
				rc = on_step(tr, t, q);
				t->vmexit_step = 0;
				return rc;
			}
		}
		/* not a branch but the ip jumped: bytes capstone cannot decode
		 * that the CPU ran, else something we cannot explain */
		if (q != fall && !((in->flags & PTD_INSN_FAULT) && q > p && q - p <= PTD_INSN_MAX))
			rc = emit(tr, t, PTD_X_ASYNC, 1, 0, fall, q, t->icount);
		break;
	}
	t->ip = q;
	t->have_insn = 0;
	if (tr->max_insns && tr->st.insns >= tr->max_insns && !tr->stopping) {
		tr->stopping = 1;
		tr->st.limited = 1;
		kill(tr->pid, SIGKILL);
	}
	return rc;
}

/* A signal handler was entered at h without an instruction retiring. */
static int on_handler(struct tracer *tr, struct pthr *t, uint64_t h)
{
	int rc;

	if (t->sys_pending)
		rc = flush_syscall(tr, t, h);
	else
		rc = emit(tr, t, PTD_X_ASYNC, 1, 0, t->ip, h, t->icount);
	t->ip = h;
	t->have_insn = 0;
	t->rep_counted = 0;
	return rc;
}

/* Classify the instruction at t->ip and single-step the thread. */
static int resume(struct tracer *tr, struct pthr *t, int sig)
{
	if (!tr->stopping && !t->have_insn) {
		struct readctx rc = { tr, t->tid };
		int r = ptd_classify_at(tr->cls, t->ip, read_code, &rc, &t->insn, tr->err);

		if (r == -PTD_E_NOTFOUND) {
			/* nothing readable at ip: it will fault; a 1-byte
			 * placeholder keeps the bookkeeping going */
			memset(&t->insn, 0, sizeof(t->insn));
			t->insn.ip = t->ip;
			t->insn.len = 1;
			t->insn.cls = PTD_X_NONE;
			t->insn.flags = PTD_INSN_FAULT;
		} else if (r < 0) {
			return ptd_err_append(tr->err, "thread %d", (int)t->tid);
		}
		t->have_insn = 1;
	}
	if (ptrace(tr->stopping ? PTRACE_CONT : PTRACE_SINGLESTEP, t->tid, NULL,
		   (void *)(uintptr_t)sig) < 0 && errno != ESRCH)
		return ptd_err_set(tr->err, PTD_E_IO, "ptrace step %d: %s", (int)t->tid, strerror(errno));
	return 0;
}

static int report_image(struct tracer *tr, pid_t tid)
{
	char name[64], comm[64] = "";
	int fd, rc;
	ssize_t n;

	snprintf(name, sizeof(name), "/proc/%d/comm", (int)tr->pid);
	fd = open(name, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, comm, sizeof(comm) - 1);
		close(fd);
		if (n > 0) {
			comm[n] = '\0';
			comm[strcspn(comm, "\n")] = '\0';
		}
	}
	rc = tr->sink->comm(tr->sink->ctx, tr->pid, tid, comm);
	if (rc < 0)
		return sinkfail(tr, rc, "comm");
	ptd_procmaps_reset(tr->maps);
	rc = ptd_procmaps_scan(tr->maps, tr->pid, tid, tr->sink, tr->err);
	return rc < 0 ? rc : 0;
}

/* PTRACE_EVENT_EXEC: the program (re)starts at ip as a single thread. */
static int on_exec(struct tracer *tr, struct pthr *t, uint64_t ip)
{
	int rc;

	for (size_t i = 0; i < tr->thr.len; i++) {
		struct pthr *o = thr_at(tr, i);
		if (o->live && o->announced) {
			if (o == t && t->ip != ip)
				count(tr, t);   /* the execve instruction */
			if ((rc = end_thread(tr, o, o == t ? t->ip + t->insn.len : o->ip)) < 0)
				return rc;
		}
	}
	if ((rc = report_image(tr, tr->pid)) < 0)
		return rc;
	t = add(tr, tr->pid);
	if (!t)
		return -PTD_E_LIMIT;
	t->announced = 1;
	t->ip = ip;
	t->skip_trap = 1;
	rc = tr->sink->thread_start(tr->sink->ctx, tr->pid, tr->pid, 0, 0, ip);
	if (rc < 0)
		return sinkfail(tr, rc, "thread_start");
	return resume(tr, t, 0);
}

static int on_event(struct tracer *tr, struct pthr *t, int ev)
{
	unsigned long msg = 0;
	uint64_t ip = t->ip;
	int rc;

	if (get_ip(t->tid, &ip) < 0)
		ip = t->ip;
	switch (ev) {
	case PTRACE_EVENT_CLONE: {
		struct pthr *c;
		int32_t parent = t->tid;
		int was_held;

		if (ptrace(PTRACE_GETEVENTMSG, t->tid, NULL, &msg) < 0)
			return ptd_err_set(tr->err, PTD_E_IO, "ptrace geteventmsg: %s", strerror(errno));
		c = find(tr, (pid_t)msg);
		if (!c) {
			c = add(tr, (pid_t)msg);
			if (!c)
				return -PTD_E_LIMIT;
			c->fresh = 1;
		}
		c->ip = ip;    /* the child returns from clone where the parent does */
		c->announced = 1;
		was_held = c->held;
		c->held = 0;
		rc = tr->sink->thread_start(tr->sink->ctx, tr->pid, c->tid, tr->pid, parent, ip);
		if (rc < 0)
			return sinkfail(tr, rc, "thread_start");
		if (was_held && (rc = resume(tr, c, 0)) < 0)
			return rc;
		t = find(tr, parent);   /* add() may have moved it */
		return resume(tr, t, 0);
	}
	case PTRACE_EVENT_EXEC:
		return on_exec(tr, t, ip);
	case PTRACE_EVENT_EXIT:
		if (ip != t->ip && !tr->stopping)
			count(tr, t);   /* the instruction it was stepping (exit, or a
			                   system call it was killed in) */
		if ((rc = end_thread(tr, t, ip)) < 0)
			return rc;
		ptrace(PTRACE_CONT, t->tid, NULL, NULL);
		return 0;
	default:
		return resume(tr, t, 0);
	}
}

static int on_stop(struct tracer *tr, pid_t tid, int status)
{
	struct pthr *t = find(tr, tid);
	int sig = WSTOPSIG(status), ev = status >> 16;
	siginfo_t si;
	uint64_t ip;
	int rc;

	if (!t) {
		/* a new thread stopped before its creator's clone event */
		t = add(tr, tid);
		if (!t)
			return -PTD_E_LIMIT;
		t->held = 1;
		return 0;
	}
	if (t->fresh && sig == SIGSTOP && !ev) {
		t->fresh = 0;
		if (t->held || !t->announced) {
			t->held = 1;
			return 0;
		}
		return resume(tr, t, 0);
	}
	if (ev)
		return on_event(tr, t, ev);
	if (!t->live || tr->stopping)
		return resume(tr, t, tr->stopping ? 0 : sig);
	if (ptrace(PTRACE_GETSIGINFO, tid, NULL, &si) < 0) {
		if (errno == EINVAL)
			return resume(tr, t, 0);   /* group-stop */
		return errno == ESRCH ? 0 : ptd_err_set(tr->err, PTD_E_IO, "ptrace getsiginfo: %s", strerror(errno));
	}
	if (get_ip(tid, &ip) < 0)
		return errno == ESRCH ? 0 : ptd_err_set(tr->err, PTD_E_IO, "ptrace peekuser: %s", strerror(errno));
	if (sig == SIGTRAP && si.si_code == SIGTRAP) {
		rc = on_handler(tr, t, ip);
		sig = 0;
	} else if (sig == SIGTRAP && (si.si_code == TRAP_TRACE || si.si_code == TRAP_BRKPT)) {
		if (t->skip_trap && ip == t->ip)
			rc = 0;
		else
			rc = on_step(tr, t, ip);
		t->skip_trap = 0;
		sig = 0;
	} else {
		/* a signal to deliver; if the ip moved, a trapping instruction
		 * (int3, int n) retired first */
		rc = ip != t->ip ? on_step(tr, t, ip) : 0;
	}
	if (rc < 0)
		return rc;
	if (tr->rescan) {
		tr->rescan = 0;
		rc = ptd_procmaps_scan(tr->maps, tr->pid, tid, tr->sink, tr->err);
		if (rc < 0)
			return rc;
	}
	return resume(tr, t, sig);
}

static void reap_all(struct tracer *tr)
{
	int status;

	kill(tr->pid, SIGKILL);
	while (waitpid(-1, &status, __WALL) > 0 || errno == EINTR)
		;
}

static void child(const char *const argv[], const char *const *envp, int no_aslr, int fd)
{
	int e;
	char tag;

	if (no_aslr)
		personality(ADDR_NO_RANDOMIZE);
	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0) {
		tag = 'T';
		e = errno;
		goto fail;
	}
	raise(SIGSTOP);
	if (envp)
		execvpe(argv[0], (char *const *)argv, (char *const *)envp);
	else
		execvp(argv[0], (char *const *)argv);
	tag = 'E';
	e = errno;
fail:
	if (write(fd, &tag, 1) == 1 && write(fd, &e, sizeof(e)) == (ssize_t)sizeof(e))
		_exit(127);
	_exit(127);
}

/* Start the program and wait for its exec.  Returns 0 with the ip. */
static int start(struct tracer *tr, const char *const argv[], const struct ptd_ptrace_opts *o,
		 uint64_t *ip)
{
	int pfd[2], status, e = 0;
	char tag = 0;
	const long opts = PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC | PTRACE_O_TRACEEXIT | PTRACE_O_EXITKILL;

	if (pipe2(pfd, O_CLOEXEC) < 0)
		return ptd_err_set(tr->err, PTD_E_IO, "pipe: %s", strerror(errno));
	fflush(NULL);
	tr->pid = fork();
	if (tr->pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return ptd_err_set(tr->err, PTD_E_IO, "fork: %s", strerror(errno));
	}
	if (tr->pid == 0) {
		close(pfd[0]);
		child(argv, o ? o->envp : NULL, o && o->no_aslr, pfd[1]);
	}
	close(pfd[1]);
	for (int phase = 0; phase < 2;) {
		pid_t w = waitpid(tr->pid, &status, __WALL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 || WIFEXITED(status) || WIFSIGNALED(status)) {
			if (read(pfd[0], &tag, 1) == 1 && read(pfd[0], &e, sizeof(e)) != (ssize_t)sizeof(e))
				e = 0;
			close(pfd[0]);
			if (tag == 'T')
				return ptd_err_set(tr->err, PTD_E_UNSUPPORTED, "ptrace is not permitted here: %s",
						   strerror(e));
			return ptd_err_set(tr->err, PTD_E_IO, "cannot execute %s: %s", argv[0],
					   tag == 'E' ? strerror(e) : "it ended before exec");
		}
		if (!WIFSTOPPED(status))
			continue;
		if (phase == 0 && WSTOPSIG(status) == SIGSTOP) {
			if (ptrace(PTRACE_SETOPTIONS, tr->pid, NULL, (void *)opts) < 0) {
				e = errno;
				close(pfd[0]);
				reap_all(tr);
				return ptd_err_set(tr->err, PTD_E_UNSUPPORTED, "ptrace setoptions: %s", strerror(e));
			}
			phase = 1;
			ptrace(PTRACE_CONT, tr->pid, NULL, NULL);
		} else if (phase == 1 && (status >> 8) == (SIGTRAP | (PTRACE_EVENT_EXEC << 8))) {
			phase = 2;
		} else {
			ptrace(PTRACE_CONT, tr->pid, NULL,
			       (void *)(uintptr_t)(WSTOPSIG(status) == SIGTRAP ? 0 : WSTOPSIG(status)));
		}
	}
	close(pfd[0]);
	if (get_ip(tr->pid, ip) < 0) {
		e = errno;
		reap_all(tr);
		return ptd_err_set(tr->err, PTD_E_IO, "ptrace peekuser: %s", strerror(e));
	}
	return 0;
}

static int run(struct tracer *tr)
{
	int status, rc = 0;

	for (;;) {
		pid_t tid = waitpid(-1, &status, __WALL);
		struct pthr *t;

		if (tid < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ECHILD)
				return 0;
			return ptd_err_set(tr->err, PTD_E_IO, "waitpid: %s", strerror(errno));
		}
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			if (tid == tr->pid)
				tr->st.exit_status = status;
			t = find(tr, tid);
			if (t && (rc = end_thread(tr, t, t->ip)) < 0)
				return rc;
			if (t) {
				t->held = 0;
				t->fresh = 0;
			}
			continue;
		}
		if (WIFSTOPPED(status) && (rc = on_stop(tr, tid, status)) < 0)
			return rc;
	}
}

int ptd_exec_ptrace(const char *const argv[], const struct ptd_ptrace_opts *opts,
		    const struct ptd_xsink *sink, struct ptd_err *err)
{
	struct tracer tr;
	uint64_t ip = 0;
	int rc;

	memset(&tr, 0, sizeof(tr));
	tr.sink = sink;
	tr.err = err;
	tr.memfd = -1;
	tr.max_insns = opts ? opts->max_insns : 0;
	tr.thr = (struct ptd_vec)PTD_VEC_INIT(sizeof(struct pthr));
	tr.thr.limit = MAX_THREADS;
	if (!argv || !argv[0] || !sink || !sink->thread_start || !sink->event || !sink->thread_end ||
	    !sink->mmap || !sink->comm)
		return ptd_err_set(err, PTD_E_INVAL, "ptrace source: no program or incomplete sink");
	if ((rc = ptd_classifier_new(&tr.cls, 16, err)) < 0)
		return rc;
	if ((rc = ptd_procmaps_new(&tr.maps, err)) < 0)
		goto out;
	if ((rc = start(&tr, argv, opts, &ip)) < 0)
		goto out;
	rc = on_exec(&tr, NULL, ip);
	if (rc == 0)
		rc = run(&tr);
	if (rc < 0) {
		reap_all(&tr);
	} else {
		for (size_t i = 0; i < tr.thr.len && rc == 0; i++)
			rc = end_thread(&tr, thr_at(&tr, i), thr_at(&tr, i)->ip);
	}
out:
	if (opts && opts->stats)
		*opts->stats = tr.st;
	if (tr.memfd >= 0)
		close(tr.memfd);
	ptd_vec_fini(&tr.thr);
	ptd_procmaps_free(tr.maps);
	ptd_classifier_free(tr.cls);
	return rc < 0 ? rc : 0;
}
