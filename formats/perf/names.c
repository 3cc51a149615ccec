#include <stddef.h>

#include "formats/perf/abi.h"

/* perf's perf_event__name() table */
static const char *const rec_names[PTD_REC_MAX] = {
	[0] = "TOTAL",
	[PTD_REC_MMAP] = "MMAP",
	[PTD_REC_LOST] = "LOST",
	[PTD_REC_COMM] = "COMM",
	[PTD_REC_EXIT] = "EXIT",
	[PTD_REC_THROTTLE] = "THROTTLE",
	[PTD_REC_UNTHROTTLE] = "UNTHROTTLE",
	[PTD_REC_FORK] = "FORK",
	[PTD_REC_READ] = "READ",
	[PTD_REC_SAMPLE] = "SAMPLE",
	[PTD_REC_MMAP2] = "MMAP2",
	[PTD_REC_AUX] = "AUX",
	[PTD_REC_ITRACE_START] = "ITRACE_START",
	[PTD_REC_LOST_SAMPLES] = "LOST_SAMPLES",
	[PTD_REC_SWITCH] = "SWITCH",
	[PTD_REC_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[PTD_REC_NAMESPACES] = "NAMESPACES",
	[PTD_REC_KSYMBOL] = "KSYMBOL",
	[PTD_REC_BPF_EVENT] = "BPF_EVENT",
	[PTD_REC_CGROUP] = "CGROUP",
	[PTD_REC_TEXT_POKE] = "TEXT_POKE",
	[PTD_REC_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	[PTD_REC_HEADER_ATTR] = "ATTR",
	[PTD_REC_HEADER_EVENT_TYPE] = "EVENT_TYPE",
	[PTD_REC_HEADER_TRACING_DATA] = "TRACING_DATA",
	[PTD_REC_HEADER_BUILD_ID] = "BUILD_ID",
	[PTD_REC_FINISHED_ROUND] = "FINISHED_ROUND",
	[PTD_REC_ID_INDEX] = "ID_INDEX",
	[PTD_REC_AUXTRACE_INFO] = "AUXTRACE_INFO",
	[PTD_REC_AUXTRACE] = "AUXTRACE",
	[PTD_REC_AUXTRACE_ERROR] = "AUXTRACE_ERROR",
	[PTD_REC_THREAD_MAP] = "THREAD_MAP",
	[PTD_REC_CPU_MAP] = "CPU_MAP",
	[PTD_REC_STAT_CONFIG] = "STAT_CONFIG",
	[PTD_REC_STAT] = "STAT",
	[PTD_REC_STAT_ROUND] = "STAT_ROUND",
	[PTD_REC_EVENT_UPDATE] = "EVENT_UPDATE",
	[PTD_REC_TIME_CONV] = "TIME_CONV",
	[PTD_REC_HEADER_FEATURE] = "FEATURE",
	[PTD_REC_COMPRESSED] = "COMPRESSED",
	[PTD_REC_FINISHED_INIT] = "FINISHED_INIT",
	[PTD_REC_COMPRESSED2] = "COMPRESSED2",
};

const char *ptd_rec_name(uint32_t type)
{
	return type < PTD_REC_MAX ? rec_names[type] : NULL;
}

static const char *const feat_names[] = {
	[PTD_FEAT_TRACING_DATA] = "tracing_data",
	[PTD_FEAT_BUILD_ID] = "build_id",
	[PTD_FEAT_HOSTNAME] = "hostname",
	[PTD_FEAT_OSRELEASE] = "osrelease",
	[PTD_FEAT_VERSION] = "version",
	[PTD_FEAT_ARCH] = "arch",
	[PTD_FEAT_NRCPUS] = "nrcpus",
	[PTD_FEAT_CPUDESC] = "cpudesc",
	[PTD_FEAT_CPUID] = "cpuid",
	[PTD_FEAT_TOTAL_MEM] = "total_mem",
	[PTD_FEAT_CMDLINE] = "cmdline",
	[PTD_FEAT_EVENT_DESC] = "event_desc",
	[PTD_FEAT_CPU_TOPOLOGY] = "cpu_topology",
	[PTD_FEAT_NUMA_TOPOLOGY] = "numa_topology",
	[PTD_FEAT_BRANCH_STACK] = "branch_stack",
	[PTD_FEAT_PMU_MAPPINGS] = "pmu_mappings",
	[PTD_FEAT_GROUP_DESC] = "group_desc",
	[PTD_FEAT_AUXTRACE] = "auxtrace",
	[PTD_FEAT_STAT] = "stat",
	[PTD_FEAT_CACHE] = "cache",
	[PTD_FEAT_SAMPLE_TIME] = "sample_time",
	[PTD_FEAT_MEM_TOPOLOGY] = "mem_topology",
	[PTD_FEAT_CLOCKID] = "clockid",
	[PTD_FEAT_DIR_FORMAT] = "dir_format",
	[PTD_FEAT_BPF_PROG_INFO] = "bpf_prog_info",
	[PTD_FEAT_BPF_BTF] = "bpf_btf",
	[PTD_FEAT_COMPRESSED] = "compressed",
	[PTD_FEAT_CPU_PMU_CAPS] = "cpu_pmu_caps",
	[PTD_FEAT_CLOCK_DATA] = "clock_data",
	[PTD_FEAT_HYBRID_TOPOLOGY] = "hybrid_topology",
	[PTD_FEAT_PMU_CAPS] = "pmu_caps",
};

const char *ptd_feat_name(unsigned bit)
{
	return bit < sizeof(feat_names) / sizeof(feat_names[0]) ? feat_names[bit] : NULL;
}
