"""The syntax of a Dask scheduler's address (``--cluster``), checked without importing Dask."""

from __future__ import annotations

import re

from tlaconf.errors import UserError

DEFAULT_PORT = 8786
"""The port ``dask scheduler`` listens on unless told otherwise."""

_ADDRESS = re.compile(
    r"(?:(?P<scheme>[a-z]+)://)?"
    r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)"
    r":(?P<port>[0-9]{1,5})\Z"
)
SCHEMES = ("tcp", "tls")


def check_address(text: str) -> str:
    """``text`` as Dask expects it (``tcp://`` added when no scheme is given); UserError
    saying what was expected unless it is ``[tcp://|tls://]HOST:PORT``."""
    m = _ADDRESS.match(text.strip())
    example = ("tcp://HOST:PORT, the address `dask scheduler` prints "
               f"(e.g. tcp://10.0.0.5:{DEFAULT_PORT})")
    if m is None:
        raise UserError(f"{text!r} is not a Dask scheduler's address: expected {example}")
    scheme = m["scheme"] or "tcp"
    if scheme not in SCHEMES:
        raise UserError(f"{text!r}: a Dask scheduler's address starts with "
                        f"{' or '.join(s + '://' for s in SCHEMES)}, not {scheme}://; "
                        f"expected {example}")
    if not 0 < int(m["port"]) < 65536:
        raise UserError(f"{text!r}: port {m['port']} is not in 1..65535; expected {example}")
    return f"{scheme}://{m['host']}:{int(m['port'])}"
