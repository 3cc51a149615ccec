/* ptdecode-record: run a program and write the perf.data that
 * `perf record -e intel_pt//u` would have written on a machine with
 * Intel PT (or, with --etm, `perf record -e cs_etm//u` on an Arm machine
 * with CoreSight ETMv4), plus a ground-truth log of the executed path. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/record/etm_rec.h"
#include "tools/record/exec_ptrace.h"
#include "tools/record/exec_qemu.h"
#include "tools/record/recorder.h"
#include "tools/record/tsx.h"

static void usage(FILE *f)
{
	fputs("Usage: ptdecode-record [OPTIONS] -- PROGRAM [ARGS...]\n"
	      "Run PROGRAM and write the perf.data that `perf record -e intel_pt//u` would\n"
	      "write on a machine with Intel PT, and optionally the executed path.\n"
	      "\n"
	      "  -o, --output FILE       perf.data to write (default: perf.data)\n"
	      "      --truth FILE        write the ground truth: every control transfer\n"
	      "      --source SRC        qemu (static x86-64 programs, fast) or ptrace\n"
	      "                          (any program, native, slow); default qemu\n"
	      "      --etm               a static AArch64 PROGRAM traced by CoreSight ETMv4:\n"
	      "                          perf record -e cs_etm//u (the default for an\n"
	      "                          AArch64 PROGRAM; qemu source; with\n"
	      "                          --per-thread, --cpus, --aux-size, --ticks-per-insn,\n"
	      "                          --buildid-mmap, --hw-id, --root)\n"
	      "      --hw-id             with --etm: trace IDs in AUX_OUTPUT_HW_ID records\n"
	      "                          (metadata header version 2), as Linux 6.3 on\n"
	      "                          writes them, not the legacy per-CPU IDs\n"
	      "      --per-thread        one trace per thread (perf record --per-thread)\n"
	      "      --cpus N            emulated CPUs in per-CPU mode (default 4)\n"
	      "      --snapshot BYTES    snapshot mode (perf record -S): an AUX buffer of\n"
	      "                          BYTES saved every --aux-size bytes of trace\n"
	      "      --aux-size BYTES    trace bytes per AUX chunk, or between snapshots\n"
	      "                          (default 65536)\n"
	      "      --psb-period N      PSB+ every 2 KiB << N bytes of trace (0-15, default 0)\n"
	      "      --noretcomp         no return compression\n"
	      "      --long-tnt          collect up to 47 branches per TNT packet\n"
	      "      --mtc N             MTC packets every 2^N crystal clock ticks (0-15)\n"
	      "      --cyc               CYC packets (cycle-accurate mode)\n"
	      "      --filter LIST       address filters (perf record --filter 'filter FUNC @\n"
	      "                          PROGRAM'): packets only inside these functions of\n"
	      "                          PROGRAM, or OFFSET/SIZE ranges of its file (comma-\n"
	      "                          separated); not with --ptwrite, --pwr-evt, --tsx or\n"
	      "                          the fault options\n"
	      "      --cbr N             the core runs at N x 100 MHz (CBR packets say N; CYC\n"
	      "                          counts its cycles); default 20, the TSC's 2 GHz\n"
	      "      --no-tsc            no timestamps in the trace (intel_pt/tsc=0/): perf\n"
	      "                          decodes it timeless; not with --mtc, --cyc, --snapshot\n"
	      "      --ptwrite N         PTW packets (intel_pt/ptw,fup_on_ptw/): a ptwrite\n"
	      "                          before every Nth control transfer of each thread\n"
	      "      --pwr-evt N         power event packets (intel_pt/pwr_evt/): a wait in a\n"
	      "                          C-state (MWAIT, PWRE, EXSTOP, PWRX) before every Nth\n"
	      "                          syscall of each thread\n"
	      "      --tsx N[:K]         TSX transactions (MODE.TSX packets): one from every\n"
	      "                          Nth call of each thread to its return, every third\n"
	      "                          aborting there, and any at its Kth branch (64)\n"
	      "      --ticks-per-insn N  emulated TSC ticks per instruction (default 2)\n"
	      "      --inject-ovf N[:K]  an overflow after every N branches: K lost (default 8)\n"
	      "      --truncate N[:K]    every Nth AUX chunk TRUNCATED, K branches lost\n"
	      "      --drop N            every Nth AUX chunk without its AUXTRACE data\n"
	      "      --lost N            a LOST record after every N AUX chunks\n"
	      "      --pause N[:K]       tracing paused after every Nth AUX chunk (the event\n"
	      "                          disabled, then enabled again): K branches untraced\n"
	      "      --buildid-mmap      MMAP2 records with build ids (perf record --buildid-mmap)\n"
	      "      --root DIR          record files under DIR by their path inside DIR\n"
	      "                          (decode with perf script --symfs DIR)\n"
	      "      --kernel VMLINUX    trace the kernel too (intel_pt//): each syscall's path\n"
	      "                          through VMLINUX, an image like tools/record/kernel.S's\n"
	      "                          (decode with perf script --vmlinux VMLINUX); not with\n"
	      "                          --etm, --filter, --snapshot or fault injection\n"
	      "  -q, --quiet             no messages\n"
	      "  -h, --help              this help\n"
	      "\n"
	      "Exit status: 0 when the recording was written (whatever the program's\n"
	      "exit status), 1 for bad usage, 2 when recording failed.\n", f);
}

static int num(const char *s, unsigned long long max, unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || end == s || *end || *v > max ? -1 : 0;
}

/* "N" or "N:K" */
static int pair(const char *s, unsigned *n, unsigned *k)
{
	unsigned long long a, b = 0;
	char buf[64], *colon;

	snprintf(buf, sizeof(buf), "%s", s);
	colon = strchr(buf, ':');
	if (colon)
		*colon = '\0';
	if (num(buf, 1u << 30, &a) || !a || (colon && (num(colon + 1, 1u << 20, &b) || !b)))
		return -1;
	*n = (unsigned)a;
	if (colon)
		*k = (unsigned)b;
	return 0;
}

