"""The ``apalache`` checker: Apalache's JSON-RPC explorer server decides whole traces.

Split by job: :mod:`~tlaconf.replay.apalache.types` (Apalache types of values,
typed literals, annotations), :mod:`~tlaconf.replay.apalache.bundle` (the
modules sent, made typable), :mod:`~tlaconf.replay.apalache.root` (the trace as
a root module), :mod:`~tlaconf.replay.apalache.server` (the server process and
the JSON-RPC client), :mod:`~tlaconf.replay.apalache.checker` (the session).
"""
