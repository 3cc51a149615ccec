/* perf.data on-disk constants (from the perf_event ABI and perf's
 * perf.data-file-format.txt).  Our own definitions: nothing here depends on
 * the kernel headers of the build machine. */
#ifndef PTD_PERF_ABI_H
#define PTD_PERF_ABI_H

#include <stdint.h>

#define PTD_PERF_MAGIC2     0x32454c4946524550ULL /* "PERFILE2" read as LE u64 */
#define PTD_PERF_MAGIC2_SW  0x50455246494c4532ULL /* the same, other endianness */

/* record types written by the kernel */
enum {
	PTD_REC_MMAP = 1,
	PTD_REC_LOST = 2,
	PTD_REC_COMM = 3,
	PTD_REC_EXIT = 4,
	PTD_REC_THROTTLE = 5,
	PTD_REC_UNTHROTTLE = 6,
	PTD_REC_FORK = 7,
	PTD_REC_READ = 8,
	PTD_REC_SAMPLE = 9,
	PTD_REC_MMAP2 = 10,
	PTD_REC_AUX = 11,
	PTD_REC_ITRACE_START = 12,
	PTD_REC_LOST_SAMPLES = 13,
	PTD_REC_SWITCH = 14,
	PTD_REC_SWITCH_CPU_WIDE = 15,
	PTD_REC_NAMESPACES = 16,
	PTD_REC_KSYMBOL = 17,
	PTD_REC_BPF_EVENT = 18,
	PTD_REC_CGROUP = 19,
	PTD_REC_TEXT_POKE = 20,
	PTD_REC_AUX_OUTPUT_HW_ID = 21,
	PTD_REC_KERNEL_MAX,
};

/* record types synthesized by perf itself */
enum {
	PTD_REC_HEADER_ATTR = 64,
	PTD_REC_HEADER_EVENT_TYPE = 65,
	PTD_REC_HEADER_TRACING_DATA = 66,
	PTD_REC_HEADER_BUILD_ID = 67,
	PTD_REC_FINISHED_ROUND = 68,
	PTD_REC_ID_INDEX = 69,
	PTD_REC_AUXTRACE_INFO = 70,
	PTD_REC_AUXTRACE = 71,
	PTD_REC_AUXTRACE_ERROR = 72,
	PTD_REC_THREAD_MAP = 73,
	PTD_REC_CPU_MAP = 74,
	PTD_REC_STAT_CONFIG = 75,
	PTD_REC_STAT = 76,
	PTD_REC_STAT_ROUND = 77,
	PTD_REC_EVENT_UPDATE = 78,
	PTD_REC_TIME_CONV = 79,
	PTD_REC_HEADER_FEATURE = 80,
	PTD_REC_COMPRESSED = 81,
	PTD_REC_FINISHED_INIT = 82,
	PTD_REC_COMPRESSED2 = 83,
	PTD_REC_MAX,
};

/* header.misc bits */
#define PTD_MISC_CPUMODE_MASK   0x7
#define PTD_MISC_KERNEL         1
#define PTD_MISC_USER           2
#define PTD_MISC_HYPERVISOR     3
#define PTD_MISC_GUEST_KERNEL   4
#define PTD_MISC_GUEST_USER     5
#define PTD_MISC_MMAP_BUILD_ID  (1u << 14)
#define PTD_MISC_COMM_EXEC      (1u << 13)
#define PTD_MISC_SWITCH_OUT     (1u << 13)
#define PTD_MISC_EXACT_IP       (1u << 14)
#define PTD_MISC_SWITCH_OUT_PREEMPT (1u << 14)
#define PTD_MISC_MMAP_DATA      (1u << 13)
#define PTD_MISC_BUILD_ID_SIZE  (1u << 15)

/* attr.sample_type bits */
#define PTD_SAMPLE_IP           (1ULL << 0)
#define PTD_SAMPLE_TID          (1ULL << 1)
#define PTD_SAMPLE_TIME         (1ULL << 2)
#define PTD_SAMPLE_ADDR         (1ULL << 3)
#define PTD_SAMPLE_READ         (1ULL << 4)
#define PTD_SAMPLE_CALLCHAIN    (1ULL << 5)
#define PTD_SAMPLE_ID           (1ULL << 6)
#define PTD_SAMPLE_CPU          (1ULL << 7)
#define PTD_SAMPLE_PERIOD       (1ULL << 8)
#define PTD_SAMPLE_STREAM_ID    (1ULL << 9)
#define PTD_SAMPLE_RAW          (1ULL << 10)
#define PTD_SAMPLE_BRANCH_STACK (1ULL << 11)
#define PTD_SAMPLE_REGS_USER    (1ULL << 12)
#define PTD_SAMPLE_STACK_USER   (1ULL << 13)
#define PTD_SAMPLE_WEIGHT       (1ULL << 14)
#define PTD_SAMPLE_DATA_SRC     (1ULL << 15)
#define PTD_SAMPLE_IDENTIFIER   (1ULL << 16)
#define PTD_SAMPLE_TRANSACTION  (1ULL << 17)
#define PTD_SAMPLE_REGS_INTR    (1ULL << 18)
#define PTD_SAMPLE_PHYS_ADDR    (1ULL << 19)
#define PTD_SAMPLE_AUX          (1ULL << 20)
#define PTD_SAMPLE_CGROUP       (1ULL << 21)
#define PTD_SAMPLE_DATA_PAGE_SIZE (1ULL << 22)
#define PTD_SAMPLE_CODE_PAGE_SIZE (1ULL << 23)
#define PTD_SAMPLE_WEIGHT_STRUCT  (1ULL << 24)

