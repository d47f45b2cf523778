"""A state's identity: a 64-bit fingerprint in which values are equal exactly when TLC
finds them equal.

* kinds apart: ``TRUE`` is not ``1`` (Python's ``True == 1`` plays no part), a string is
  not a model value, ``{1}`` is not ``{TRUE}``;
* a function is one kind whatever its representation: a sequence ``<<a, b>>`` (a
  ``tuple``) is the function ``[i \\in 1..2 |-> ...]``, a record is the function on its
  field names (an :class:`~tlaconf.values.Fn`), so equal functions have one fingerprint
  however they were built;
* the same in every run and every process (no salted ``hash``): strings and model values
  are hashed with BLAKE2b, integers and structure with the SplitMix64 finalizer; sets and
  functions combine their elements' fingerprints independently of order.

Values shared between states (what a step leaves unchanged) are fingerprinted once: the
fingerprints of containers are remembered by object identity (the object kept alive with
its entry, so an identity is never reused while remembered).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from tlaconf.values import Fn, ModelValue, to_tla

_M = (1 << 64) - 1
_C1 = 0xBF58476D1CE4E5B9
_C2 = 0x94D049BB133111EB
_GOLD = 0x9E3779B97F4A7C15
_TRUE, _FALSE = 0x2545F4914F6CDD1D, 0x5851F42D4C957F2D
_SET, _FN, _SEQ, _STATE = (0x6A09E667F3BCC909, 0xBB67AE8584CAA73B, 0x3C6EF372FE94F82B,
                           0xA54FF53A5F1D36F1)
_P = 0xD6E8FEB86659FD93
"""An odd multiplier: a sequence's elements are folded in order."""
_LIMIT = 1 << 18
"""Remembered fingerprints of containers (and strings) before the memory is emptied."""

_ints: dict[int, int] = {}
_strs: dict[str, int] = {}
_models: dict[str, int] = {}
_boxes: dict[int, tuple[Any, int]] = {}


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * _C1) & _M
    z = ((z ^ (z >> 27)) * _C2) & _M
    return z ^ (z >> 31)


def _bytes(tag: bytes, data: bytes) -> int:
    return int.from_bytes(hashlib.blake2b(tag + data, digest_size=8).digest(), "little")


