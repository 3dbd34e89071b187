#!/usr/bin/env python3
"""derive_h200.py OUTDIR: PROVISIONAL StarPU models of the H200 node, DERIVED from rates recorded
on it (not calibrated there: scripts/gpu-node.sh calibrate does that, simulation/README.md).

Writes OUTDIR/sampling/bus/h200.* (16 CPUs, 1 CUDA device, PCIe) and
OUTDIR/sampling/codelets/45/tuccompi_sssp-{batched,phast}.h200: a history entry per job size n
(footprint = crc32c of n, simulation/crc32c-be.txt, as lib/plugin.c computes it) for one CPU core
and for the GPU at MK 1. Sources of the numbers (231d7d1:bench/results/h200-2026-12-01/phast-final/
and 231d7d1:docs/apsp.md, 2026-12-01 06:51 UTC):
  random 1M, batched:  GPU alone MK 1 5,139 SSSP/s on 8,192 sources, batches of 64 -> 12.45 ms per
                       full batch; 16 cores 187 SSSP/s -> 85.6 ms per source per core (jobs of 1)
  road-like 1M, PHAST: GPU alone MK 1 116,199 SSSP/s on 32,768 sources, 256 lanes -> 2.20 ms per
                       full batch; 16 cores 5,761 SSSP/s -> 2.78 ms per source per core (jobs of 16)
ASSUMED (never measured): a GPU batch of n < full lanes takes (0.25 + 0.75 n/lanes) of a full one;
a CPU job is linear in n. PCIe 25 GB/s and 10 us each way (from docs/apsp.md: 4 MB per source caps
GPU PHAST rows at 6,500-8,000 SSSP/s, i.e. about 26-32 GB/s)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CRC = {}
for line in open(os.path.join(HERE, "crc32c-be.txt")):
    n, h = line.split()
    CRC[int(n)] = h

MODELS = {
    # name: (cpu us per source, gpu us per full batch, gpu lanes, cpu max batch)
    "sssp-batched": (1e6 / (187.0 / 16), 64 / 5139.0 * 1e6, 64, 1),
    "sssp-phast": (1e6 / (5761.0 / 16), 256 / 116199.0 * 1e6, 256, 16),
}
NCPU = 16
PCIE_BPS = 25e9
PCIE_LAT = 10e-6


def arch_block(comb, devtype, entries):
    out = ["####################", "# COMB_%d" % comb, "# number of types devices", "1",
           "####################", "# DEV_0", "# device type (CPU - 0, CUDA - 1, OPENCL - 2, MIC - 3, MPI_MS - 5)",
           str(devtype), "####################", "# DEV_0", "# device id ", "0", "####################",
           "# DEV_0", "# number of cores ", "1", "##########", "# number of implementations", "1", "#####",
           "# Model for %s0_impl0 (Comb%d)" % ("cpu" if devtype == 0 else "cuda", comb), "# number of entries",
           str(len(entries)),
           "# sumlnx\tsumlnx2\t\tsumlny\t\tsumlnxlny\talpha\t\tbeta\t\tn\tminx\t\tmaxx",
           "0.000000e+00\t0.000000e+00\t0.000000e+00\t0.000000e+00\t0.000000e+00\t0.000000e+00\t0\t0\t0",
           "# a\t\tb\t\tc", "nan\tnan\tnan", "# not multiple-regression-base", "0",
           "# hash\t\tsize\t\tflops\t\tmean (us)\tdev (us)\tsum\t\tsum2\t\tn"]
    for n, t in entries:
        k = 100
        out.append("%s\t%d\t0.000000e+00\t%e\t%e\t%e\t%e\t%d" % (CRC[n], n, t, 0.0, t * k, t * t * k, k))
    return out


def model_file(cpu_us, gpu_us, lanes, cpu_max):
    cpu = [(n, cpu_us * n) for n in range(1, max(cpu_max, lanes) + 1)]  # EQ1/EQ2 give CPUs jobs of the GPU batch size
    gpu = [(n, gpu_us * (0.25 + 0.75 * n / lanes)) for n in range(1, lanes + 1)]
    lines = ["##################", "# Performance Model Version", "45", "", "####################", "# COMBs",
             "# number of combinations", "2"]
    lines += arch_block(0, 0, cpu) + [""] + arch_block(1, 1, gpu) + [""]
    return "\n".join(lines) + "\n"


def bus(out):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "h200.config"), "w") as f:
        f.write("# Current configuration\n%d # Number of CPUs\n1 # Number of NUMA nodes\n1 # Number of CUDA devices\n"
                "0 # Number of OpenCL devices\n0 # Number of MIC devices\n0 # Number of MPI devices\n" % NCPU)
    with open(os.path.join(out, "h200.affinity"), "w") as f:
        f.write("# GPU\tNUMA0\t\n0\t0\t\n")
    for name, v0, v in (("bandwidth", 0.0, PCIE_BPS / 1e6), ("latency", 0.0, PCIE_LAT * 1e6)):
        with open(os.path.join(out, "h200." + name), "w") as f:
            f.write("# " + "".join("to %d\t\t" % i for i in range(32)) + "\n")
            for r in range(32):
                row = []
                for c in range(32):
                    if r < 2 and c < 2:
                        row.append("%e" % (v0 if r == c else v))
                    else:
                        row.append("nan")
                f.write("\t".join(row) + "\n")
    hosts = "".join('   <host id="CPU%d" speed="2000000000f"/>\n' % i for i in range(NCPU))
    xml = """<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM 'http://simgrid.gforge.inria.fr/simgrid/simgrid.dtd'>
 <platform version="4">
 <config id="General">
   <prop id="network/TCP-gamma" value="-1"></prop>
   <prop id="network/latency-factor" value="1"></prop>
   <prop id="network/bandwidth-factor" value="1"></prop>
   <prop id="network/crosstraffic" value="0"></prop>
   <prop id="network/weight-S" value="0.0"></prop>
 </config>
 <AS  id="AS0"  routing="Full">
   <host id="MAIN" speed="1f"/>
