"""``tlaconf explore MODULE.tla [-c CFG] [--depth K] [-w N | --dfs | --walks N --seed S]``.

Explores the state space of ``INIT``/``NEXT`` or ``SPECIFICATION`` under the ``.cfg``
(default: ``MODULE.cfg`` beside the module; modules it EXTENDS beside it, then on the
library path, ``--library``) with the evaluator's successor semantics,
as TLC's model checker does: breadth-first (every reachable state, or ``--depth K``
levels; ``-w N`` on N worker processes, ``--cluster tcp://HOST:PORT`` on the workers of
a Dask cluster), ``--dfs`` depth-first (paths of up to
``--depth K`` states), or ``--walks N`` seeded random walks of ``--depth K`` states.  It
prints the distinct and total states, the depth, the states per second and TLC's
estimate of a fingerprint collision; ``--json``
prints ``{"result", "distinct_states", "total_states", "depth", "seconds",
"states_per_second", "complete", "unchecked", "violation", "fingerprint_collision"}``.
An invariant violation or a deadlock is written as a trace (``--trace PATH``, default
``MODULE.violation.jsonl`` in the current directory) that
``tlaconf replay PATH --spec FOLDER-OF-MODULE`` checks with the same blame.
``PROPERTY`` lines are checked as TLC checks them (safety on every step, liveness with
the specification's fairness on the state graph); a liveness violation is a lasso,
printed with the state its cycle goes back to and also written as ITF with ``loop``
(``PATH`` with ``.itf.json`` for ``.jsonl``).

Exit codes: 0 no violation, 1 an invariant or property violated or a deadlock, 2 bad input or a
construct the explorer does not check (named with file:line; never a count for it).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from tlaconf.cli import doc_description
from tlaconf.cli.inputs import existing_file, output_file, positive_int
from tlaconf.errors import UserError
from tlaconf.files import check_output
from tlaconf.tla.library import library_path
from tlaconf.values import to_tla


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer seed, got {text!r}") from None


def register(p: argparse.ArgumentParser) -> None:
    p.description = doc_description(__doc__)
    p.add_argument("module", metavar="MODULE.tla", type=existing_file,
                   help="the module to explore")
    p.add_argument("-c", "--config", metavar="CFG", type=existing_file,
                   help="the model configuration (default: MODULE.cfg beside the module)")
    p.add_argument("--depth", type=positive_int, metavar="K",
                   help="explore K levels (breadth-first), or walk K states (--walks)")
    p.add_argument("--dfs", action="store_true",
                   help="depth-first instead of breadth-first (a violation's path is then "
                   "not the shortest)")
    p.add_argument("-w", "--workers", type=positive_int, default=1, metavar="N",
                   help="breadth-first search on N worker processes (default 1; the same "
                   "counts)")
    p.add_argument("--cluster", metavar="tcp://HOST:PORT",
                   help="breadth-first search on the workers of the Dask cluster whose "
                   "scheduler is there (the same counts as -w)")
    p.add_argument("--walks", type=positive_int, metavar="N",
                   help="N seeded random walks instead of a breadth-first search")
    p.add_argument("--seed", type=_seed, default=0, metavar="S",
                   help="the random walks' seed (default 0)")
    p.add_argument("--trace", metavar="PATH", type=output_file,
                   help="where a violation's trace is written (default "
                   "MODULE.violation.jsonl here)")
    p.add_argument("--skip-properties", action="store_true",
                   help="explore a model whose .cfg has PROPERTY lines without checking them "
                   "(reported as unchecked); without it such a model is refused")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tlaconf.explore import bfs, dfs, load_model, parallel_bfs, walks
    from tlaconf.explore.trace_out import write_violation

    if args.walks is not None and args.depth is None:
        raise UserError("--walks N needs --depth K (the length of each walk)")
    if args.walks is None and args.seed != 0:
        raise UserError("--seed applies to random walks: give --walks N --depth K")
    if args.walks is not None and args.dfs:
        raise UserError("give either --dfs or --walks N, not both")
    if (args.workers > 1 or args.cluster) and (args.walks is not None or args.dfs):
        raise UserError("-w N and --cluster apply to the breadth-first search (not --dfs or "
                        "--walks)")
    if args.workers > 1 and args.cluster:
        raise UserError("give either -w N or --cluster, not both")
    module: Path = args.module
    trace: Path = args.trace or Path(f"{module.stem}.violation.jsonl")
    if args.trace is None:
        check_output(trace, "--trace")
    model = load_model(module, args.config, library_path(),
                       check_properties=not args.skip_properties)
    with _Progress(enabled=not args.json and sys.stderr.isatty()) as progress:
        if args.walks is not None:
            res = walks(model, args.walks, args.depth, args.seed, progress.update)
        elif args.cluster:
            from tlaconf.explore.cluster import cluster_bfs

            res = cluster_bfs(model, library_path(), args.cluster, args.depth,
                              progress.update)
        elif args.workers > 1:
            res = parallel_bfs(model, args.workers, args.depth, progress.update)
        else:
            res = (dfs if args.dfs else bfs)(model, args.depth, progress.update)
    written = None
    if res.violation is not None:
        written = write_violation(model, res.violation, trace)
    if args.json:
        print(json.dumps(_json(res, written, (*model.unchecked,
                                              *res.extra.get("unchecked", ())))))
    else:
        _text(model, res, written, module, args)
    return 0 if res.violation is None else 1


def _json(res: Any, trace: Path | None, unchecked: tuple[str, ...]) -> dict[str, Any]:
    violation = None
    if res.violation is not None:
        v = res.violation
        violation = {"invariant": v.invariant, "trace": str(trace), "length": len(v.path)}
        if v.kind == "property":
            violation.update(kind="property", loop=v.loop)
    return {"result": res.result, "distinct_states": res.distinct_states,
            "total_states": res.total_states, "depth": res.depth,
            "seconds": round(res.seconds, 3), "states_per_second": round(res.states_per_second),
            "complete": res.complete, "unchecked": list(unchecked), "violation": violation,
            "fingerprint_collision": res.collision_probability()}


def _text(model: Any, res: Any, trace: Path | None, module: Path,
          args: argparse.Namespace) -> None:
    out = sys.stdout.write
    mode = (f"{args.walks} random walks of up to {args.depth} states (seed {args.seed})"
            if args.walks else ("depth-first" if args.dfs else "breadth-first") + " search" + (
                f" to depth {args.depth}" if args.depth else ""))
    out(f"{module} ({model.cfg.path}): {mode}\n")
    if res.violation is not None:
        v = res.violation
        what = f"invariant {v.invariant} is violated" if v.invariant else "deadlock reached"
        if v.kind == "property":
            what = f"property {v.invariant} is violated"
        shape = (f"by a behaviour of {len(v.path)} state(s) that loops forever"
                 if v.loop is not None else f"after {len(v.path) - 1} step(s)")
        out(f"{what} {shape}:\n")
        for i, step in enumerate(v.path):
            head = "initial state" if step.label is None else str(step.label)
            out(f"  {i}: {head}\n")
            for name in model.variables:
                out(f"       {name} = {to_tla(step.state[name])}\n")
        if v.loop is not None:
            out(f"  stuttering (state {len(v.path) - 1} forever)\n"
                if v.loop == len(v.path) - 1 else f"  back to state {v.loop}\n")
        if v.kind == "property":
            out(v.detail + "\n")
        elif v.invariant:
            out(model.explain_invariant(v.invariant, v.path[-1].state).render(1) + "\n")
        out(f"trace written to {trace} (tlaconf replay {trace} --spec "
            f"{module.parent or '.'})\n")
    out(f"result: {res.result}{'' if res.complete else ' (search not complete)'}\n")
    out(f"distinct states: {res.distinct_states:,}\n")
    out(f"total states: {res.total_states:,}\n")
    out(f"depth: {res.depth}\n")
    unchecked = (*model.unchecked, *res.extra.get("unchecked", ()))
    if unchecked:
        out(f"not checked: {', '.join(unchecked)}\n")
    out(f"time: {res.seconds:.2f} s ({res.states_per_second:,.0f} states/s)\n")
    out("the probability of a fingerprint collision, as TLC estimates it: calculated "
        f"(optimistic): val = {res.collision_probability():.1E}\n")


class _Progress:
    """A rich progress display on stderr while the search runs (terminals only)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self._progress: Any = None
        self._task: Any = None

    def __enter__(self) -> _Progress:
        if self.enabled:
            from rich.console import Console
            from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

            self._progress = Progress(SpinnerColumn(), TextColumn("{task.description}"),
                                      TimeElapsedColumn(), console=Console(stderr=True),
                                      transient=True)
            self._progress.start()
            self._task = self._progress.add_task("exploring", total=None)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()

    def update(self, res: Any, queued: int) -> None:
        if self._progress is not None:
            self._progress.update(self._task, description=(
                f"{res.distinct_states:,} distinct, {res.total_states:,} total, depth "
                f"{res.depth}, {queued:,} queued, {res.states_per_second:,.0f} states/s"))


