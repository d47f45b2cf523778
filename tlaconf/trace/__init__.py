"""The ``tlaconf-trace`` v1 format: writer, reader, models and ITF conversion."""

from tlaconf.trace.models import StateLine, StepLine, TraceHeader
from tlaconf.trace.reader import Step, TraceFormatError, TraceReader, open_trace
from tlaconf.trace.writer import TraceWriter

__all__ = [
    "StateLine",
    "Step",
    "StepLine",
    "TraceFormatError",
    "TraceHeader",
    "TraceReader",
    "TraceWriter",
    "open_trace",
]
