#!/usr/bin/env python3
"""bench/apsp_table.py [--brief] OUTDIR: the table of APSP rates (Markdown) from bench/apsp.sh's
OUTDIR/apsp-bench.csv and apsp-ratios.csv, so that the docs quote one run as it printed it: docs/apsp.md
the whole table, README.md the --brief one (rates and the ratios to the sum of the units alone).
A configuration that did not run (no GPU, a failed run) shows as a dash; one that ran several rounds
(REPS) shows its median rate, as the ratios use it. With OUTDIR/node.txt (scripts/gpu-node.sh final
writes it: "date:", "bundle commit:", "cores:", "gpu:" lines) the table starts with a "Measured on"
line."""
import csv
import os
import statistics
import sys


def measured_on(d):
    """The "Measured on" line from OUTDIR/node.txt, or None."""
    try:
        with open(os.path.join(d, "node.txt")) as f:
            kv = dict(line.split(":", 1) for line in f if ":" in line and not line.startswith("#"))
    except OSError:
        return None
    kv = {k.strip(): v.strip() for k, v in kv.items()}
    parts = [kv.get("gpu") or "no GPU"]
    if kv.get("cores"):
        parts.append("%s CPU cores" % kv["cores"])
    if kv.get("date"):
        parts.append(kv["date"])
    if kv.get("bundle commit"):
        parts.append("tree " + kv["bundle commit"])
    return "Measured on one node: %s (`bench/apsp.sh`, SSSP/s)." % ", ".join(parts)


def main(argv):
    brief = len(argv) == 3 and argv[1] == "--brief"
    if len(argv) != 2 and not brief:
        sys.stderr.write("usage: apsp_table.py [--brief] OUTDIR (bench/apsp.sh's output folder)\n")
        return 2
    d = argv[-1]
    try:
        with open(os.path.join(d, "apsp-bench.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        with open(os.path.join(d, "apsp-ratios.csv"), newline="") as f:
            ratios = list(csv.DictReader(f))
    except OSError as e:
        sys.stderr.write("apsp_table.py: %s (run bench/apsp.sh %s first)\n" % (e, d))
        return 1
    runs = {}
    for r in rows:
        if r["sssp_per_s"]:
            runs.setdefault((r["graph"], r["config"]), []).append((float(r["sssp_per_s"]), r["sources"]))
    rate = {key: (statistics.median(v for v, _ in rs), rs[0][1]) for key, rs in runs.items()}

    def cell(g, c):
        if (g, c) not in rate:
            return "-"
        v, k = rate[(g, c)]
        return "{:,.0f}".format(v) if brief else "{:,.0f} ({:,} sources)".format(v, int(k))

    line = measured_on(d)
    if line:
        print(line + "\n")

    # with REPS rounds: the medians' rounds and their spread (max/min - 1), and the sums with as many
    # CPU cores as the every-unit runs had
    rounds = any(int(q.get("runs") or 1) > 1 for q in ratios)
    if brief:
        print("| graph | engine | GPU alone | CPU cores alone | every unit | every unit / sum | 2 ranks of the node / sum "
              "| GPU alone / its floor |")
        print("|---" * 8 + "|")
    else:
        print("| graph | engine | GPU alone | every unit | CPU cores alone | every unit / best alone | every unit / sum "
          "| every unit / sum, its cores | every unit, 2 ranks | 2 ranks / best alone | 2 ranks / sum "
              "| 2 ranks / sum, their cores | GPU alone / its floor |" + (" rounds, spread |" if rounds else ""))
        print("|---" * 13 + "|" + ("---|" if rounds else ""))
    for q in ratios:  # one row per graph and engine, in bench/apsp.sh's order
        g, e = q["graph"], q["engine"]
        if e == "phast":
            # the engine's own MK since 2026-12-05 (as every unit runs it); MK 4 before
            gpu = "gpu-phast" if (g, "gpu-phast") in rate else "gpu-phast-mk4"
        elif e == "dial":
            gpu = "gpu-dial"
        else:
            gpu = max(("gpu-batched-mk1", "gpu-batched-mk2"), key=lambda c: rate.get((g, c), (0, 0))[0])
        cpu = "cpu-phast" if e == "phast" else "cpu-batched"  # dial's CPU units are batched's
        # the sums with as many CPU cores as the every-unit runs had (the CPU cores alone are all of them)
        if brief:
            print("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                g, e, cell(g, gpu), cell(g, cpu), cell(g, "all-" + e), q.get("every_unit_vs_sum_same_cores") or "-",
                q.get("2_ranks_vs_sum_same_cores") or "-", q.get("gpu_vs_floor") or "-"))
            continue
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            g, e, cell(g, gpu), cell(g, "all-" + e), cell(g, cpu), q["every_unit_vs_best_alone"] or "-",
            q["every_unit_vs_sum"] or "-", q.get("every_unit_vs_sum_same_cores") or "-", cell(g, "all2-" + e),
            q.get("2_ranks_vs_best_alone") or "-", q.get("2_ranks_vs_sum") or "-",
            q.get("2_ranks_vs_sum_same_cores") or "-", q.get("gpu_vs_floor") or "-") +
            (" %s, %.1f%% |" % (q.get("runs") or "1", 100 * float(q.get("spread") or 0)) if rounds else ""))
    big = [r for r in rows if r["config"] in ("all-ms", "all-ms-tail")]
    if big:
        print("\nThe paper's largest set, %s sources with every unit: %s." % (big[0]["sources"], ", ".join(
            "%.2f s under %s" % (float(r["seconds"]), r["policy"]) for r in big)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