%s   <host id="CUDA0" speed="2000000000f">
     <prop id="memsize" value="150000000000"/>
     <prop id="memcpy_peer" value="1"/>
   </host>

   <host id="RAM" speed="1f"/>

   <link id="Host" bandwidth="%fBps" latency="0.000000s"/>

   <link id="RAM-CUDA0" bandwidth="%fBps" latency="%fs"/>
   <link id="CUDA0-RAM" bandwidth="%fBps" latency="%fs"/>

   <route src="RAM" dst="CUDA0" symmetrical="NO"><link_ctn id="RAM-CUDA0"/><link_ctn id="Host"/></route>
   <route src="CUDA0" dst="RAM" symmetrical="NO"><link_ctn id="CUDA0-RAM"/><link_ctn id="Host"/></route>
 </AS>
 </platform>
""" % (hosts, PCIE_BPS, PCIE_BPS, PCIE_LAT, PCIE_BPS, PCIE_LAT)
    for suffix in (".platform.xml", ".platform.v4.xml"):
        with open(os.path.join(out, "h200" + suffix), "w") as f:
            f.write(xml)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "models", "h200-derived")
    bus(os.path.join(out, "sampling", "bus"))
    cdir = os.path.join(out, "sampling", "codelets", "45")
    os.makedirs(cdir, exist_ok=True)
    for name, (cpu_us, gpu_us, lanes, cpu_max) in MODELS.items():
        with open(os.path.join(cdir, "tuccompi_%s.h200" % name), "w") as f:
            f.write(model_file(cpu_us, gpu_us, lanes, cpu_max))
    with open(os.path.join(out, "SOURCE"), "w") as f:
        f.write("DERIVED, not calibrated: simulation/derive_h200.py (its docstring says from which recorded H200 "
                "rates and what is assumed), 2026-12-02\n")


main()
