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

from tlaconf.cli import doc_description
from tlaconf.cli.inputs import existing_dir, existing_file, output_file
from tlaconf.errors import ExitCode, UserError
from tlaconf.replay.embedded import EmbeddedBackend
from tlaconf.spec.lookup import module_spec, resolve_spec_dir
from tlaconf.trace.export import ModuleFacts, export_trace
from tlaconf.trace.partial import is_partial
from tlaconf.trace.reader import open_trace
from tlaconf.validate.partial_tlc import export_partial


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
