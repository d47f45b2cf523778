"""The library path: where modules that are neither beside the spec nor standard are found.

Entries come from ``--library PATH`` (repeatable, on every command that loads modules)
and then ``TLACONF_LIBRARY`` (``:``-separated); while a command runs, :func:`given`
puts its ``--library`` entries in front of ``TLACONF_LIBRARY``, so every module lookup
of the run (the spec directory's, ``-j`` workers', a checker's) sees the same path.
Each entry is a folder of ``.tla`` files or a jar (any zip file) holding them, such as
the CommunityModules jar users keep beside ``tla2tools.jar``; they are searched after
the spec folder, in order, as TLC's ``-DTLA-Library`` and class path are (a standard
module's name is looked for in the standard modules first, as on TLC's class path).  A module in
a jar is read in place (never extracted): its errors are located at ``JAR!/member.tla``.
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from tlaconf.errors import UserError
from tlaconf.files import missing, too_long

ENV = "TLACONF_LIBRARY"


@dataclass(frozen=True)
class JarMember:
    """One ``.tla`` file inside a jar: its text and the name errors give it."""

    jar: Path
    member: str

    @property
    def label(self) -> str:
        return f"{self.jar}!/{self.member}"

    def read(self) -> str:
        try:
            with zipfile.ZipFile(self.jar) as z:
                data = z.read(self.member)
        except (OSError, zipfile.BadZipFile, KeyError) as err:
            raise UserError(f"cannot read module {self.label}: {err}") from None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise UserError(f"cannot read module {self.label}: not UTF-8 text "
                            f"(byte {err.start})") from None


def is_jar(path: Path) -> bool:
    """Whether a library entry is a jar (a file) rather than a folder."""
    return path.is_file()


_INDEX: dict[tuple[str, int, int], dict[str, str]] = {}


def _index(jar: Path) -> dict[str, str]:
    """Module name -> member path of every ``.tla`` file in ``jar`` (the shallowest wins)."""
    st = jar.stat()
    key = (str(jar), st.st_size, st.st_mtime_ns)
    if key not in _INDEX:
        try:
            with zipfile.ZipFile(jar) as z:
                names = [n for n in z.namelist() if n.endswith(".tla") and not n.endswith("/")]
        except (OSError, zipfile.BadZipFile) as err:
            raise UserError(f"library entry {jar}: not a readable jar ({err})") from None
        found: dict[str, str] = {}
        for name in sorted(names, key=lambda n: (n.count("/"), n)):
            found.setdefault(PurePosixPath(name).stem, name)
        _INDEX[key] = found
    return _INDEX[key]


def jar_member(jar: Path, module: str) -> JarMember | None:
    """The file of ``module`` in ``jar``, if it holds one."""
    member = _index(jar).get(module)
    return JarMember(jar, member) if member is not None else None


def library_path(
    given: Sequence[str | Path] = (), environ: Mapping[str, str] | None = None
) -> tuple[Path, ...]:
    """The library entries: ``given`` (``--library``), then ``TLACONF_LIBRARY``.

    UserError naming the entry (and where it came from) when one is neither a folder
    nor a readable jar."""
    env = os.environ if environ is None else environ
    entries: list[tuple[Path, str]] = [(Path(p), "--library") for p in given]
    entries += [(Path(p), ENV) for p in env.get(ENV, "").split(":") if p]
    out: list[Path] = []
    for path, origin in entries:
        long = too_long(path)
        if long is not None:
            raise UserError(f"{origin} {str(path)[:60]}...: it {long}")
        if path.is_dir():
            out.append(path)
        elif path.is_file():
            try:  # a file that is not a zip is reported now, not when a module is missing
                _index(path)
            except UserError as err:
                raise UserError(f"{origin} {err.message.removeprefix('library entry ')}"
                                ) from None
            out.append(path)
        elif path.exists():
            raise UserError(f"{origin} {path}: not a folder or a jar (a named pipe, device "
                            "or socket)")
        else:
            why = "no such folder or jar" if not path.is_symlink() else f"it {missing(path)}"
            raise UserError(f"{origin} {path}: {why}")
    return tuple(out)


@contextmanager
def given(entries: Sequence[str | Path]) -> Iterator[tuple[Path, ...]]:
    """For the duration of one command: ``--library`` ``entries`` first on the library
    path (``TLACONF_LIBRARY`` as the command's children see it too); UserError naming a
    bad entry before anything runs.  Yields the whole path."""
    path = library_path(entries)
    saved = os.environ.get(ENV)
    if entries:
        os.environ[ENV] = ":".join(str(p) for p in path)
    try:
        yield path
    finally:
        if entries:
            if saved is None:
                os.environ.pop(ENV, None)
            else:
                os.environ[ENV] = saved
