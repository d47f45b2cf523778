"""The specification on disk: spec folders, module lookup, ``.cfg`` files, :class:`ModuleSpec`.

Below evaluation and replay: it finds and describes modules, it does not evaluate them.
"""

from tlaconf.spec.cfg import Cfg, parse_cfg, read_cfg
from tlaconf.spec.lookup import (
    default_dir,
    default_spec_dir,
    module_spec,
    resolve_spec_dir,
    revision_dir,
    search_path,
)
from tlaconf.spec.module_spec import ModuleSpec

__all__ = [
    "Cfg",
    "ModuleSpec",
    "default_dir",
    "default_spec_dir",
    "module_spec",
    "parse_cfg",
    "read_cfg",
    "resolve_spec_dir",
    "revision_dir",
    "search_path",
]
