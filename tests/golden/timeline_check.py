"""timeline_check.py TIMELINE CALLS ERRORS: check a --timeline file and list
what it holds.

The file must be one JSON object with a traceEvents list whose events are
complete events (ph X: name, ts, dur >= 0, pid, tid, args.flags),
metadata (ph M: process_name / thread_name with args.name) and thread
instant events (ph i); per thread the spans must nest (a span that starts
inside another ends inside it), and every thread with spans must be named.
CALLS gets one line per span, sorted: "pid tid name call_time return_time
flags" (times in ns, flags as perf's calls.flags); ERRORS one line per
instant event: "pid tid time code".  Problems are printed; exit 1 then."""
import json
import sys

bad = []
try:
    doc = json.load(open(sys.argv[1]))
    events = doc["traceEvents"]
except (ValueError, KeyError, TypeError) as e:
    print("not a trace-event JSON object: %s" % e)
    sys.exit(1)
spans, rows, errors, named = {}, [], [], set()
FLAGS = {"no_call": 1, "no_return": 2, "jump": 4}
for e in events:
    ph = e.get("ph")
    if ph == "X":
        ts, dur = round(e["ts"] * 1000), round(e["dur"] * 1000)
        if dur < 0 or not isinstance(e["name"], str):
            bad.append("bad span %s" % e)
        flags = sum(FLAGS[f] for f in e["args"]["flags"].split())
        spans.setdefault((e["pid"], e["tid"]), []).append((ts, ts + dur, e["name"]))
        rows.append("%d %d %s %d %d %d" % (e["pid"], e["tid"], e["name"], ts, ts + dur, flags))
    elif ph == "M":
        if e["name"] not in ("process_name", "thread_name") or not isinstance(e["args"]["name"], str):
            bad.append("bad metadata %s" % e)
        if e["name"] == "thread_name":
            named.add((e["pid"], e["tid"]))
    elif ph == "i":
        errors.append("%d %d %d %d" % (e["pid"], e["tid"], round(e["ts"] * 1000), e["args"]["code"]))
    else:
        bad.append("unexpected event %s" % e)
for k, v in spans.items():
    if k not in named:
        bad.append("thread %s has spans but no thread_name" % (k,))
    # outer spans first: by start, the longer first
    v.sort(key=lambda s: (s[0], -s[1]))
    stack = []
    for s in v:
        # left behind: spans that ended before s starts (at its start, when s goes on)
        while stack and (stack[-1][1] < s[0] or (stack[-1][1] == s[0] and s[1] > s[0])):
            stack.pop()
        if stack and s[1] > stack[-1][1]:
            bad.append("%s: %s is not inside %s" % (k, s, stack[-1]))
        stack.append(s)
open(sys.argv[2], "w").write("".join(r + "\n" for r in sorted(rows)))
open(sys.argv[3], "w").write("".join(r + "\n" for r in sorted(errors)))
for b in bad[:10]:
    print(b)
sys.exit(1 if bad else 0)
