# paje_format.py: the Paje trace format as StarPU 1.3 (starpu_fxt_tool) writes it: its event
# definitions, the parser (parse(): containers, workers, task executions, states, links) and what it
# returns (PajeResult). Python 3 standard library only; paje_check.py re-exports it for the trace tools.
#
# How StarPU 1.3.10 writes a task execution (src/debug/traces/starpu_fxt.c, no PoTI): when a codelet
# starts on worker W of rank R, the worker container "R_wW" (type "W", "Worker") gets
#     10  T  R_wW  WS    "name"              PajeSetState, state type "Worker State", value = task name
#     10  T  R_wW  CtxN  "name"              same, in the scheduling context's state type (N > 0 only)
#     20  T  R_wW  WS    name ... JobId ...  PajeSetState with extra fields (Size, Params, ..., JobId)
#     21  T  R_wW  CtxN  "name" ... JobId    same for the context (N > 0 only)
# and when it ends the worker state goes back to "I" (Idle) or "B" (Overhead). One execution = one
# PajeSetState of the "Worker State" type on a worker container whose value is not one of StarPU's own
# states (I, In, D, Fi, Po, C, B, E, Sc, Sl, P, U, H, ...), counted on the events WITHOUT a JobId field
# (the 10 lines); the events with a JobId (the 20 lines) are counted apart and must agree. The
# "InCtxN" states repeat the same executions per scheduling context and are not counted as executions.
import gzip
import os
import re
import sys

# Paje event names -> fields every definition must have (Alias is optional everywhere).
KNOWN_EVENTS = {
    "PajeDefineContainerType": ("Type", "Name"),
    "PajeDefineStateType": ("Type", "Name"),
    "PajeDefineEventType": ("Type", "Name"),
    "PajeDefineVariableType": ("Type", "Name"),
    "PajeDefineLinkType": ("Type", "StartContainerType", "EndContainerType", "Name"),
    "PajeDefineEntityValue": ("Type", "Name"),
    "PajeCreateContainer": ("Time", "Type", "Container", "Name"),
    "PajeDestroyContainer": ("Time", "Type", "Name"),
    "PajeNewEvent": ("Time", "Type", "Container", "Value"),
    "PajeSetState": ("Time", "Type", "Container", "Value"),
    "PajePushState": ("Time", "Type", "Container", "Value"),
    "PajePopState": ("Time", "Type", "Container"),
    "PajeResetState": ("Time", "Type", "Container"),
    "PajeSetVariable": ("Time", "Type", "Container", "Value"),
    "PajeAddVariable": ("Time", "Type", "Container", "Value"),
    "PajeSubVariable": ("Time", "Type", "Container", "Value"),
    "PajeStartLink": ("Time", "Type", "Container", "StartContainer", "Value", "Key"),
    "PajeEndLink": ("Time", "Type", "Container", "EndContainer", "Value", "Key"),
}
FIELD_TYPES = ("date", "double", "int", "hex", "string", "color")

(K_CTYPE, K_STYPE, K_ETYPE, K_VTYPE, K_LTYPE, K_VALUE, K_CREATE, K_DESTROY, K_SET, K_PUSH, K_POP, K_RESET,
 K_EVENT, K_VAR, K_START, K_END) = range(16)
KIND_OF = {
    "PajeDefineContainerType": K_CTYPE, "PajeDefineStateType": K_STYPE, "PajeDefineEventType": K_ETYPE,
    "PajeDefineVariableType": K_VTYPE, "PajeDefineLinkType": K_LTYPE, "PajeDefineEntityValue": K_VALUE,
    "PajeCreateContainer": K_CREATE, "PajeDestroyContainer": K_DESTROY, "PajeSetState": K_SET,
    "PajePushState": K_PUSH, "PajePopState": K_POP, "PajeResetState": K_RESET, "PajeNewEvent": K_EVENT,
    "PajeSetVariable": K_VAR, "PajeAddVariable": K_VAR, "PajeSubVariable": K_VAR,
    "PajeStartLink": K_START, "PajeEndLink": K_END,
}
TYPE_KIND_NAME = {K_CTYPE: "container", K_STYPE: "state", K_ETYPE: "event", K_VTYPE: "variable", K_LTYPE: "link"}

