"""latency_ref.py DB SYMBOL: the --latency report computed independently
from the calls table of perf's export-to-sqlite.py database DB: the calls
of symbols named SYMBOL whose call and return were seen (flags & 3 == 0),
durations return_time - call_time; nearest-rank percentiles; power-of-two
buckets as bcc's funclatency."""
import sqlite3
import sys

db = sqlite3.connect(sys.argv[1])
sym = sys.argv[2]
rows = db.execute("""SELECT c.return_time - c.call_time, c.flags FROM calls c
    JOIN call_paths p ON p.id = c.call_path_id JOIN symbols s ON s.id = p.symbol_id
    WHERE c.id <> 0 AND p.symbol_id <> 0 AND s.name = ?""", (sym,)).fetchall()
d = sorted(max(r[0], 0) for r in rows if not r[1] & 3)
part = sum(1 for r in rows if r[1] & 3)
n = len(d)
print("latency of %s: %d calls%s" % (sym, n, " (and %d without their call or return, not counted)"
                                     % part if part else ""))
if n:
    print("min %d ns, avg %.1f ns, max %d ns" % (d[0], sum(d) / n, d[-1]))
    ps = []
    for pm, name in ((500, "p50"), (900, "p90"), (990, "p99"), (999, "p99.9")):
        rank = max(1, -(-n * pm // 1000))
        ps.append("%s %d ns" % (name, d[rank - 1]))
    print(", ".join(ps))
    b = {}
    for x in d:
        b[x.bit_length()] = b.get(x.bit_length(), 0) + 1
    most = max(b.values())
    print("%20s : %-10s distribution" % ("ns", "count"))
    for k in range(min(b), max(b) + 1):
        lo, hi = (0, 0) if k == 0 else (1 << (k - 1), (1 << k) - 1)
        c = b.get(k, 0)
        print("%20s : %-10d |%-40s|" % ("%d -> %d" % (lo, hi), c, "*" * (c * 40 // most)))
