#!/usr/bin/env python3
"""scale_models.py SRC DST CODELET FACTOR [CODELET FACTOR...]: DERIVED StarPU models for a larger
graph of the same kind: a copy of the models folder SRC (its sampling/) in DST, where every time of
each named codelet's history and fits (tuccompi_sssp-phast, tuccompi_sssp-batched) is FACTOR times
the recorded one, on every kind of unit.

Used for road-like 4M (4,194,304 vertices) from the road-like 1M calibration (1,048,576 vertices),
FACTOR 4 for PHAST: a PHAST pass sweeps every vertex and arc of the hierarchy once per source (a
GPU job, its 256 lanes at once), so its time grows with the graph, and at 1M vertices the GPU's
256 rows of distances (1 GB) are already far past its caches. ASSUMED, not measured: the CPU
cores' rows (16 MB per source at 4M, 4 MB at 1M) leave the cores' caches, which may cost more than
4x there. `scripts/gpu-node.sh calibrate4m` records the real models on the node (docs/simulation.md).

A history line (hash, size, flops, mean, dev, sum, sum2, n) gets mean, dev and sum times FACTOR,
sum2 times FACTOR^2; a power fit (sumlnx, sumlnx2, sumlny, sumlnxlny, alpha, beta, n, minx, maxx)
its alpha times FACTOR and sumlny, sumlnxlny shifted by ln FACTOR; the a n^b + c fit its a and c
times FACTOR. Everything else is copied as it is (the bus sampling, other codelets)."""
import math
import os
import shutil
import sys


def scale_file(path, f):
    lines = open(path).read().split("\n")
    out = []
    what = None
    for line in lines:
        if line.startswith("#"):
            if line.startswith("# hash"):
                what = "hist"
            elif line.startswith("# sumlnx"):
                what = "power"
            elif line.startswith("# a\t") or line.strip().startswith("# a "):
                what = "nl"
            else:
                what = None if not line.startswith("# hash") else what
            out.append(line)
            continue
        v = line.split()
        try:
            if what == "hist" and len(v) == 8:
                mean, dev, s, s2 = (float(x) for x in v[3:7])
                v[3:7] = ["%e" % (mean * f), "%e" % (dev * f), "%e" % (s * f), "%e" % (s2 * f * f)]
                line = "\t".join(v)
            elif what == "power" and len(v) == 9:
                n = float(v[6])
                slnx = float(v[0])
                v[2] = "%e" % (float(v[2]) + n * math.log(f))
                v[3] = "%e" % (float(v[3]) + slnx * math.log(f))
                v[4] = "%e" % (float(v[4]) * f)
                line = "\t".join(v)
                what = None
            elif what == "nl" and len(v) == 3:
                v = ["%e" % (float(x) * f) if x not in ("-nan", "nan") and i != 1 else x for i, x in enumerate(v)]
                line = "\t".join(v)
                what = None
        except ValueError:
            pass
        out.append(line)
    open(path, "w").write("\n".join(out))


def main(argv):
    if len(argv) < 5 or len(argv) % 2 == 0:
        sys.exit("usage: scale_models.py SRC DST CODELET FACTOR [CODELET FACTOR...]")
    src, dst = argv[1], argv[2]
    pairs = [(argv[i], float(argv[i + 1])) for i in range(3, len(argv), 2)]
    if not os.path.isdir(os.path.join(src, "sampling")):
        sys.exit("scale_models.py: %s has no sampling/ (a models folder: simulation/models/h200)" % src)
    if os.path.exists(dst):
        shutil.rmtree(dst)
    shutil.copytree(os.path.join(src, "sampling"), os.path.join(dst, "sampling"))
    done = set()
    for root, _, files in os.walk(os.path.join(dst, "sampling", "codelets")):
        for name in files:
            for cl, f in pairs:
                if name.startswith(cl + "."):
                    scale_file(os.path.join(root, name), f)
                    done.add(cl)
    for cl, _ in pairs:
        if cl not in done:
            sys.exit("scale_models.py: no model of %s in %s" % (cl, src))
    with open(os.path.join(dst, "SOURCE"), "w") as o:
        o.write("DERIVED by simulation/scale_models.py from %s: %s\n" % (
            os.path.abspath(src), ", ".join("%s x%g" % p for p in pairs)))


if __name__ == "__main__":
    main(sys.argv)
