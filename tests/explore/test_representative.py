"""The SYMMETRY representative: keys of permuted values computed without building them
(``sort_key_mapped``) are the keys of the permuted values, and the representative is the
least permutation in TLC's order, as a plain search over every permutation finds it."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tlaconf.explore.model import Representative, permute
from tlaconf.values import Fn, ModelValue, make_fn, sort_key, sort_key_mapped

PROCS = tuple(ModelValue(n) for n in ("p1", "p2", "p3"))
PERMS = tuple(Fn(dict(zip(PROCS, image, strict=True)))
              for image in itertools.permutations(PROCS))

scalars = st.one_of(st.sampled_from(PROCS), st.integers(-3, 3), st.booleans(),
                    st.sampled_from(("a", "b")))
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3).map(tuple),
        st.frozensets(st.sampled_from(PROCS), max_size=3),
        st.frozensets(st.tuples(st.sampled_from(PROCS), st.sampled_from(PROCS)), max_size=4),
        st.dictionaries(st.sampled_from(PROCS), inner, max_size=3).map(make_fn)),
    max_leaves=8)


def _mapped(perm: Fn) -> dict[ModelValue, Any]:
    return {m: sort_key(x) for m, x in perm.items()}


@settings(max_examples=300, deadline=None)
@given(values, st.sampled_from(PERMS))
def test_mapped_key_is_the_key_of_the_permuted_value(v: Any, perm: Fn) -> None:
    assert sort_key_mapped(v, _mapped(perm), {}) == sort_key(permute(v, perm))


@settings(max_examples=200, deadline=None)
@given(st.lists(values, min_size=1, max_size=3).map(tuple))
def test_representative_is_the_least_permutation(state: tuple[Any, ...]) -> None:
    plain = min((tuple(permute(v, p) for v in state) for p in PERMS),
                key=lambda vs: [sort_key(v) for v in vs])
    got = Representative(PERMS).least(state)
    assert [sort_key(v) for v in got] == [sort_key(v) for v in plain]


def test_a_wrong_renaming_is_told_apart() -> None:
    """The check can fail: renaming p1 to p2 is not the identity's key."""
    v = frozenset({(PROCS[0], PROCS[1])})
    swap = {PROCS[0]: sort_key(PROCS[1]), PROCS[1]: sort_key(PROCS[0])}
    assert sort_key_mapped(v, swap, {}) != sort_key(v)
    assert sort_key_mapped(v, swap, {}) == sort_key(frozenset({(PROCS[1], PROCS[0])}))