def _int(v: int) -> int:
    fp = _ints.get(v)
    if fp is None:
        if -(1 << 62) <= v < 1 << 62:
            fp = _mix((v + _GOLD) & _M)
        else:
            fp = _bytes(b"i", v.to_bytes((v.bit_length() + 8) // 8, "little", signed=True))
        if len(_ints) > _LIMIT:
            _ints.clear()
        _ints[v] = fp
    return fp


def _str(v: str) -> int:
    if len(_strs) > _LIMIT:
        _strs.clear()
    fp = _strs[v] = _bytes(b"s", v.encode("utf-8", "surrogatepass"))
    return fp


def _set(total: int, n: int) -> int:
    """A set: the sum of its elements' fingerprints (order plays no part), and its size."""
    return _mix((total + n * _GOLD + _SET) & _M)


def _pair(k: int, x: int) -> int:
    """One pair of a function (key and value bound together)."""
    z = (k * _C1 + x) & _M
    z = ((z ^ (z >> 30)) * _C1) & _M
    z = ((z ^ (z >> 27)) * _C2) & _M
    return z ^ (z >> 31)


def _fn(total: int, n: int) -> int:
    """A function not on ``1..n``: the sum of its pairs, and its size."""
    return _mix((total + n * _GOLD + _FN) & _M)


def _on_1_n(d: dict[Any, Any]) -> bool:
    """Whether the function ``d`` is a sequence (its domain ``1..n``)."""
    n = len(d)
    return n == 0 or (type(next(iter(d))) is int and all(i in d for i in range(1, n + 1)))


def _model(name: str) -> int:
    fp = _models[name] = _bytes(b"m", name.encode("utf-8", "surrogatepass"))
    return fp


def fingerprint(v: Any) -> int:
    """The 64-bit fingerprint of the TLA+ value ``v``."""
    t = type(v)
    if t is str:
        fp = _strs.get(v)
        return fp if fp is not None else _str(v)
    if t is int:
        fp = _ints.get(v)
        return fp if fp is not None else _int(v)
    if t is bool:
        return _TRUE if v else _FALSE
    if t is ModelValue:
        fp = _models.get(v.name)
        return fp if fp is not None else _model(v.name)
    box = _boxes.get(id(v))
    if box is not None and box[0] is v:
        return box[1]
    if t is tuple:
        fp = _function_on_1_n(v)
    elif t is frozenset:
        h = 0
        for x in v:  # scalars inline: the common case, and the hot one
            tx = type(x)
            if tx is str:
                f = _strs.get(x)
                h += f if f is not None else _str(x)
            elif tx is int:
                f = _ints.get(x)
                h += f if f is not None else _int(x)
            elif tx is ModelValue:
                f = _models.get(x.name)
                h += f if f is not None else _model(x.name)
            else:
                h += fingerprint(x)
        fp = _set(h, len(v))
    elif t is Fn:
        if _on_1_n(v.keys()):
            fp = _function_on_1_n(tuple(v[i] for i in range(1, len(v) + 1)))
        else:
            fp = _fn(sum(_pair(fingerprint(k), fingerprint(x)) for k, x in v.items()), len(v))
    else:  # a value the evaluator keeps unenumerated (an infinite set): as TLA+ prints it
        fp = _bytes(b"v", to_tla(v).encode("utf-8", "surrogatepass"))
    if len(_boxes) > _LIMIT:
        _boxes.clear()
    _boxes[id(v)] = (v, fp)
    return fp


def _function_on_1_n(v: tuple[Any, ...]) -> int:
    """A sequence (the function on ``1..n``): its elements' fingerprints folded in order
    (scalars and remembered values inline)."""
    h = _SEQ
    for x in v:
        tx = type(x)
        if tx is str:
            f = _strs.get(x)
            if f is None:
                f = _str(x)
        elif tx is int:
            f = _ints.get(x)
            if f is None:
                f = _int(x)
        elif tx is ModelValue:
            f = _models.get(x.name)
            if f is None:
                f = _model(x.name)
        else:
            box = _boxes.get(id(x))
            f = box[1] if box is not None and box[0] is x else fingerprint(x)
        h = ((h ^ f) * _P) & _M
    return _mix((h + len(v)) & _M)


def state_fingerprint(values: Sequence[Any]) -> int:
    """The fingerprint of a state given as its variables' values (in declaration order)."""
    h = _STATE
    boxes = _boxes
    for x in values:  # what a step left unchanged is remembered: looked up inline
        box = boxes.get(id(x))
        f = box[1] if box is not None and box[0] is x else fingerprint(x)
        h = ((h ^ f) * _P) & _M
    return _mix(h)


def fingerprint_of(state: Mapping[str, Any], variables: Sequence[str]) -> int:
    """The fingerprint of ``state`` (its ``variables``' values, no ``VIEW``)."""
    return state_fingerprint([state[v] for v in variables])


def forget() -> None:
    """Empty the remembered fingerprints (a benchmark measures them cold)."""
    for memory in (_ints, _strs, _models, _boxes):
        memory.clear()


def collision_probability(distinct: int, generated: int) -> float:
    """TLC's optimistic estimate of the probability that two of ``distinct`` states met
    among ``generated`` share a 64-bit fingerprint (``n * (m - n) / 2^64``), as TLC prints
    it: "calculated (optimistic)"."""
    return distinct * max(generated - distinct, 0) / 2.0**64


__all__ = ["collision_probability", "fingerprint", "fingerprint_of", "forget",
           "state_fingerprint"]