/* 1 when the program (searched in PATH without a '/') is an AArch64 ELF */
static int is_aarch64(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[4096];
	unsigned char h[20];
	FILE *f = NULL;

	if (strchr(prog, '/')) {
		f = fopen(prog, "rb");
	} else {
		while (path && *path && !f) {
			size_t n = strcspn(path, ":");

			snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, prog);
			f = fopen(buf, "rb");
			path += n + (path[n] == ':');
		}
	}
	if (!f)
		return 0;
	if (fread(h, 1, sizeof(h), f) != sizeof(h)) {
		fclose(f);
		return 0;
	}
	fclose(f);
	/* ELF, little-endian, e_machine EM_AARCH64 (183) */
	return !memcmp(h, "\177ELF", 4) && h[5] == 1 && h[18] == 183 && h[19] == 0;
}

/* --etm: an AArch64 program through the qemu source into the ETM recorder */
static int run_etm(char **prog, const struct ptd_recorder_config *cfg, const char *out,
		   struct ptd_err *err)
{
	struct ptd_qemu_opts qo = { .arches = 1u << PTD_ARCH_AARCH64 };
	struct ptd_etmrec *r = NULL;
	int rc = ptd_etmrec_new(&r, out, cfg, err);

	if (rc)
		return rc;
	rc = ptd_exec_qemu_opts((const char *const *)prog, &qo, ptd_etmrec_sink(r), err);
	if (rc && ptd_etmrec_error(r)->code)
		*err = *ptd_etmrec_error(r);
	if (!rc)
		return ptd_etmrec_finish(r, err);
	ptd_etmrec_finish(r, NULL);
	return rc;
}

