"""A compact printed form of expressions, so that tests can state the expected tree in one line."""

from __future__ import annotations

from tlaconf.tla import ast
from tlaconf.tla.parser import parse_expression


def show(e: object) -> str:
    """``a + b * c`` -> ``+(a, *(b, c))``; junctions as ``AND[...]`` (``AND*`` when bulleted)."""
    match e:
        case ast.OpApp(name=name, args=args, module=module):
            prefix = "!".join(module) + "!" if module else ""
            return f"{prefix}{name}(" + ", ".join(show(a) for a in args) + ")"
        case ast.Name(name=name, module=module):
            return "!".join((*module, name))
        case ast.Num(value=v):
            return str(v)
        case ast.Str(value=v):
            return repr(v)
        case ast.Bool(value=v):
            return "TRUE" if v else "FALSE"
        case ast.Junction(op=op, items=items, bulleted=b):
            head = ("AND" if op == "/\\" else "OR") + ("*" if b else "")
            return head + "[" + ", ".join(show(x) for x in items) + "]"
        case ast.Quant(kind=k, bounds=bounds, body=body):
            return f"\\{k} {show_bounds(bounds)} : {show(body)}"
        case ast.Choose(bound=b, body=body):
            return f"CHOOSE {show_bounds((b,))} : {show(body)}"
        case ast.If(cond=c, then=t, else_=el):
            return f"IF({show(c)}, {show(t)}, {show(el)})"
        case ast.Case(arms=arms, other=other):
            parts = [f"{show(g)} -> {show(v)}" for g, v in arms]
            if other is not None:
                parts.append(f"OTHER -> {show(other)}")
            return "CASE(" + "; ".join(parts) + ")"
        case ast.Prime(expr=x):
            return f"{show(x)}'"
        case ast.FnApp(fn=f, args=args):
            return f"{show(f)}[" + ", ".join(show(a) for a in args) + "]"
        case ast.Dot(expr=x, field_name=n):
            return f"{show(x)}.{n}"
        case ast.Tuple(elems=elems):
            return "<<" + ", ".join(show(x) for x in elems) + ">>"
        case ast.SetEnum(elems=elems):
            return "{" + ", ".join(show(x) for x in elems) + "}"
        case ast.SetFilter(bound=b, pred=p):
            return "{" + show_bounds((b,)) + " : " + show(p) + "}"
        case ast.SetMap(expr=x, bounds=bounds):
            return "{" + show(x) + " : " + show_bounds(bounds) + "}"
        case ast.FnCons(bounds=bounds, body=body):
            return "[" + show_bounds(bounds) + " |-> " + show(body) + "]"
        case ast.FnSet(domain=d, range=r):
            return f"[{show(d)} -> {show(r)}]"
        case ast.Record(fields=fields):
            return "[" + ", ".join(f"{k} |-> {show(v)}" for k, v in fields) + "]"
        case ast.RecordSet(fields=fields):
            return "[" + ", ".join(f"{k} : {show(v)}" for k, v in fields) + "]"
        case ast.Except(fn=f, updates=updates):
            ups = []
            for steps, v in updates:
                path = "".join(
                    f".{s.name}"
                    if isinstance(s, ast.ExceptField)
                    else "[" + ", ".join(show(a) for a in s.args) + "]"
                    for s in steps
                )
                ups.append(f"!{path} = {show(v)}")
            return f"[{show(f)} EXCEPT " + ", ".join(ups) + "]"
        case ast.At():
            return "@"
        case ast.Let(defs=defs, body=body):
            names = ", ".join(getattr(d, "name", "?") for d in defs)
            return f"LET {names} IN {show(body)}"
        case ast.Lambda(params=ps, body=body):
            return f"LAMBDA {', '.join(ps)} : {show(body)}"
        case ast.Unchanged(expr=x):
            return f"UNCHANGED {show(x)}"
        case ast.Enabled(expr=x):
            return f"ENABLED {show(x)}"
        case ast.ActionBox(action=a, sub=s, angle=angle):
            return f"<<{show(a)}>>_{show(s)}" if angle else f"[{show(a)}]_{show(s)}"
        case ast.Fairness(kind=k, sub=s, action=a):
            return f"{k}_{show(s)}({show(a)})"
        case ast.TemporalQuant(kind=k, names=names, body=body):
            return f"\\{k} {', '.join(names)} : {show(body)}"
        case ast.Label(name=n, params=ps, expr=x):
            return f"{n}({', '.join(ps)}) :: {show(x)}" if ps else f"{n} :: {show(x)}"
    raise AssertionError(f"no printed form for {e!r}")


def show_bounds(bounds: tuple[ast.Bound, ...]) -> str:
    parts = []
    for b in bounds:
        names = ", ".join(b.names)
        if b.tuple_pattern:
            names = f"<<{names}>>"
        parts.append(names if b.domain is None else f"{names} \\in {show(b.domain)}")
    return ", ".join(parts)


def tree(text: str) -> str:
    """Parse an expression and print its tree."""
    return show(parse_expression(text))