# StarPU's own worker/thread states (short and long names): any other value of the "Worker State"
# type is a task (codelet) name.
STARPU_STATES = {
    "Fi": "FetchingInput", "Po": "PushingOutput", "P": "Progressing", "U": "Unpartitioning",
    "B": "Overhead", "In": "Initializing", "D": "Deinitializing", "E": "Executing", "C": "Callback",
    "H": "Hypervisor", "Sc": "Scheduling", "I": "Idle", "Sl": "Sleeping", "Bu": "Building task",
    "Su": "Submitting task", "Th": "Throttling task submission", "MD": "Decoding task for MPI",
    "MPr": "Preparing task for MPI", "MPo": "Post-processing task for MPI", "W": "Waiting task",
    "WA": "Waiting all tasks", "No": "Nothing",
}
INTERNAL_STATES = frozenset(list(STARPU_STATES) + list(STARPU_STATES.values()))

_QUOTED = re.compile(r'"([^"]*)"|(\S+)')
_RANK_ALIAS = re.compile(r"^(\d+)_p$")
_RANK_NAME = re.compile(r"^(\d+)_program$")
_WORKER_ALIAS = re.compile(r"w(\d+)$")
_WORKER_NAME = re.compile(r"^(.*?)(\d+)(?:[_.](\d+))?$")


class PajeInvalid(Exception):
    """Unreadable or malformed input; str() is 'FILE:LINE: message' (or 'FILE: message')."""


class NoTrace(PajeInvalid):
    """The directory holds no trace, or a trace without any executed task: nothing to show."""


class EventDef:
    __slots__ = ("id", "name", "kind", "fields", "types", "line", "nf", "ti", "ci", "tyi", "vi", "ai", "ni",
                 "sci", "eci", "ki", "sti", "eti", "jobi", "checks")


class PType:
    __slots__ = ("alias", "name", "kind", "parent", "start", "end", "values", "role", "ctx", "line")

    def __init__(self, alias, name, kind, parent, line):
        self.alias, self.name, self.kind, self.parent, self.line = alias, name, kind, parent, line
        self.start = self.end = None
        self.values = {}     # entity value alias/name -> name
        self.role = 0        # 1: StarPU "Worker State", 2: scheduling context state "InCtxN"
        self.ctx = None


class Container:
    __slots__ = ("alias", "name", "ctype", "parent", "line", "rank", "prefix", "worker", "destroyed",
                 "last_t", "last_line", "open")

    def __init__(self, alias, name, ctype, parent, line):
        self.alias, self.name, self.ctype, self.parent, self.line = alias, name, ctype, parent, line
        self.rank = parent.rank if parent is not None else None
        self.prefix = parent.prefix if parent is not None else ""
        self.worker = None   # Worker for worker containers
        self.destroyed = 0
        self.last_t = float("-inf")
        self.last_line = 0
        self.open = None     # running task interval [start, end, name, ctx, jobid]


class Worker:
    """One StarPU worker of one rank: container alias R_wN, StarPU worker id N."""
    __slots__ = ("rank", "wid", "alias", "cname", "label", "execs", "detailed", "intervals", "line")

    def __init__(self, rank, wid, alias, cname, label, line):
        self.rank, self.wid, self.alias, self.cname, self.label, self.line = rank, wid, alias, cname, label, line
        self.execs = {}      # task name -> executions (plain PajeSetState)
        self.detailed = {}   # task name -> PajeSetState carrying a JobId
        self.intervals = []  # [start, end, name, ctx, jobid] when asked for

    def key(self):
        return (self.rank, self.wid)


def worker_label(cname, prefix):
    """'0_CPU1' -> 'CPU 1'; '0_CUDA0_2' -> 'CUDA 0.2' (device 0, stream worker 2)."""
    n = cname[len(prefix):] if prefix and cname.startswith(prefix) else cname
    m = _WORKER_NAME.match(n)
    if not m or not m.group(1):
        return n
    kind = m.group(1).rstrip("_ ")
    return "%s %s" % (kind, m.group(2)) + ("." + m.group(3) if m.group(3) is not None else "")


