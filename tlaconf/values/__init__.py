"""TLA+ values: the Python representation, canonical order, TLA+ printing and ITF codec."""

from tlaconf.values import order, shape
from tlaconf.values.core import (
                                 Fn,
                                 ModelValue,
                                 Value,
                                 canonical,
                                 kind,
                                 make_fn,
                                 record,
                                 sort_key,
                                 sort_key_mapped,
)
from tlaconf.values.itf import ITFDecodeError, decode, encode, from_python
from tlaconf.values.printing import to_tla

__all__ = [
    "Fn",
    "ITFDecodeError",
    "ModelValue",
    "Value",
    "canonical",
    "decode",
    "encode",
    "from_python",
    "kind",
    "make_fn",
    "order",
    "record",
    "shape",
    "sort_key",
    "sort_key_mapped",
    "to_tla",
]
