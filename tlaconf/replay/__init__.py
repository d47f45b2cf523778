"""Replay traces against conformance modules: the engine, backends, results and the runner."""

from tlaconf.replay.backend import BACKENDS, CHECKERS, Backend, LoadedModule, get_backend
from tlaconf.replay.engine import Replayer, replay_trace
from tlaconf.replay.result import (
    VERDICTS,
    BlameNode,
    Change,
    Failure,
    TraceResult,
    Verdict,
    exit_code,
)
from tlaconf.replay.runner import collect_traces, run_traces

__all__ = [
    "BACKENDS",
    "CHECKERS",
    "VERDICTS",
    "Backend",
    "BlameNode",
    "Change",
    "Failure",
    "LoadedModule",
    "Replayer",
    "TraceResult",
    "Verdict",
    "collect_traces",
    "exit_code",
    "get_backend",
    "replay_trace",
    "run_traces",
]