static int finish(int rc, struct ptd_recorder_config *cfg, const char *truth, const char *out,
		  int quiet, struct ptd_err *err)
{
	if (cfg->truth && fclose(cfg->truth) && !rc)
		rc = ptd_err_set(err, PTD_E_IO, "%s: %s", truth, strerror(errno));
	if (rc) {
		fprintf(stderr, "ptdecode-record: %s\n", err->msg[0] ? err->msg : ptd_strerror(rc));
		return 2;
	}
	if (!quiet)
		fprintf(stderr, "ptdecode-record: wrote %s\n", out);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "truth", required_argument, NULL, 't' },
		{ "source", required_argument, NULL, 's' },
		{ "per-thread", no_argument, NULL, 'P' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "snapshot", required_argument, NULL, 'S' },
		{ "aux-size", required_argument, NULL, 'a' },
		{ "psb-period", required_argument, NULL, 'p' },
		{ "noretcomp", no_argument, NULL, 'n' },
		{ "long-tnt", no_argument, NULL, 'L' },
		{ "mtc", required_argument, NULL, 'M' },
		{ "cyc", no_argument, NULL, 'C' },
		{ "cbr", required_argument, NULL, 'b' },
		{ "filter", required_argument, NULL, 'F' },
		{ "ticks-per-insn", required_argument, NULL, 'k' },
		{ "no-tsc", no_argument, NULL, 'N' },
		{ "ptwrite", required_argument, NULL, 'W' },
		{ "pwr-evt", required_argument, NULL, 'E' },
		{ "tsx", required_argument, NULL, 'X' },
		{ "inject-ovf", required_argument, NULL, 'O' },
		{ "truncate", required_argument, NULL, 'T' },
		{ "drop", required_argument, NULL, 'D' },
		{ "lost", required_argument, NULL, 'l' },
		{ "pause", required_argument, NULL, 'Z' },
		{ "root", required_argument, NULL, 'R' },
		{ "kernel", required_argument, NULL, 'K' },
		{ "buildid-mmap", no_argument, NULL, 'B' },
		{ "etm", no_argument, NULL, 'e' },
		{ "hw-id", no_argument, NULL, 'H' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ptd_recorder_config cfg;
	struct ptd_recorder *r = NULL;
	struct ptd_err err = { 0 };
	const char *out = "perf.data", *truth = NULL, *source = "qemu", *filter_spec = NULL;
	struct ptd_rfilter filter;
	unsigned long long v;
	char cmdline[4096];
	int c, quiet = 0, rc, i, etm = 0, other = 0;
	size_t pos = 0;

	memset(&cfg, 0, sizeof(cfg));
	cfg.pd.ncpus = 4;
	cfg.pd.psb_period_code = 0;
	cfg.pd.max_nonturbo_ratio = 20;      /* 2 GHz with a 100 MHz bus clock */
	cfg.pd.time_shift = 31;              /* perf time = TSC / 2 + time_zero: a 2 GHz TSC */
	cfg.pd.time_mult = 1u << 30;
	cfg.pd.time_zero = 1000000;
	cfg.pt.cbr = 20;
	cfg.pt.tsc_ratio = 20;
	cfg.pd.ctc_n = cfg.pt.ctc_n = 166;   /* a 24 MHz crystal: TSC = 83 x CTC */
	cfg.pd.ctc_d = cfg.pt.ctc_d = 2;
	cfg.aux_size = 65536;
	cfg.ticks_per_insn = 2;
	cfg.kernel_ticks = 2000;
	cfg.tsc_start = 4000000000000ULL;
	cfg.ovf_lose = cfg.truncate_lose = cfg.pause_lose = 8;
	cfg.tsx_capacity = PTD_TSX_CAPACITY;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:o:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 't': truth = optarg; break;
		case 's': source = optarg; break;
		case 'P': cfg.pd.per_thread = 1; break;
		case 'S':
			if (num(optarg, 1u << 30, &v) || v < 256)
				goto bad;
			cfg.pd.snapshot = 1;
			cfg.snapshot_size = (size_t)v;
			break;
		case 'n': cfg.pd.noretcomp = cfg.pt.noretcomp = 1; break;
		case 'L': cfg.pt.long_tnt = 1; break;
		case 'C': cfg.pd.cyc = cfg.pt.cyc = 1; break;
		case 'M':
			if (num(optarg, 15, &v))
				goto bad;
			cfg.pd.mtc = cfg.pt.mtc = 1;
			cfg.pd.mtc_period = cfg.pt.mtc_shift = (unsigned)v;
			break;
		case 'N': cfg.pd.no_tsc = cfg.pt.no_tsc = 1; break;
		case 'W':
			if (num(optarg, 1u << 30, &v) || !v)
				goto bad;
			cfg.pd.ptw = 1;
			cfg.ptwrite_every = (unsigned)v;
			break;
		case 'E':
			if (num(optarg, 1u << 30, &v) || !v)
				goto bad;
			cfg.pd.pwr_evt = 1;
			cfg.pwr_every = (unsigned)v;
			break;
		case 'X':
			if (pair(optarg, &cfg.tsx_every, &cfg.tsx_capacity) || cfg.tsx_capacity < 2)
				goto bad;
			cfg.pt.tsx = 1;
			break;
		case 'q': quiet = 1; break;
		case 'e': etm = 1; break;
		case 'R': cfg.root = optarg; break;
		case 'K': cfg.kernel = optarg; cfg.pd.kernel = 1; break;
		case 'B': cfg.pd.buildid_mmap = 1; break;
		case 'H': cfg.pd.etm_hw_id = 1; break;
		case 'h': usage(stdout); return 0;
		case 'c':
			if (num(optarg, 256, &v) || !v)
				goto bad;
			cfg.pd.ncpus = (unsigned)v;
			break;
		case 'a':
			if (num(optarg, 1u << 30, &v) || v < 256)
				goto bad;
			cfg.aux_size = (size_t)v;
			break;
		case 'p':
			if (num(optarg, 15, &v))
				goto bad;
			cfg.pd.psb_period_code = (unsigned)v;
			break;
		case 'F': filter_spec = optarg; break;
		case 'b':
			if (num(optarg, 255, &v) || !v)
				goto bad;
			cfg.pt.cbr = (uint8_t)v;
			break;
		case 'k':
			if (num(optarg, 1000, &v) || !v)
				goto bad;
			cfg.ticks_per_insn = (unsigned)v;
			break;
		case 'O':
			if (pair(optarg, &cfg.ovf_every, &cfg.ovf_lose))
				goto bad;
			break;
		case 'T':
			if (pair(optarg, &cfg.truncate_every, &cfg.truncate_lose))
				goto bad;
			break;
		case 'Z':
			if (pair(optarg, &cfg.pause_every, &cfg.pause_lose))
				goto bad;
			break;
		case 'D':
			if (num(optarg, 1u << 30, &v) || !v)
				goto bad;
			cfg.drop_every = (unsigned)v;
			break;
		case 'l':
			if (num(optarg, 1u << 30, &v) || !v)
				goto bad;
			cfg.lost_every = (unsigned)v;
			break;
		case ':':
			fprintf(stderr, "ptdecode-record: option '%s' needs an argument\n", argv[optind - 1]);
			return 1;
		default:
			fprintf(stderr, "ptdecode-record: unknown option '%s'\n", argv[optind - 1]);
			return 1;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "ptdecode-record: no program to run (ptdecode-record [OPTIONS] -- PROGRAM [ARGS])\n");
		return 1;
	}
	if (!etm && !strcmp(source, "qemu") && is_aarch64(argv[optind]))
		etm = 1;   /* an AArch64 program: CoreSight is what it would have */
	other = cfg.pd.snapshot || cfg.pd.noretcomp || cfg.pt.long_tnt || cfg.pd.cyc || cfg.pd.mtc ||
		cfg.pd.no_tsc || cfg.pd.ptw || cfg.pd.pwr_evt || cfg.pt.tsx || cfg.ovf_every ||
		cfg.truncate_every || cfg.drop_every || cfg.lost_every || cfg.pause_every;
	if (etm && (other || strcmp(source, "qemu"))) {
		fprintf(stderr, "ptdecode-record: --etm: the qemu source, with --per-thread, --cpus, "
			"--aux-size, --ticks-per-insn, --buildid-mmap, --hw-id or --root only\n");
		return 1;
	}
	if (cfg.pd.etm_hw_id && !etm) {
		fprintf(stderr, "ptdecode-record: --hw-id is for --etm\n");
		return 1;
	}
	if (cfg.pd.no_tsc && (cfg.pd.mtc || cfg.pd.cyc || cfg.pd.snapshot)) {
		fprintf(stderr, "ptdecode-record: --no-tsc: MTC, CYC and snapshots need timestamps\n");
		return 1;
	}
	if (cfg.kernel && (etm || filter_spec || cfg.pd.snapshot || cfg.ovf_every ||
			   cfg.truncate_every || cfg.drop_every || cfg.pause_every)) {
		fprintf(stderr, "ptdecode-record: --kernel: not with --etm, --filter, --snapshot, "
			"--inject-ovf, --truncate, --drop or --pause\n");
		return 1;
	}
	if (strcmp(source, "qemu") && strcmp(source, "ptrace")) {
		fprintf(stderr, "ptdecode-record: --source %s: qemu or ptrace\n", source);
		return 1;
	}
	if (filter_spec) {
		char real[PATH_MAX];
		const char *name = real;
		size_t n = cfg.root ? strlen(cfg.root) : 0;

		if (etm || cfg.pd.ptw || cfg.pd.pwr_evt || cfg.pt.tsx || cfg.ovf_every ||
		    cfg.truncate_every || cfg.drop_every || cfg.pause_every) {
			fprintf(stderr, "ptdecode-record: --filter: not with --etm, --ptwrite, --pwr-evt, "
				"--tsx, --inject-ovf, --truncate, --drop or --pause\n");
			return 1;
		}
		if (!realpath(argv[optind], real)) {
			fprintf(stderr, "ptdecode-record: --filter: cannot resolve %s\n", argv[optind]);
			return 1;
		}
		if (n && !strncmp(real, cfg.root, n) && real[n] == '/')
			name = real + n;
		if (ptd_rfilter_init(&filter, filter_spec, argv[optind], name, &err)) {
			fprintf(stderr, "ptdecode-record: %s\n", err.msg);
			return 1;
		}
		cfg.filter = &filter;
		cfg.pd.filter = filter.str;
		cfg.pt.in_filter = ptd_rfilter_in;
		cfg.pt.filter_ctx = &filter;
	}
	cfg.pt.psb_period = 2048ULL << cfg.pd.psb_period_code;
	pos = (size_t)snprintf(cmdline, sizeof(cmdline), "ptdecode-record");
	for (i = 1; i < argc && pos < sizeof(cmdline) - 1; i++)
		pos += (size_t)snprintf(cmdline + pos, sizeof(cmdline) - pos, " %s", argv[i]);
	cfg.pd.cmdline = cmdline;
	if (truth) {
		cfg.truth = fopen(truth, "w");
		if (!cfg.truth) {
			fprintf(stderr, "ptdecode-record: %s: %s\n", truth, strerror(errno));
			return 2;
		}
	}
	if (etm)
		return finish(run_etm(argv + optind, &cfg, out, &err), &cfg, truth, out, quiet, &err);
	rc = ptd_recorder_new(&r, out, &cfg, &err);
	if (!rc) {
		const char *const *prog = (const char *const *)(argv + optind);

		rc = !strcmp(source, "qemu") ? ptd_exec_qemu(prog, ptd_recorder_sink(r), &err)
					     : ptd_exec_ptrace(prog, NULL, ptd_recorder_sink(r), &err);
		if (rc && ptd_recorder_error(r)->code)
			err = *ptd_recorder_error(r);
		if (!rc)
			rc = ptd_recorder_finish(r, &err);
		else
			ptd_recorder_finish(r, NULL);
	}
	rc = finish(rc, &cfg, truth, out, quiet, &err);
	if (cfg.filter)
		ptd_rfilter_fini(cfg.filter);
	return rc;
bad:
	fprintf(stderr, "ptdecode-record: bad value '%s' for %s\n", optarg, argv[optind - 1]);
	return 1;
}
