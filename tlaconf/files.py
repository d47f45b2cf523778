"""Reading and writing the files tlaconf is given, safely.

:func:`read_text` refuses what is not a regular file (a named pipe or a device
would block or never end), files too large to be a spec or a config, and bytes
that are not UTF-8 or control characters (naming the line and column).  :func:`write_text` writes to
a temporary file beside the target and renames it into place: a reader never
sees a half-written file, and a failure leaves the old file (or none).
:func:`check_output` checks an output path before the work that fills it starts.
"""

from __future__ import annotations

import errno
import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from tlaconf.errors import UserError

MAX_TEXT_BYTES = 64 * 1024 * 1024
"""The largest module, config, page or JSON file read whole."""

TMP_MARK = ".tlaconf-tmp"
"""Part of the name of every temporary file :func:`writing` creates."""


NAME_MAX = 255
"""The longest file name (one path component, in bytes) the system takes."""

PATH_MAX = 4095
"""The longest path (in bytes) the system takes."""


def too_long(path: Path | str) -> str | None:
    """Why ``path`` is longer than the system takes (a name or the whole), else None
    (looking it up would raise ``File name too long``)."""
    text = os.fsencode(path)
    if len(text) > PATH_MAX:
        return f"is a path of {len(text):,} bytes, longer than the {PATH_MAX:,} the system takes"
    longest = max(text.split(b"/"), key=len)
    if len(longest) > NAME_MAX:
        return (f"holds a name of {len(longest):,} bytes, longer than the {NAME_MAX} the "
                "system takes")
    return None


def missing(path: Path | str) -> str:
    """Why ``path``, which leads to nothing, is missing: ``does not exist``, ``is a
    symbolic-link loop``, ``is a symbolic link to X, which does not exist`` or that it is
    too long."""
    p = Path(path)
    long = too_long(p)
    if long is not None:
        return long
    if not p.is_symlink():
        return "does not exist"
    try:
        p.stat()
    except OSError as err:
        if err.errno == errno.ELOOP:
            return "is a symbolic-link loop"
    return f"is a symbolic link to {os.readlink(p)}, which does not exist"


def unreadable_path(path: Path | str) -> str | None:
    """Why ``path`` cannot be read as a regular file, or None when it can be tried."""
    p = Path(path)
    if too_long(p) is not None or not p.exists():
        return missing(p)
    if p.is_dir():
        return "is a directory, not a file"
    if not p.is_file():
        return "is not a regular file (a named pipe, device or socket)"
    return None


def read_text(path: Path | str, what: str = "file") -> str:
    """The UTF-8 text of the regular file ``path``; UserError naming ``what`` otherwise."""
    p = Path(path)
    why = unreadable_path(p)
    if why is not None:
        raise UserError(f"cannot read {what} {p}: it {why}")
    try:
        with p.open("rb") as f:
            data = f.read(MAX_TEXT_BYTES + 1)
    except OSError as err:
        raise UserError(f"cannot read {what} {p}: {err.strerror}") from None
    if len(data) > MAX_TEXT_BYTES:
        raise UserError(f"cannot read {what} {p}: larger than {MAX_TEXT_BYTES:,} bytes")
    return decode(data, str(p))


class NotText(UserError):
    """Bytes that are not text tlaconf reads, at ``line``:``col`` (1-based) of ``where``."""

    def __init__(self, message: str, where: str, line: int, col: int) -> None:
        super().__init__(message, f"{where}:{line}:{col}")
        self.line = line
        self.col = col


class NotUtf8(NotText):
    """Bytes that are not UTF-8."""


_CONTROL = re.compile("[\\x00-\\x08\\x0b-\\x0c\\x0e-\\x1f]")
"""The control characters no module, config, page, trace or JSON file holds: the C0
controls but tab, line feed and carriage return (JSON takes none of them raw, TLA+ none
outside a comment; form feed and vertical tab are among them, which Python's
``splitlines`` takes for line ends, so lines would be counted two ways)."""


def decode(data: bytes, where: str, first_line: int = 1) -> str:
    """``data`` as UTF-8 text; :class:`NotText` at ``where:line:col`` of the first byte
    that is not UTF-8 or the first control character (``first_line`` is the line
    ``data`` starts on).  Every text input is decoded here."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + first_line
        col = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise NotUtf8(
            f"not UTF-8: byte 0x{data[err.start]:02x} cannot start or continue a character",
            where, line, col) from None
    bad = _CONTROL.search(text)
    if bad is not None:
        i = bad.start()
        name = _CONTROL_NAMES.get(text[i], "a control character")
        raise NotText(f"{name} (U+{ord(text[i]):04X}) cannot be in a text input (only "
                      "tab, line feed and carriage return can)", where,
                      text.count("\n", 0, i) + first_line, i - text.rfind("\n", 0, i))
    return text


_CONTROL_NAMES = {"\x00": "a NUL character", "\x0b": "a vertical tab", "\x0c": "a form feed",
                  "\x1b": "an escape character"}


def _nearest_existing(p: Path) -> Path:
    while not p.exists() and not p.is_symlink() and p != p.parent:
        p = p.parent
    return p


def check_output(path: Path | str, option: str, *, folder: bool = False) -> None:
    """Before any work is done: UserError naming ``option`` and ``path`` unless a file
    (``folder``: a directory to write into) can be written there.  Missing folders on
    the way are created when writing."""
    if not str(path).strip():
        raise UserError(f"{option}: expected a path, got an empty string")
    p = Path(path)
    if folder and p.exists() and not p.is_dir():
        raise UserError(f"{option} {p}: it is a file, not a directory")
    if not folder and p.is_dir():
        raise UserError(f"{option} {p}: it is a directory, not a file")
    if not folder and p.exists() and not p.is_file():
        raise UserError(f"{option} {p}: it is not a regular file (a named pipe, device or "
                        "socket)")
    base = _nearest_existing(p if folder else (p.parent if str(p.parent) else Path(".")))
    if not base.is_dir():
        raise UserError(f"{option} {p}: {base} is a file, not a directory")
    if not os.access(base, os.W_OK | os.X_OK):
        raise UserError(f"{option} {p}: the directory {base} is not writable")
    try:  # permissions do not tell for root, a read-only file system, /proc, ...
        fd, probe = tempfile.mkstemp(prefix=".tlaconf-probe.", suffix=TMP_MARK, dir=base)
    except OSError as err:
        raise UserError(f"{option} {p}: the directory {base} is not writable "
                        f"({err.strerror})") from None
    os.close(fd)
    os.unlink(probe)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextmanager
def writing(path: Path | str, what: str = "file") -> Iterator[IO[str]]:
    """A text stream whose content becomes ``path`` only when the block ends without an
    exception (written to a temporary file beside it, then renamed)."""
    p = Path(path)
    if p.is_dir():
        raise UserError(f"cannot write {what} {p}: it is a directory")
    if p.exists() and not p.is_file():
        raise UserError(f"cannot write {what} {p}: it is not a regular file")
    folder = p.parent if str(p.parent) else Path(".")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=TMP_MARK, dir=folder)
    except OSError as err:
        raise UserError(f"cannot write {what} {p}: {err.strerror}") from None
    try:
        os.fchmod(fd, 0o666 & ~_umask())  # as open() would create it, not mkstemp's 0600
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            yield f
        os.replace(tmp, p)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        raise UserError(f"cannot write {what} {p}: {err.strerror}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text(path: Path | str, text: str, what: str = "file") -> None:
    """Write ``text`` to ``path`` all at once (see :func:`writing`)."""
    with writing(path, what) as f:
        f.write(text)
