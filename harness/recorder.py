"""The harness's traces, recorded with tlaconf's public :class:`tlaconf.Recorder` as any
implementation records them: its defaults here are the profile revision the harness is
checked against and the seats of a game."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from tlaconf import Recorder as _Recorder

S = TypeVar("S")
REVISION = "2"
DEFAULT_CONSTANTS: Mapping[str, Any] = {"Seats4": {"SideA", "SideB"}}


class Recorder(_Recorder[S]):
    """:class:`tlaconf.Recorder` with the harness's revision and constants by default."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        module: str,
        refine: Callable[[S], Mapping[str, Any]],
        *,
        observe: Callable[[str | None, Mapping[str, Any], S], Mapping[str, Any]] | None = None,
        constants: Mapping[str, Any] | None = None,
        meta: Mapping[str, Any] | None = None,
        revision: str = REVISION,
    ) -> None:
        super().__init__(path, module, refine, observe=observe,
                         constants=DEFAULT_CONSTANTS if constants is None else constants,
                         meta=meta, revision=revision)