class PajeResult:
    def __init__(self, path):
        self.path = path
        self.lines = 0
        self.defs = {}
        self.types = {}
        self.containers = {}
        self.ncreated = 0
        self.ranks = {}            # rank -> program container
        self.workers = []          # Worker, in creation order
        self.errors = []           # (line, message)
        self.nerrors = 0
        self.warnings = {}         # kind -> [count, first line, message]
        self.ctx_execs = {}        # (rank, ctx, name) -> executions seen in the InCtxN state types
        self.jobs = {}             # jobid -> (rank, wid, start time, task name) from the JobId states
        self.job_dups = 0
        self.job_ctx = {}          # jobid -> scheduling context number
        self.links = {}            # (link type name, class) -> {"count", "bytes", "time", "intervals" per rank}
        self.unmatched_links = 0
        self.tmin = None
        self.tmax = None

    # --- results
    def executions(self, name=None):
        return sum(n for w in self.workers for t, n in w.execs.items() if name is None or t == name)

    def detailed_executions(self, name=None):
        return sum(n for w in self.workers for t, n in w.detailed.items() if name is None or t == name)

    def task_names(self):
        names = {}
        for w in self.workers:
            for t, n in w.execs.items():
                names[t] = names.get(t, 0) + n
        return names

    def worker_map(self):
        return {w.key(): w for w in self.workers}

    def warn(self, kind, line, msg):
        w = self.warnings.get(kind)
        if w is None:
            self.warnings[kind] = [1, line, msg]
        else:
            w[0] += 1


def _split_quoted(line):
    if line.count('"') % 2:
        return None
    out = []
    for m in _QUOTED.finditer(line):
        q, w = m.group(1), m.group(2)
        out.append(q if q is not None else w)
    return out


def _open_text(path):
    if path.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8", errors="surrogateescape")
    return open(path, "r", encoding="utf-8", errors="surrogateescape", buffering=1 << 20)


def _check_float(s):
    float(s)


def _check_int(s):
    int(s)


def _check_hex(s):
    int(s, 16)


def _check_color(s):
    parts = s.split()
    if len(parts) not in (3, 4):
        raise ValueError("not 3 numbers")
    for p in parts:
        float(p)


_CHECKERS = {"date": _check_float, "double": _check_float, "int": _check_int, "hex": _check_hex,
             "color": _check_color}


def _finish_def(res, d, line_no):
    """Validate an %EventDef block and compute the field positions the parser uses."""
    def fail(msg):
        raise PajeInvalid("%s:%d: %s" % (res.path, line_no, msg))

    if d.name not in KNOWN_EVENTS:
        fail("%%EventDef %s %s: unknown Paje event name" % (d.name, d.id))
    lower = [f.lower() for f in d.fields]
    if len(set(lower)) != len(lower):
        fail("%%EventDef %s %s: a field is defined twice" % (d.name, d.id))
    missing = [f for f in KNOWN_EVENTS[d.name] if f.lower() not in lower]
    if missing:
        fail("%%EventDef %s %s: required field(s) %s missing" % (d.name, d.id, ", ".join(missing)))
    if d.id in res.defs:
        fail("event id %s defined twice (first at line %d)" % (d.id, res.defs[d.id].line))
    pos = {f: i + 1 for i, f in enumerate(lower)}
    d.kind = KIND_OF[d.name]
    d.nf = len(d.fields) + 1
    g = pos.get
    d.ti, d.ci, d.tyi, d.vi, d.ai, d.ni = g("time", 0), g("container", 0), g("type", 0), g("value", 0), \
        g("alias", 0), g("name", 0)
    d.sci, d.eci, d.ki = g("startcontainer", 0), g("endcontainer", 0), g("key", 0)
    d.sti, d.eti = g("startcontainertype", 0), g("endcontainertype", 0)
    d.jobi = g("jobid", 0)
    if d.ti and d.types[d.ti - 1] not in ("date", "double"):
        fail("%%EventDef %s %s: field Time has type %s, not date" % (d.name, d.id, d.types[d.ti - 1]))
    d.checks = tuple((i + 1, _CHECKERS[t]) for i, t in enumerate(d.types)
                     if t in _CHECKERS and i + 1 != d.ti)
    res.defs[d.id] = d


