#!/usr/bin/env python3
# Validate a Paje trace written by StarPU 1.3 (starpu_fxt_tool) and count the task executions in it.
#
#   paje_check.py DIR_OR_FILE [--expect-tasks N] [--expect-workers K] [--task-name NAME] [--ranks R]
#                             [--strict] [--no-rec] [--quiet]
#
# Exit status: 0 valid and as expected; 1 valid but disagreeing with an --expect-*/--ranks option or with
# the tasks.rec next to the trace; 2 unreadable or invalid (the first bad line is given as FILE:LINE).
#
# Also a module (Python 3 standard library only): tuccompi-summary and tuccompi-plot import parse()
# and read_tasks_rec() from here.#
# The code is in two modules beside this one: paje_format.py (the Paje format and its parser) and
# paje_runs.py (tasks.rec, task sets, a run's directory); this file re-exports both, so that
# "import paje_check" gives the tools everything, and holds the command line.
import os
import sys

from paje_format import *  # noqa: F401,F403
from paje_runs import *  # noqa: F401,F403

EXIT_OK, EXIT_MISMATCH, EXIT_INVALID = 0, 1, 2


# ------------------------------------------------------------------------------------------ command line
def _cross_check_rec(res, rec_path, problems, out):
    try:
        tasks = read_tasks_rec(rec_path)
    except (OSError, PajeInvalid) as e:
        out.append("  tasks.rec: not read (%s)" % e)
        return
    byname = {}
    for t in tasks:
        k = (t.rank, t.name)
        byname[k] = byname.get(k, 0) + 1
    paje = {}
    for w in res.workers:
        for n, c in w.execs.items():
            paje[(w.rank, n)] = paje.get((w.rank, n), 0) + c
    diffs = ["rank %d %s: %d in paje.trace, %d in tasks.rec" % (k[0], k[1], paje.get(k, 0), byname.get(k, 0))
             for k in sorted(set(byname) | set(paje), key=lambda k: (k[0], k[1]))
             if paje.get(k, 0) != byname.get(k, 0)]
    detail = ""
    if res.jobs:
        missing, extra, moved = 0, 0, 0
        first = None
        rec_ids = set()
        for t in tasks:
            rec_ids.add(t.jobid)
            j = res.jobs.get(t.jobid)
            if j is None:
                missing += 1
                first = first or "JobId %s (in tasks.rec, not in paje.trace)" % t.jobid
            elif j[0] != t.rank or j[1] != t.wid or abs(j[2] - t.start) > 1e-3 or j[3] != t.name:
                moved += 1
                first = first or ("JobId %s: paje.trace has %s on rank %d worker %d at %.6f, tasks.rec %s on "
                                  "rank %d worker %d at %.6f" % (t.jobid, j[3], j[0], j[1], j[2], t.name, t.rank,
                                                                  t.wid, t.start))
        extra = sum(1 for j in res.jobs if j not in rec_ids)
        if extra and first is None:
            first = "a JobId of paje.trace is not in tasks.rec"
        if missing or extra or moved:
            diffs.append("JobIds: %d only in tasks.rec, %d only in paje.trace, %d with another worker/start/name "
                         "(first: %s)" % (missing, extra, moved, first))
        else:
            detail = "; same JobId, rank, worker, name and start time for every task"
    if diffs:
        out.append("  tasks.rec: %d executed tasks; DISAGREES with paje.trace:" % len(tasks))
        out.extend("    " + d for d in diffs)
        problems.append("%s: tasks.rec disagrees with paje.trace (%s)" % (res.path, diffs[0]))
    else:
        out.append("  tasks.rec: %d executed tasks, agrees%s" % (len(tasks), detail))


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(
        prog="paje_check.py",
        description="Validate a paje.trace written by StarPU 1.3 (starpu_fxt_tool) and count task executions "
                    "(Worker State set to a task name on worker containers). Exit: 0 fine, 1 the trace disagrees "
                    "with an expectation or with tasks.rec, 2 unreadable or invalid input.")
    ap.add_argument("path", metavar="DIR_OR_FILE", help="trace directory (holding paje.trace) or a Paje file")
    ap.add_argument("--expect-tasks", type=int, metavar="N", help="task executions expected (of --task-name if given)")
    ap.add_argument("--expect-workers", type=int, metavar="K", help="worker containers expected, all ranks together")
    ap.add_argument("--task-name", metavar="NAME", help="count only the executions of this task/codelet name")
    ap.add_argument("--ranks", type=int, metavar="R", help="MPI ranks (program containers) expected")
    ap.add_argument("--strict", action="store_true", help="treat warnings (e.g. time going backwards) as errors")
    ap.add_argument("--no-rec", action="store_true", help="do not cross-check with the tasks.rec next to the trace")
    ap.add_argument("-q", "--quiet", action="store_true", help="print only problems")
    a = ap.parse_args(argv)

    path, d = locate(a.path)
    out = []
    try:
        res = parse(path, want_jobs=not a.no_rec)
    except PajeInvalid as e:
        print("%s" % e, file=sys.stderr)
        print("%s: INVALID" % path)
        return EXIT_INVALID

    out.append("%s: %d lines, %d event definitions, %d containers, %d rank(s), %d worker(s)%s"
               % (res.path, res.lines, len(res.defs), res.ncreated, len(res.ranks), len(res.workers),
                  ", time %.3f .. %.3f ms" % (res.tmin, res.tmax) if res.tmin is not None else ""))
    for r in sorted(res.ranks):
        ws = [w for w in res.workers if w.rank == r]
        out.append("  rank %d: %d worker(s): %s" % (r, len(ws), ", ".join("%s [%s]" % (w.label, w.alias) for w in ws)))
    orphans = [w for w in res.workers if w.rank not in res.ranks]
    if orphans:
        out.append("  workers outside a program container: %s" % ", ".join(w.alias for w in orphans))
    names = res.task_names()
    total = res.executions()
    out.append("  task executions (Worker State = task name): %d%s" % (
        total, " (" + ", ".join("%s: %d" % kv for kv in sorted(names.items())) + ")" if names else ""))
    for r in sorted(set(w.rank for w in res.workers)):
        ws = [w for w in res.workers if w.rank == r]
        out.append("    rank %d: %d  (%s)" % (r, sum(sum(w.execs.values()) for w in ws),
                                             ", ".join("%s: %d" % (w.label, sum(w.execs.values())) for w in ws)))
    if res.ctx_execs:
        ctxs = {}
        for (r, cx, n), c in res.ctx_execs.items():
            ctxs[cx] = ctxs.get(cx, 0) + c
        out.append("  per scheduling context (InCtxN states): %s"
                   % ", ".join("Ctx%d: %d" % kv for kv in sorted(ctxs.items())))
    problems = []
    det = res.detailed_executions()
    if det:
        if det != total:
            res.warn("detailed", 0, "%d task states carry a JobId but %d task executions were counted "
                     "(StarPU writes both for every task)" % (det, total))
        out.append("  states with JobId: %d%s" % (det, "" if det == total else " (differs!)")
                   + (", %d JobId(s) seen twice" % res.job_dups if res.job_dups else ""))
    for (lname, cls), L in sorted(res.links.items()):
        out.append("  links %r (%s): %d, %.0f bytes, %.3f ms in all" % (lname, cls, L["count"], L["bytes"], L["time"]))
    if not res.links:
        out.append("  links (data transfers, MPI messages): none")

    if a.task_name is not None and a.task_name not in names:
        out.append("  no execution of task %r (names seen: %s)" % (a.task_name, ", ".join(sorted(names)) or "none"))

    rec = os.path.join(d, "tasks.rec")
    if not a.no_rec and os.path.isfile(rec) and not res.nerrors:
        _cross_check_rec(res, rec, problems, out)

    for kind, (n, line, msg) in sorted(res.warnings.items(), key=lambda kv: kv[1][1]):
        out.append("  warning: %s%s" % ("%s:%d: " % (res.path, line) if line else "",
                                        msg + (" (and %d more)" % (n - 1) if n > 1 else "")))

    # expectations
    if a.expect_tasks is not None:
        got = res.executions(a.task_name)
        if got != a.expect_tasks:
            what = "executions of %s" % a.task_name if a.task_name is not None else "task executions"
            problems.append("%s: %d %s, expected %d" % (res.path, got, what, a.expect_tasks))
    if a.expect_workers is not None and len(res.workers) != a.expect_workers:
        problems.append("%s: %d worker containers, expected %d" % (res.path, len(res.workers), a.expect_workers))
    if a.ranks is not None and len(res.ranks) != a.ranks:
        problems.append("%s: %d MPI rank(s) (program containers), expected %d" % (res.path, len(res.ranks), a.ranks))

    if res.nerrors:
        line, msg = res.errors[0]
        print("%s:%d: %s" % (res.path, line, msg), file=sys.stderr)
        for line, msg in res.errors[1:]:
            out.append("  error: %s:%d: %s" % (res.path, line, msg))
        if res.nerrors > len(res.errors):
            out.append("  ... %d more bad lines" % (res.nerrors - len(res.errors)))
        if not a.quiet:
            print("\n".join(out))
        print("%s: INVALID (%d bad line(s); first: line %d)" % (res.path, res.nerrors, res.errors[0][0]))
        return EXIT_INVALID
    if a.strict and res.warnings:
        kind, (n, line, msg) = min(res.warnings.items(), key=lambda kv: kv[1][1] or 0)
        print("%s:%d: %s (--strict)" % (res.path, line, msg), file=sys.stderr)
        if not a.quiet:
            print("\n".join(out))
        print("%s: INVALID (--strict: %d warning kind(s))" % (res.path, len(res.warnings)))
        return EXIT_INVALID
    if not a.quiet:
        print("\n".join(out))
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print("%s: MISMATCH (%d problem(s))" % (res.path, len(problems)))
        return EXIT_MISMATCH
    if not a.quiet:
        print("%s: OK" % res.path)
    return EXIT_OK


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(EXIT_OK)
