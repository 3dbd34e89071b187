#!/usr/bin/env python3
"""mk_units.py SRC DST K [MKMODELS]: the H200 node's models with its GPU at MK K modelled as K
simulated GPUs (docs/simulation.md, "MK > 1").

StarPU 1.3.10's simulated CUDA device runs one job at a time (SimGrid's blocking drivers reduce
STARPU_NWORKER_PER_CUDA to 1), so K jobs sharing one GPU cannot be simulated as such. Instead: K
CUDA devices behind the node's one PCIe link (the routes of every copy cross the same PCI links of
the bus sampling, so their copies share its bandwidth as the streams of one GPU do), each running
one job at a time in the time a job takes on the real GPU with K of them at once. The models in
MKMODELS (a models folder calibrated at MK K: its codelets' CUDA entries) give that time; without
it, SRC's CUDA entries are kept (MK 1 times: an upper bound, K times the GPU). Writes DST/sampling/
(host name h200, as SRC): bus files with K CUDA devices (config, bandwidth, latency, affinity,
platform XML; no copies between the devices: memcpy_peer 0) and every codelet model with K CUDA
combinations. Run it with STARPU_NCUDA=K and --mk 1: an MK-K node's pack (K jobs of the GPU's batch)
and its K jobs at once.

Validated against the node by `scripts/gpu-node.sh calibrate4m` (road-like 1M, GPU alone at MK 1, 2
and 4: its h200-mkK-models.tgz are the MKMODELS, its measured rates the check)."""
import os
import re
import shutil
import sys


def split_combs(text):
    """The header up to the first combination, and the combinations' texts."""
    parts = text.split("####################\n# COMB_")
    return parts[0], ["####################\n# COMB_" + p for p in parts[1:]]


def comb_type(comb):
    m = re.search(r"# device type \(CPU - 0, CUDA - 1[^\n]*\n(\d+)", comb)
    return int(m.group(1)) if m else -1


def set_devid(comb, dev):
    return re.sub(r"(# device id \n)\d+", lambda m: m.group(1) + str(dev), comb, count=1)


def codelet(src, mk_src, dst, k):
    text = open(src).read()
    head, combs = split_combs(text)
    cuda = [c for c in combs if comb_type(c) == 1]
    other = [c for c in combs if comb_type(c) != 1]
    if mk_src and os.path.exists(mk_src):
        _, mk_combs = split_combs(open(mk_src).read())
        mk_cuda = [c for c in mk_combs if comb_type(c) == 1]
        if mk_cuda:
            cuda = mk_cuda[:1]
    if not cuda:
        shutil.copy(src, dst)
        return
    out = [set_devid(cuda[0], d) for d in range(k)] + other
    head = re.sub(r"(# number of combinations\n)\d+", lambda m: m.group(1) + str(len(out)), head)
    renum = []
    for i, c in enumerate(out):
        c = re.sub(r"^####################\n# COMB_\d+", "####################\n# COMB_%d" % i, c)
        c = re.sub(r"\(Comb\d+\)", "(Comb%d)" % i, c)
        renum.append(c)
    open(dst, "w").write(head + "".join(renum))


def matrix(path, k):
    """bandwidth/latency: node 0 RAM, 1 the GPU; the GPU's row and column for each of K devices."""
    lines = open(path).read().rstrip("\n").split("\n")
    head, rows = lines[0], [l.split("\t") for l in lines[1:]]
    width = len(rows[0])
    new = []
    for i in range(width):
        src = 0 if i == 0 else 1 if i <= k else None
        row = []
        for j in range(width):
            dst = 0 if j == 0 else 1 if j <= k else None
            if src is None or dst is None:
                row.append("nan")
            elif src == 1 and dst == 1:
                row.append("0.000000e+00" if i == j else "nan")
            else:
                row.append(rows[src][dst])
        new.append(row)
    open(path, "w").write(head + "\n" + "\n".join("\t".join(r) for r in new) + "\n")


def platform(path, k):
    text = open(path).read()
    host = re.search(r'   <host id="CUDA0".*?</host>\n', text, re.S).group(0)
    host = host.replace('<prop id="memcpy_peer" value="1"/>', '<prop id="memcpy_peer" value="0"/>')
    links = "".join(re.findall(r'   <link id="(?:RAM-CUDA0|CUDA0-RAM)"[^\n]*\n', text))
    routes = "".join(re.findall(r'   <route src="(?:CUDA0|RAM)" dst="(?:RAM|CUDA0)".*?</route>\n', text, re.S))
    text = text.replace(re.search(r'   <host id="CUDA0".*?</host>\n', text, re.S).group(0),
                        "".join(host.replace("CUDA0", "CUDA%d" % d) for d in range(k)))
    text = text.replace(links, "".join(links.replace("CUDA0", "CUDA%d" % d) for d in range(k)))
    text = text.replace(routes, "".join(routes.replace("CUDA0", "CUDA%d" % d) for d in range(k)))
    open(path, "w").write(text)


def main(argv):
    if len(argv) not in (4, 5):
        sys.exit("usage: mk_units.py SRC DST K [MKMODELS]")
    src, dst, k = argv[1], argv[2], int(argv[3])
    mk = argv[4] if len(argv) == 5 else None
    if k < 1:
        sys.exit("mk_units.py: K is at least 1")
    if os.path.exists(dst):
        shutil.rmtree(dst)
    shutil.copytree(os.path.join(src, "sampling"), os.path.join(dst, "sampling"))
    bus = os.path.join(dst, "sampling", "bus")
    for name in os.listdir(bus):
        p = os.path.join(bus, name)
        if name.endswith(".config"):
            t = open(p).read()
            open(p, "w").write(re.sub(r"\n1 # Number of CUDA devices", "\n%d # Number of CUDA devices" % k, t))
        elif name.endswith(".bandwidth") or name.endswith(".latency"):
            matrix(p, k)
        elif name.endswith(".affinity"):
            lines = open(p).read().rstrip("\n").split("\n")
            row = lines[1].split("\t", 1)[1]
            open(p, "w").write(lines[0] + "\n" + "".join("%d\t%s\n" % (d, row) for d in range(k)))
        elif name.endswith(".xml"):
            platform(p, k)
    cod = os.path.join(dst, "sampling", "codelets", "45")
    for name in os.listdir(cod):
        mk_src = os.path.join(mk, "sampling", "codelets", "45", name) if mk else None
        codelet(os.path.join(cod, name), mk_src, os.path.join(cod, name), k)
    with open(os.path.join(dst, "SOURCE"), "w") as o:
        o.write("DERIVED by simulation/mk_units.py from %s: the GPU as %d simulated GPUs%s\n" % (
            os.path.abspath(src), k, ", their jobs timed as in %s" % os.path.abspath(mk) if mk else ""))


if __name__ == "__main__":
    main(sys.argv)