def parse(path, want_jobs=True, want_intervals=False, want_links=True, max_errors=20, display=None):
    """Stream a Paje file once. Raises PajeInvalid for unreadable input or a broken header; other bad
    lines are recorded in result.errors (line, message) and skipped."""
    res = PajeResult(display or path)
    disp = res.path
    try:
        f = _open_text(path)
    except OSError as e:
        raise PajeInvalid("%s: cannot open: %s" % (disp, e.strerror or e))

    defs, types, conts = res.defs, res.types, res.containers
    root_type = PType("0", "0", K_CTYPE, None, 0)
    types["0"] = root_type
    root = Container("0", "0", root_type, None, 0)
    conts["0"] = root
    header_values = {}          # values defined for a type before the first container: StarPU's own
    cur = None                  # EventDef being read
    ws_internal = set(INTERNAL_STATES)
    wtype = None                # container type "Worker"
    ptype = None                # container type "Program"
    seen_container = False
    links_open = {}
    tmin, tmax = float("inf"), float("-inf")
    errors = res.errors
    lineno = 0
    last_line = ""
    nerr = 0

    def error(msg):
        nonlocal nerr
        nerr += 1
        if len(errors) < max_errors:
            errors.append((lineno, msg))

    try:
        for lineno, line in enumerate(f, 1):
            last_line = line
            if line[:1] == "%":
                # ---------------------------------------------------------------- header
                parts = line[1:].split()
                if not parts:
                    raise PajeInvalid("%s:%d: empty '%%' line" % (disp, lineno))
                if parts[0] == "EventDef":
                    if cur is not None:
                        raise PajeInvalid("%s:%d: %%EventDef inside the definition of %s %s (started line %d), "
                                          "missing %%EndEventDef" % (disp, lineno, cur.name, cur.id, cur.line))
                    if len(parts) != 3:
                        raise PajeInvalid("%s:%d: malformed %%EventDef line (want: %%EventDef NAME ID)"
                                          % (disp, lineno))
                    cur = EventDef()
                    cur.name, cur.id, cur.line, cur.fields, cur.types = parts[1], parts[2], lineno, [], []
                    if not cur.id.isdigit():
                        raise PajeInvalid("%s:%d: %%EventDef %s: event id %r is not a number"
                                          % (disp, lineno, cur.name, cur.id))
                elif parts[0] == "EndEventDef":
                    if cur is None:
                        raise PajeInvalid("%s:%d: %%EndEventDef without %%EventDef" % (disp, lineno))
                    _finish_def(res, cur, lineno)
                    cur = None
                else:
                    if cur is None:
                        raise PajeInvalid("%s:%d: field line outside an %%EventDef block" % (disp, lineno))
                    if len(parts) != 2 or parts[1] not in FIELD_TYPES:
                        raise PajeInvalid("%s:%d: malformed field line in %%EventDef %s %s (want: %% NAME TYPE, "
                                          "TYPE one of %s)" % (disp, lineno, cur.name, cur.id, "/".join(FIELD_TYPES)))
                    cur.fields.append(parts[0])
                    cur.types.append(parts[1])
                continue
            # -------------------------------------------------------------------- body
            if cur is not None:
                raise PajeInvalid("%s:%d: %%EventDef %s %s (line %d) is not closed by %%EndEventDef"
                                  % (disp, lineno, cur.name, cur.id, cur.line))
            if '"' in line:
                toks = _split_quoted(line)
                if toks is None:
                    error("unterminated quoted string")
                    continue
            else:
                toks = line.split()
            if not toks or toks[0][:1] == "#":
                continue
            d = defs.get(toks[0])
            if d is None:
                if not defs:
                    raise PajeInvalid("%s:%d: event line before any %%EventDef header (not a Paje file?)"
                                      % (disp, lineno))
                error("undefined event id %r (defined: %s)" % (toks[0], " ".join(sorted(defs, key=int))))
                continue
            if len(toks) != d.nf:
                hint = ""
                if len(toks) > d.nf:
                    hint = " (a string with spaces not in double quotes?)"
                elif lineno and not line.endswith("\n"):
                    hint = " (truncated last line?)"
                error("event %s (%s) has %d fields, %d expected: %s%s"
                      % (d.id, d.name, len(toks) - 1, d.nf - 1, " ".join(d.fields), hint))
                continue
            try:
                t = float(toks[d.ti]) if d.ti else None
                for i, chk in d.checks:
                    chk(toks[i])
            except ValueError:
                bad = [d.fields[i - 1] + "=" + repr(toks[i]) for i, chk in ((d.ti, _check_float),) + d.checks
                       if i and not _ok(chk, toks[i])]
                error("event %s (%s): bad value %s" % (d.id, d.name, ", ".join(bad)))
                continue
            if t is not None:
                if t < tmin:
                    tmin = t
                if t > tmax:
                    tmax = t
            kind = d.kind

            if kind in (K_SET, K_PUSH, K_POP, K_RESET):
                c = conts.get(toks[d.ci])
                if c is None:
                    error("container %r is not defined (no PajeCreateContainer before this line)" % toks[d.ci])
                    continue
                st = types.get(toks[d.tyi])
                if st is None or st.kind != K_STYPE:
                    error(_type_msg(toks[d.tyi], st, "state"))
                    continue
                if st.parent is not c.ctype:
                    res.warn("state-container", lineno, "state type %r used on container %r of type %r (expects %r)"
                             % (st.alias, c.alias, c.ctype.alias, st.parent.alias))
                w = c.worker
                if w is None:
                    continue
                # Only worker containers are checked: StarPU writes the states of a memory manager
                # from several threads, and those do step back by a few microseconds.
                if t < c.last_t:
                    res.warn("time", lineno, "time goes backwards on worker container %r: %.9f after %.9f "
                             "(line %d)" % (c.alias, t, c.last_t, c.last_line))
                c.last_t, c.last_line = t, lineno
                if not st.role:
                    continue
                v = toks[d.vi] if d.vi else None
                if st.role == 1:
                    if kind == K_SET or kind == K_PUSH:
                        if v in ws_internal:
                            if c.open is not None:
                                c.open[1] = t
                                c.open = None
                        elif d.jobi:
                            w.detailed[v] = w.detailed.get(v, 0) + 1
                            if want_jobs:
                                j = toks[d.jobi]
                                if j in res.jobs:
                                    res.job_dups += 1
                                res.jobs[j] = (w.rank, w.wid, t, v)
                            if c.open is not None and c.open[0] == t and c.open[2] == v:
                                c.open[4] = toks[d.jobi]
                        else:
                            w.execs[v] = w.execs.get(v, 0) + 1
                            if want_intervals:
                                if c.open is not None:
                                    c.open[1] = t
                                c.open = [t, None, v, None, None]
                                w.intervals.append(c.open)
                    elif c.open is not None:   # pop / reset closes the running task
                        c.open[1] = t
                        c.open = None
                elif kind == K_SET and v not in ws_internal and v is not None:   # InCtxN state
                    if d.jobi:
                        if want_jobs:
                            res.job_ctx[toks[d.jobi]] = st.ctx
                    else:
                        k = (w.rank, st.ctx, v)
                        res.ctx_execs[k] = res.ctx_execs.get(k, 0) + 1
                        if c.open is not None and c.open[0] == t:
                            c.open[3] = st.ctx
                continue

            if kind == K_VAR or kind == K_EVENT:
                c = conts.get(toks[d.ci])
                if c is None:
                    error("container %r is not defined (no PajeCreateContainer before this line)" % toks[d.ci])
                    continue
                want = K_VTYPE if kind == K_VAR else K_ETYPE
                ty = types.get(toks[d.tyi])
                if ty is None or ty.kind != want:
                    error(_type_msg(toks[d.tyi], ty, TYPE_KIND_NAME[want]))
                continue

            if kind == K_START or kind == K_END:
                c = conts.get(toks[d.ci])
                if c is None:
                    error("container %r is not defined (no PajeCreateContainer before this line)" % toks[d.ci])
                    continue
                lt = types.get(toks[d.tyi])
                if lt is None or lt.kind != K_LTYPE:
                    error(_type_msg(toks[d.tyi], lt, "link"))
                    continue
                ei = d.sci if kind == K_START else d.eci
                e = conts.get(toks[ei])
                if e is None:
                    error("link %s: %s container %r is not defined" % (lt.alias, "start" if kind == K_START else "end",
                                                                       toks[ei]))
                    continue
                if not want_links:
                    continue
                key = (lt.alias, toks[d.ki])
                other = links_open.pop(key, None)
                if other is None:
                    links_open[key] = (kind, t, e, toks[d.vi])
                    continue
                if other[0] == kind:
                    res.warn("link-dup", lineno, "link %s key %r %s twice" % (lt.alias, toks[d.ki],
                                                                          "started" if kind == K_START else "ended"))
                    links_open[key] = (kind, t, e, toks[d.vi])
                    continue
                if kind == K_END:
                    t0, t1, src, dst, val = other[1], t, other[2], e, other[3]
                else:
                    t0, t1, src, dst, val = t, other[1], e, other[2], toks[d.vi]
                _add_link(res, lt, c, src, dst, t0, t1, val)
                continue

            if kind == K_CREATE:
                alias = toks[d.ai] if d.ai else toks[d.ni]
                ct = types.get(toks[d.tyi])
                if ct is None or ct.kind != K_CTYPE or ct is root_type:
                    error(_type_msg(toks[d.tyi], ct, "container"))
                    continue
                parent = conts.get(toks[d.ci])
                if parent is None:
                    error("container %r: parent container %r is not defined" % (alias, toks[d.ci]))
                    continue
                if ct.parent is not parent.ctype:
                    res.warn("parent-type", lineno, "container %r of type %r created in %r of type %r (expects %r)"
                             % (alias, ct.alias, parent.alias, parent.ctype.alias, ct.parent.alias))
                old = conts.get(alias)
                if old is not None and old is not root and not old.destroyed and old.alias == alias:
                    res.warn("dup-container", lineno, "container %r created again (first at line %d)"
                             % (alias, old.line))
                if not seen_container:
                    seen_container = True
                    for k, vals in header_values.items():
                        if k.role == 1:
                            ws_internal.update(vals)
                c = Container(alias, toks[d.ni], ct, parent, lineno)
                if ct is ptype:
                    m = _RANK_ALIAS.match(alias) or _RANK_NAME.match(toks[d.ni])
                    c.rank = int(m.group(1)) if m else 0
                    c.prefix = "%d_" % c.rank if m else ""
                    if c.rank in res.ranks:
                        res.warn("dup-rank", lineno, "two program containers for rank %d" % c.rank)
                    res.ranks[c.rank] = c
                elif ct is wtype:
                    m = _WORKER_ALIAS.search(alias)
                    wid = int(m.group(1)) if m else len([w for w in res.workers if w.rank == c.rank])
                    rank = c.rank if c.rank is not None else 0
                    c.worker = Worker(rank, wid, alias, toks[d.ni], worker_label(toks[d.ni], c.prefix), lineno)
                    res.workers.append(c.worker)
                conts[alias] = c
                if toks[d.ni] != alias and toks[d.ni] not in conts:
                    conts[toks[d.ni]] = c
                res.ncreated += 1
                continue

            if kind == K_DESTROY:
                c = conts.get(toks[d.ni])
                if c is None:
                    error("PajeDestroyContainer of container %r, which is not defined" % toks[d.ni])
                    continue
                ty = types.get(toks[d.tyi])
                if ty is not c.ctype:
                    res.warn("destroy-type", lineno, "container %r destroyed with type %r, created with %r"
                             % (c.alias, toks[d.tyi], c.ctype.alias))
                c.destroyed = lineno
                continue

            # ------------------------------------------------------------ type definitions
            alias = toks[d.ai] if d.ai else toks[d.ni]
            name = toks[d.ni]
            parent = types.get(toks[d.tyi])
            if kind == K_VALUE:
                if parent is None or parent.kind not in (K_STYPE, K_ETYPE, K_LTYPE):
                    error("entity value %r: " % alias + _type_msg(toks[d.tyi], parent, "state, event or link"))
                    continue
                parent.values[alias] = name
                parent.values[name] = name
                if not seen_container:
                    header_values.setdefault(parent, set()).update((alias, name))
                continue
            if parent is None or parent.kind != K_CTYPE:
                error("%s type %r: parent " % (TYPE_KIND_NAME[kind], alias) + _type_msg(toks[d.tyi], parent, "container"))
                continue
            old = types.get(alias)
            if old is not None and old.alias == alias:
                res.warn("dup-type", lineno, "type %r defined again (first at line %d)" % (alias, old.line))
            ty = PType(alias, name, kind, parent, lineno)
            if kind == K_LTYPE:
                ty.start, ty.end = types.get(toks[d.sti]), types.get(toks[d.eti])
                if ty.start is None or ty.start.kind != K_CTYPE or ty.end is None or ty.end.kind != K_CTYPE:
                    error("link type %r: start/end container types %r/%r must be defined container types"
                          % (alias, toks[d.sti], toks[d.eti]))
                    continue
            types[alias] = ty
            if name not in types:
                types[name] = ty
            if kind == K_CTYPE:
                if name == "Worker" or (alias == "W" and wtype is None):
                    wtype = ty
                if name == "Program" or (alias == "P" and ptype is None):
                    ptype = ty
            elif kind == K_STYPE and wtype is not None and parent is wtype:
                if name == "Worker State" or alias == "WS":
                    ty.role = 1
                else:
                    m = re.match(r"^(?:In)?Ctx(\d+)$", name) or re.match(r"^Ctx(\d+)$", alias)
                    if m:
                        ty.role, ty.ctx = 2, int(m.group(1))
    except UnicodeError as e:
        raise PajeInvalid("%s:%d: cannot decode: %s" % (disp, lineno + 1, e))
    except OSError as e:
        raise PajeInvalid("%s:%d: read error: %s" % (disp, lineno + 1, e.strerror or e))
    finally:
        f.close()

    if cur is not None:
        raise PajeInvalid("%s:%d: %%EventDef %s %s is not closed by %%EndEventDef (end of file)"
                          % (disp, cur.line, cur.name, cur.id))
    if not defs:
        raise PajeInvalid("%s:%d: no %%EventDef header: not a Paje trace" % (disp, max(lineno, 1)))
    if last_line and not last_line.endswith("\n"):
        res.warn("no-newline", lineno, "the last line has no end of line (file truncated?)")
    for (lt, key), v in links_open.items():
        res.unmatched_links += 1
    if res.unmatched_links:
        res.warn("link-unmatched", lineno, "%d link(s) started or ended without the other end" % res.unmatched_links)
    res.lines = lineno
    res.nerrors = nerr
    res.tmin = tmin if tmin != float("inf") else None
    res.tmax = tmax if tmax != float("-inf") else None
    for c in conts.values():
        if c.open is not None and c.worker is not None:
            c.open[1] = c.last_t     # task still running at the end of the trace
            c.open = None
    return res


def _ok(chk, s):
    try:
        chk(s)
        return True
    except ValueError:
        return False


def _type_msg(tid, ty, want):
    if ty is None:
        return "type %r is not defined" % tid
    return "type %r is a %s type, not a %s type" % (tid, TYPE_KIND_NAME.get(ty.kind, "?"), want)


def _add_link(res, lt, c, src, dst, t0, t1, val):
    if src.ctype.name == "Worker" or dst.ctype.name == "Worker":
        cls = "steal"
    elif "MPI" in lt.name or "MPI" in lt.alias:
        cls = "mpi"
    else:
        cls = "data"
    k = (lt.name, cls)
    L = res.links.get(k)
    if L is None:
        L = res.links[k] = {"count": 0, "bytes": 0.0, "time": 0.0, "intervals": {}}
    L["count"] += 1
    try:
        L["bytes"] += float(val)
    except ValueError:
        pass
    L["time"] += t1 - t0
    rank = src.rank if src.rank is not None else (c.rank if c.rank is not None else 0)
    L["intervals"].setdefault(rank, []).append((t0, t1))
    if cls == "mpi" and dst.rank is not None and dst.rank != rank:
        L.setdefault("recv_intervals", {}).setdefault(dst.rank, []).append((t0, t1))