/* attr.read_format bits */
#define PTD_FORMAT_TOTAL_TIME_ENABLED (1ULL << 0)
#define PTD_FORMAT_TOTAL_TIME_RUNNING (1ULL << 1)
#define PTD_FORMAT_ID                 (1ULL << 2)
#define PTD_FORMAT_GROUP              (1ULL << 3)
#define PTD_FORMAT_LOST               (1ULL << 4)

/* attr.branch_sample_type bit that adds hw_idx to branch stacks */
#define PTD_BRANCH_HW_INDEX (1ULL << 17)

/* perf's PERF_IP_FLAG_* (util/event.h): the branch flags of the samples
 * perf synthesizes from a trace, printed by perf script -F flags */
enum {
	PTD_IPF_BRANCH       = 1u << 0,
	PTD_IPF_CALL         = 1u << 1,
	PTD_IPF_RETURN       = 1u << 2,
	PTD_IPF_CONDITIONAL  = 1u << 3,
	PTD_IPF_SYSCALLRET   = 1u << 4,
	PTD_IPF_ASYNC        = 1u << 5,
	PTD_IPF_INTERRUPT    = 1u << 6,
	PTD_IPF_TX_ABORT     = 1u << 7,
	PTD_IPF_TRACE_BEGIN  = 1u << 8,
	PTD_IPF_TRACE_END    = 1u << 9,
	PTD_IPF_IN_TX        = 1u << 10,
	PTD_IPF_VMENTRY      = 1u << 11,
	PTD_IPF_VMEXIT       = 1u << 12,
	PTD_IPF_INTR_DISABLE = 1u << 13,
	PTD_IPF_INTR_TOGGLE  = 1u << 14,
};

/* PERF_RECORD_AUX flags */
#define PTD_AUX_FLAG_TRUNCATED  0x01
#define PTD_AUX_FLAG_OVERWRITE  0x02
#define PTD_AUX_FLAG_PARTIAL    0x04
#define PTD_AUX_FLAG_COLLISION  0x08
#define PTD_AUX_FLAG_PMU_FORMAT_MASK 0xff00
#define PTD_AUX_FLAG_CORESIGHT_FORMAT_RAW 0x0100

/* AUXTRACE_INFO types */
enum {
	PTD_AUXTRACE_UNKNOWN = 0,
	PTD_AUXTRACE_INTEL_PT = 1,
	PTD_AUXTRACE_INTEL_BTS = 2,
	PTD_AUXTRACE_CS_ETM = 3,
	PTD_AUXTRACE_ARM_SPE = 4,
	PTD_AUXTRACE_S390_CPUMSF = 5,
	PTD_AUXTRACE_HISI_PTT = 6,
};

/* feature bits of the perf.data header */
enum {
	PTD_FEAT_TRACING_DATA = 1,
	PTD_FEAT_BUILD_ID = 2,
	PTD_FEAT_HOSTNAME = 3,
	PTD_FEAT_OSRELEASE = 4,
	PTD_FEAT_VERSION = 5,
	PTD_FEAT_ARCH = 6,
	PTD_FEAT_NRCPUS = 7,
	PTD_FEAT_CPUDESC = 8,
	PTD_FEAT_CPUID = 9,
	PTD_FEAT_TOTAL_MEM = 10,
	PTD_FEAT_CMDLINE = 11,
	PTD_FEAT_EVENT_DESC = 12,
	PTD_FEAT_CPU_TOPOLOGY = 13,
	PTD_FEAT_NUMA_TOPOLOGY = 14,
	PTD_FEAT_BRANCH_STACK = 15,
	PTD_FEAT_PMU_MAPPINGS = 16,
	PTD_FEAT_GROUP_DESC = 17,
	PTD_FEAT_AUXTRACE = 18,
	PTD_FEAT_STAT = 19,
	PTD_FEAT_CACHE = 20,
	PTD_FEAT_SAMPLE_TIME = 21,
	PTD_FEAT_MEM_TOPOLOGY = 22,
	PTD_FEAT_CLOCKID = 23,
	PTD_FEAT_DIR_FORMAT = 24,
	PTD_FEAT_BPF_PROG_INFO = 25,
	PTD_FEAT_BPF_BTF = 26,
	PTD_FEAT_COMPRESSED = 27,
	PTD_FEAT_CPU_PMU_CAPS = 28,
	PTD_FEAT_CLOCK_DATA = 29,
	PTD_FEAT_HYBRID_TOPOLOGY = 30,
	PTD_FEAT_PMU_CAPS = 31,
	PTD_FEAT_BITS = 256,
};

/* sizes of fixed on-disk structures */
#define PTD_FILE_HEADER_SIZE   104  /* magic, size, attr_size, 3 sections, 256-bit bitmap */
#define PTD_PIPE_HEADER_SIZE   16
#define PTD_ATTR_SIZE_VER0     64
#define PTD_AUXTRACE_REC_SIZE  48   /* header + size, offset, reference, idx, tid, cpu, pad */

/* Name of a record type as perf prints it ("MMAP2", "AUXTRACE"), or NULL. */
const char *ptd_rec_name(uint32_t type);

/* Name of a header feature bit ("build_id", "auxtrace"), or NULL. */
const char *ptd_feat_name(unsigned bit);

#endif
