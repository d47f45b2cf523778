"""The names tlaconf's ITF files share with Quint's model-based-testing (MBT) conventions."""

from __future__ import annotations

ACTION_TAKEN = "mbt::actionTaken"
"""State field: the action label of the step that led to the state (``"init"`` in state 0)."""
NONDET_PICKS = "mbt::nondetPicks"
"""State field: the step's params, each as a Quint ``Option`` (``{"tag": "Some", "value": v}``)."""
OUTCOME = "tlaconf::outcome"
"""State field: ``"accepted"`` or ``"rejected"`` (``"init"`` in state 0)."""
HEADER = "tlaconf::header"
"""``#meta`` field: the trace header, as in the trace."""
INIT = "init"
ITF_DESCRIPTION = "https://apalache-mc.org/docs/adr/015adr-trace.html"
RESERVED_PREFIXES = ("mbt::", "tlaconf::", "#")
"""State fields with these prefixes are not state variables."""
