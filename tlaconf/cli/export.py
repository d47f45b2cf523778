"""tlaconf export TRACE -o MODULE.tla: a trace as a TLA+ module (+ .cfg) for TLC.

A full trace: the module EXTENDS the trace's conformance module, holds the trace as
data and defines TraceInit/TraceNext so that TLC checking MODULE.cfg reproduces
replay's verdict (see the module tlaconf.trace.export).  A partial trace (header
"partial": true): the module is a trace-validation spec whose log position is a
variable, so that TLC's breadth-first search keeps every spec state consistent with
the log so far, as tlaconf does; TLC finds its invariant TraceUnmatched violated exactly
when the log conforms (see tlaconf.replay.tlc.partial_spec).  A trace with no steps, an
unknown action label or a state with other variables than the module's is refused
(exit 2) and nothing is written.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tlaconf.cli import doc_description
from tlaconf.cli.inputs import existing_dir, existing_file, output_file
from tlaconf.errors import ExitCode, UserError
from tlaconf.files import check_output, writing
from tlaconf.replay.embedded import EmbeddedBackend
from tlaconf.spec.lookup import module_spec, resolve_spec_dir
from tlaconf.trace.export import ModuleFacts, check_names, export_trace, tlc_command
from tlaconf.trace.partial import is_partial
from tlaconf.trace.reader import open_trace


def register(p: argparse.ArgumentParser) -> None:
    p.description = doc_description(__doc__)
    p.add_argument("trace", metavar="TRACE", type=existing_file, help="a .trace.jsonl file")
    p.add_argument("-o", "--output", metavar="MODULE.tla", type=output_file, required=True,
                   help="the module to write (MODULE.cfg is written beside it)")
    p.add_argument("--spec", metavar="DIR", type=existing_dir,
                   help="the spec directory (default: ./spec)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> ExitCode:
    if is_partial(args.trace):
        cfg, steps = export_partial(args.trace, args.output, args.spec)
        print(f"{args.output}: module {args.output.stem} (a partial trace, {steps} steps), "
              f"{cfg}")
        return ExitCode.OK
    with open_trace(args.trace) as t:
        header = t.header
    try:
        spec = module_spec(
            resolve_spec_dir(args.spec), header.module, header.revision, header.constants
        )
        mod = EmbeddedBackend().load(spec)
    except UserError as err:  # as replay says it: the header (line 1) names the module
        raise UserError(f"cannot load module {header.module!r}: {err}",
                        f"{args.trace}:1") from None
    facts = ModuleFacts(frozenset(mod.variables), frozenset(mod.actions), mod.constants,
                        mod.has_next)
    try:
        cfg, steps = export_trace(args.trace, args.output, spec, header.revision, facts)
    except OSError as err:
        raise UserError(f"cannot write {args.output}: {err.strerror}") from None
    print(f"{args.output}: module {args.output.stem} ({steps} steps), {cfg}")
    return ExitCode.OK


def export_partial(trace: Path, out: Path, spec_dir: Path | None,
                   revision: str | None = None) -> tuple[Path, int]:
    """Write the partial trace ``trace`` as the TLC trace spec ``out`` and its ``.cfg``
    (both, or neither); the ``.cfg`` and the number of steps."""
    from tlaconf.replay.tlc.partial_spec import (
        PartialFacts,
        write_partial_cfg,
        write_partial_module,
    )
    from tlaconf.trace.partial import read_partial
    from tlaconf.validate.partial import PartialReplay

    t = read_partial(trace)
    try:
        r = PartialReplay(t.header, t.path, spec_dir, revision)
    except UserError as err:  # as replay says it: the header (line 1) names the module
        raise UserError(f"cannot load module {t.header.module!r}: {err}", f"{trace}:1") from None
    r.check_names(t.initial, 2)
    for s in t.steps:
        r.check_names(s.state, s.line)
        if s.action is not None and not r.defined(s.action, 1):
            raise UserError(f"unknown action {s.action!r} (module {r.ctx.name} has no "
                            f"action {s.action}(p))", f"{trace}:{s.line}")
        if s.action is None and not r.defined("Next", 0):
            raise UserError(f"the step has no action label, so it is checked against Next, "
                            f"but module {r.ctx.name} defines no Next", f"{trace}:{s.line}")
    if not t.steps:
        raise UserError("the trace has no steps: TLC would pass the exported module having "
                        "checked nothing but the initial state", f"{trace}:1")
    name = check_names(out, r.ms)
    cfg = out.with_suffix(".cfg")
    check_output(out, "-o")
    check_output(cfg, "-o (its .cfg)")
    facts = PartialFacts(r.variables, frozenset(r.ctx.constants), r.silent, r.bound, r.observe)
    command = " ".join(tlc_command(name, r.ms))
    comment = (f"(* Exported by tlaconf from the partial trace {trace.name}: conformance "
               f"module {r.ms.name}.\n   Check it with TLC: {command}\n"
               "   Invariant TraceUnmatched violated: the log conforms (TLC prints a "
               "behaviour matching it).\n   No error: no behaviour matches the whole log. "
               "*)\n")
    try:
        with writing(out, "module") as f, writing(cfg, "config") as g:
            write_partial_module(f, name, r.ms, facts, t.initial, t.steps, comment)
            write_partial_cfg(g, name, r.ms, facts)
    except OSError as err:
        raise UserError(f"cannot write {out}: {err.strerror}") from None
    return cfg, len(t.steps)
