"""tlaconf convert IN OUT: a tlaconf trace to ITF JSON, or ITF JSON to a tlaconf trace.

The direction follows IN's content: a file whose first line is a
tlaconf-trace header is converted to ITF, anything else is read as ITF and
converted to a trace.  OUT must not name the same kind as IN (.jsonl is a
trace, .itf.json is ITF).  Writing ITF, values whose form is ambiguous take
the form of the variable's @type annotation in the trace's conformance module
(found as replay finds it), else the form first seen in the trace.  Reading
ITF, a namespaced name a::b stands for b unless --rename a::b=NEW says
otherwise.  See the modules tlaconf.trace.itf_read and itf_write.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tlaconf.cli import doc_description
from tlaconf.cli.inputs import existing_dir, existing_file, output_file, refuse_partial
from tlaconf.errors import ExitCode, UserError
from tlaconf.files import check_output, read_text
from tlaconf.spec.lookup import module_spec, resolve_spec_dir
from tlaconf.tla.annotations import variable_types
from tlaconf.tla.parser import parse_module
from tlaconf.trace.itf import is_trace_file, itf_to_trace, trace_to_itf
from tlaconf.trace.reader import open_trace


def register(p: argparse.ArgumentParser) -> None:
    p.description = doc_description(__doc__)
    p.add_argument("input", metavar="IN", type=existing_file,
                   help="a .trace.jsonl or .itf.json file")
    p.add_argument("output", metavar="OUT", type=output_file, help="the file to write")
    p.add_argument("--module", help="conformance module, for ITF without a tlaconf header")
    p.add_argument("--revision", help="profile revision, for ITF without a tlaconf header")
    p.add_argument("--rename", metavar="NAME=NEW", action="append", default=[],
                   help="reading ITF: take the file's name NAME (a variable, parameter or "
                        "action) as NEW; repeatable")  # fmt: skip
    p.add_argument("--spec", metavar="DIR", type=existing_dir,
                   help="writing ITF: the spec directory whose conformance module's @type "
                        "annotations choose value forms (default: ./spec, else the checkout's; "
                        "a module not found there gives no annotations)")  # fmt: skip
    p.set_defaults(run=run)


def _renames(pairs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        name, eq, new = pair.partition("=")
        if not (eq and name and new):
            raise UserError(f"--rename {pair}: expected NAME=NEW")
        if name in out:
            raise UserError(f"--rename {name}=...: given twice")
        out[name] = new
    return out


def _annotated_types(trace: Path, spec: str | None) -> dict[str, str]:
    """The variable types the trace's conformance module annotates (none when not found)."""
    with open_trace(trace) as t:
        module, revision = t.header.module, t.header.revision
    try:
        path = module_spec(resolve_spec_dir(spec), module, revision, {}).path
    except UserError:
        if spec is not None:
            raise
        return {}
    text = read_text(path, "module")
    return variable_types(text, parse_module(text, str(path)).variables())


def run(args: argparse.Namespace) -> ExitCode:
    src: Path = args.input
    dst: Path = args.output
    check_output(dst, "OUT")
    if src.stat().st_size == 0:  # neither kind: not "read as ITF"
        raise UserError("empty file: expected a tlaconf trace or ITF JSON", f"{src}:1")
    to_itf = is_trace_file(src)
    if to_itf:
        refuse_partial([src], "convert", "writes ITF, whose states give every variable: "
                       "ITF has no form for a state that logs some variables only")
    if to_itf and dst.name.endswith(".jsonl"):
        raise UserError(f"{src} is a tlaconf trace; OUT {dst} should be ITF (.itf.json)")
    if to_itf and (args.module or args.revision or args.rename):
        raise UserError("--module/--revision/--rename apply only to ITF input")
    if not to_itf and args.spec:
        raise UserError("--spec applies only to a trace converted to ITF")
    if not to_itf and dst.name.endswith(".json"):
        raise UserError(f"{src} is read as ITF; OUT {dst} should be a trace (.trace.jsonl)")
    try:
        dst.parent.mkdir(parents=True, exist_ok=True)  # as every output's missing folders
        if to_itf:
            steps = trace_to_itf(src, dst, _annotated_types(src, args.spec))
        else:
            steps = itf_to_trace(src, dst, args.module, args.revision, _renames(args.rename))
    except OSError as err:
        raise UserError(f"cannot write {dst}: {err.strerror}") from None
    print(f"{dst}: {'ITF' if to_itf else 'tlaconf-trace v1'}, {steps} steps")
    return ExitCode.OK
