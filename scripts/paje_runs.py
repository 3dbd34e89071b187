# paje_runs.py: a trace directory as the trace tools see it: StarPU's tasks.rec (read_rec,
# read_tasks_rec), the library's task sets (tuccompi-sets.tsv), and a Run that joins them with
# paje.trace (load_run, load_run_with_tasks). Python 3 standard library only; paje_check.py re-exports it.
import os

from paje_format import *  # noqa: F401,F403 (PajeInvalid, NoTrace, parse, worker_label, ...)

# ------------------------------------------------------------------------------------------ tasks.rec
def read_rec(path):
    """Yield the records (dicts) of a GNU recutils-style file such as StarPU's tasks.rec."""
    rec = {}
    with open(path, "r", encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip():
                if rec:
                    yield rec
                    rec = {}
                continue
            if line[0] == "#":
                continue
            k, sep, v = line.partition(":")
            if sep:
                rec[k.strip()] = v.strip()
    if rec:
        yield rec


class Task:
    __slots__ = ("name", "jobid", "rank", "wid", "start", "end", "submit", "model", "node", "ctx", "iteration")


def read_tasks_rec(path):
    """Executed tasks of a tasks.rec (records with WorkerId, StartTime and EndTime); times in ms."""
    out = []
    for r in read_rec(path):
        if "WorkerId" not in r or "StartTime" not in r or "EndTime" not in r:
            continue
        t = Task()
        try:
            t.name = r.get("Name", "unknown")
            t.jobid = r.get("JobId", "")
            t.rank = max(int(r.get("MPIRank", "0")), 0)     # -1 without MPI
            t.wid = int(r["WorkerId"])
            t.start = float(r["StartTime"])
            t.end = float(r["EndTime"])
            t.submit = float(r["SubmitTime"]) if "SubmitTime" in r else None
            t.node = int(r["MemoryNode"]) if "MemoryNode" in r else None
        except ValueError as e:
            raise PajeInvalid("%s: bad record (JobId %s): %s" % (path, r.get("JobId", "?"), e))
        t.model = r.get("Model")
        t.ctx = None
        # "Iteration: N [M]": set by starpu_iteration_push(); a task-set marker when the library sets it
        it = r.get("Iteration", "").split()
        t.iteration = int(it[0]) if it and it[0].lstrip("-").isdigit() else None
        out.append(t)
    return out


def locate(arg):
    """DIR or FILE -> (paje.trace path, directory holding it)."""
    if os.path.isdir(arg):
        return os.path.join(arg, "paje.trace"), arg
    return arg, os.path.dirname(arg) or "."


class Run:
    """What tuccompi-summary and tuccompi-plot need from a trace directory."""

    def __init__(self, d):
        self.dir = d
        self.paje = None          # PajeResult, when paje.trace was read
        self.paje_note = None     # why it was not, or its problems
        self.tasks = []           # Task (times in ms), each with .ctx (scheduling context or None)
        self.source = None        # "tasks.rec" or "paje.trace"
        self.workers = []         # (rank, wid, label), every worker known, ranks in order
        self.t0 = self.t1 = None  # first task start, last task end (ms)
        self._labels = None
        self.sets = {}            # task set number -> (plugin, policy, sched, ctx, mk, tasks), from
        self.ctx_sets = {}        # DIR/tuccompi-sets.tsv (the library writes it); context -> its sets

    def label(self, rank, wid):
        if getattr(self, "_labels", None) is None or len(self._labels) != len(self.workers):
            self._labels = {(r, w): lab for r, w, lab in self.workers}
        return self._labels.get((rank, wid), "worker %d" % wid)

    def groups(self, how="auto"):
        """Task-set key of every task, as a function, and the ordered list of keys.
        auto: the task name when there are several names, else the StarPU iteration number
        (starpu_iteration_push(), "Iteration:" in tasks.rec) when there are several, else the StarPU
        scheduling context (the library makes one per policy and MK) when there are several, else
        one group."""
        names = sorted(set(t.name for t in self.tasks))
        iters = sorted(set(t.iteration for t in self.tasks if t.iteration is not None and t.iteration >= 0))
        ctxs = sorted(set(t.ctx for t in self.tasks if t.ctx is not None))
        if how == "auto":
            how = ("name" if len(names) > 1 else "taskset" if len(iters) > 1 else
                   "ctx" if len(ctxs) > 1 else "none")
        if how == "name":
            return (lambda t: t.name), names, how
        if how == "taskset":
            base = names[0] if len(names) == 1 else "tasks"

            def fmt(i):
                if i is None or i < 0:
                    return "%s outside the library's task sets" % base
                if i in self.sets:
                    plugin, policy, sched, ctx, mk, n = self.sets[i]
                    return "set %d: %s, %s tasks, %s" % (i, plugin, n, policy)
                return "%s, set %d" % (base, i)
            keys = sorted(set(t.iteration if t.iteration is not None and t.iteration >= 0 else -1
                              for t in self.tasks))
            return (lambda t: fmt(t.iteration)), [fmt(i) for i in keys], how
        if how == "ctx":
            keys = sorted(set(t.ctx if t.ctx is not None else 0 for t in self.tasks))
            base = names[0] if len(names) == 1 else "tasks"

            def fmt(c):
                if not c:
                    return "%s, StarPU's global context" % base
                if c in self.ctx_sets:
                    policy, sched, mk = self.ctx_sets[c]
                    return "%s (%s, MK %s)" % (policy, sched, mk)
                return "%s, context %d" % (base, c)
            return (lambda t: fmt(t.ctx or 0)), [fmt(c) for c in keys], how
        lab = names[0] if len(names) == 1 else "all tasks"
        return (lambda t: lab), [lab] if self.tasks else [], how


def _activity_names(path):
    names = {}
    try:
        with open(path, "r", encoding="utf-8", errors="replace") as f:
            for line in f:
                p = line.rstrip("\n").split("\t")
                if len(p) == 3 and p[0] == "name" and p[1].isdigit():
                    names.setdefault(int(p[1]), set()).add(p[2])
    except OSError:
        pass
    return {w: next(iter(s)) for w, s in names.items() if len(s) == 1}


def read_sets(run, path):
    """DIR/tuccompi-sets.tsv: set, plugin, policy, sched, ctx, mk, tasks (a line per task set)."""
    try:
        with open(path, "r", encoding="utf-8", errors="replace") as f:
            rows = [line.rstrip("\n").split("\t") for line in f]
    except OSError:
        return
    for p in rows[1:]:
        if len(p) == 7 and p[0].isdigit() and p[4].isdigit():
            run.sets[int(p[0])] = (p[1], p[2], p[3], int(p[4]), p[5], p[6])
            run.ctx_sets[int(p[4])] = (p[2], p[3], p[5])


def load_run(d, use_paje=True, want_links=True):
    """Read DIR/tasks.rec (or, without it, the task intervals of DIR/paje.trace) and DIR/paje.trace."""
    run = Run(d)
    paje_path, rec_path = os.path.join(d, "paje.trace"), os.path.join(d, "tasks.rec")
    has_rec = os.path.isfile(rec_path)
    if use_paje and os.path.isfile(paje_path):
        try:
            run.paje = parse(paje_path, want_jobs=True, want_intervals=not has_rec, want_links=want_links)
            if run.paje.nerrors:
                run.paje_note = "paje.trace has %d bad line(s), first at line %d: %s" % (
                    run.paje.nerrors, run.paje.errors[0][0], run.paje.errors[0][1])
        except PajeInvalid as e:
            run.paje_note = "paje.trace not used: %s" % e
    elif use_paje:
        run.paje_note = "no paje.trace"
    if has_rec:
        run.tasks = read_tasks_rec(rec_path)
        run.source = "tasks.rec"
        jc = run.paje.job_ctx if run.paje is not None else {}
        for t in run.tasks:
            t.ctx = jc.get(t.jobid)
    elif run.paje is not None:
        run.source = "paje.trace"
        for w in run.paje.workers:
            for iv in w.intervals:
                t = Task()
                t.name, t.jobid, t.rank, t.wid, t.start, t.end = iv[2], iv[4] or "", w.rank, w.wid, iv[0], iv[1]
                t.submit = t.model = t.node = t.iteration = None
                t.ctx = iv[3]
                run.tasks.append(t)
    elif run.paje_note and run.paje_note != "no paje.trace":
        raise PajeInvalid("%s: no tasks.rec, and %s" % (d, run.paje_note))
    else:
        raise NoTrace("%s holds no trace (neither tasks.rec nor paje.trace); record one with --trace DIR "
                      "or TUCCOMPI_TRACE=DIR" % d)
    read_sets(run, os.path.join(d, "tuccompi-sets.tsv"))
    known = {}
    if run.paje is not None:
        for w in run.paje.workers:
            known[(w.rank, w.wid)] = w.label
    act = _activity_names(os.path.join(d, "activity.data")) if not known else {}
    for t in run.tasks:
        if (t.rank, t.wid) not in known:
            known[(t.rank, t.wid)] = act.get(t.wid, "worker %d" % t.wid)
    run.workers = [(r, w, lab) for (r, w), lab in sorted(known.items())]
    if run.tasks:
        run.t0 = min(t.start for t in run.tasks)
        run.t1 = max(t.end for t in run.tasks)
    return run


def load_run_with_tasks(d, use_paje=True, want_links=True):
    """load_run() for the tools that show a run: NoTrace when DIR is missing, holds no trace, or its
    trace has no executed task (a conversion that failed leaves empty files, for instance)."""
    if not os.path.isdir(d):
        raise NoTrace("%s is not a directory (record a trace with --trace %s or TUCCOMPI_TRACE=%s)" % (d, d, d))
    run = load_run(d, use_paje=use_paje, want_links=want_links)
    if not run.tasks:
        raise NoTrace("%s: no executed task in %s%s; was the run's trace conversion successful (see %s)?"
                      % (d, run.source, " (%s)" % run.paje_note if run.paje_note else "",
                         os.path.join(d, "fxt_tool.log")))
    return run


def union_length(intervals):
    total, end = 0.0, None
    start = None
    for a, b in sorted(intervals):
        if end is None or a > end:
            if end is not None:
                total += end - start
            start, end = a, b
        elif b > end:
            end = b
    if end is not None:
        total += end - start
    return total
