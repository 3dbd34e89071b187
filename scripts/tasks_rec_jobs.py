#!/usr/bin/env python3
"""tasks_rec_jobs.py TASKS.REC...: per worker of each FxT tasks.rec, its jobs' durations (the first,
the median of the others, the sum) and the idle gaps between its consecutive jobs, in ms.
For telling a fixed cost of a run (a slow first job) from a cost per job (every job longer)."""
import statistics
import sys


def records(path):
    rec = {}
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                if rec:
                    yield rec
                rec = {}
                continue
            k, _, v = line.partition(": ")
            rec[k] = v
    if rec:
        yield rec


def main():
    for path in sys.argv[1:]:
        by = {}
        for r in records(path):
            if "StartTime" in r and "EndTime" in r and r.get("Name", "").startswith("sssp"):
                by.setdefault(r.get("WorkerId", "?"), []).append((float(r["StartTime"]), float(r["EndTime"])))
        print(f"{path}:")
        for w, jobs in sorted(by.items()):
            jobs.sort()
            d = [e - s for s, e in jobs]
            gaps = [jobs[i + 1][0] - jobs[i][1] for i in range(len(jobs) - 1)]
            rest = statistics.median(d[1:]) if len(d) > 1 else float("nan")
            g = statistics.median(gaps) if gaps else float("nan")
            print(f"  worker {w}: {len(d)} jobs, first {d[0]:.3f} ms, median of the rest {rest:.3f} ms, "
                  f"busy {sum(d):.2f} ms, gaps median {g:.3f} ms sum {sum(gaps):.2f} ms, "
                  f"span {jobs[0][0]:.2f}-{jobs[-1][1]:.2f} ms")


if __name__ == "__main__":
    main()
