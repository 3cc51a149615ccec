#include "formats/perf/evname.h"

#include <stdio.h>

const char *ptd_evsel_name(const struct ptd_evsel *ev, char *buf, size_t len)
{
	static const char *const sw[] = {
		"cpu-clock", "task-clock", "page-faults", "context-switches",
		"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
		"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
	};
	static const char *const hw[] = {
		"cycles", "instructions", "cache-references", "cache-misses",
		"branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
		"stalled-cycles-backend", "ref-cycles",
	};

	if (!ev)
		return "unknown";
	if (ev->name)
		return ev->name;
	if (ev->type == 1 && ev->config < sizeof(sw) / sizeof(sw[0]))
		return sw[ev->config];
	if (ev->type == 0 && ev->config < sizeof(hw) / sizeof(hw[0]))
		return hw[ev->config];
	snprintf(buf, len, "unknown attr type: %u", ev->type);
	return buf;
}
