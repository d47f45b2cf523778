"""Which module of the profile a new definition (a name the revision does not define) goes to.

The rules, in order; the first that offers a module able to see every profile
name the definition uses (its own definitions and those of the modules it
EXTENDS or instantiates, new definitions already placed included) decides:

1. **section**: a module holding a definition published in the same section of
   the same page;
2. **authored section**: a module whose ``authored`` comments cite a section
   of that title (of any page);
3. **page**: a module holding another definition of the same page (the nearest
   fragment first);
4. **topic**: a module whose provenance comments cite the same page file, or
   whose header comment contains the page's title;
5. **uses**: any module of the revision.

Among several modules one rule offers, the one defining most of the names the
definition uses wins, then the first by name.  When no module qualifies,
revise stops and says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from tlaconf.errors import UserError
from tlaconf.revision.pages import PageDefinition, normalize
from tlaconf.revision.profile import ProfileModule, import_closure
from tlaconf.tla import ast
from tlaconf.tla.stdnames import used_names


def uses(defn: PageDefinition, known: Iterable[str]) -> set[str]:
    """The names of ``known`` the definition uses (its parameters excepted)."""
    params = {p.name for p in defn.unit.params} if isinstance(defn.unit, ast.OpDef) else set()
    return (set(used_names(defn.unit.body)) & set(known)) - params - {defn.name}


class Placer:
    """Places the new definitions of a revision, one after the other."""

    def __init__(
        self,
        modules: Mapping[str, ProfileModule],
        published: Mapping[str, PageDefinition],
        home: Mapping[str, str],
    ) -> None:
        self.modules = modules
        self.published = published
        """Every definition the pages publish, by name."""
        self.home = dict(home)
        """Definition name -> the module holding it (the revision's, then the placed ones)."""
        self.original = frozenset(home)

    def _sees(self, module: str, names: set[str]) -> bool:
        closure = import_closure(dict(self.modules), module)
        return all(self.home.get(n) in closure for n in names)

    def _rules(self, defn: PageDefinition) -> list[Callable[[ProfileModule], str]]:
        """Per rule, a function giving why a module qualifies ("" when it does not)."""
        same_page = [
            d for d in self.published.values()
            if d.page == defn.page and d.name != defn.name and d.name in self.original
        ]  # fmt: skip
        section = normalize(defn.section)
        nearest = min((abs(d.fragment - defn.fragment) for d in same_page), default=0)
        title = normalize(defn.title)

        def with_(defs: list[PageDefinition], why: str) -> Callable[[ProfileModule], str]:
            def reason(m: ProfileModule) -> str:
                names = [d.name for d in defs if self.home[d.name] == m.name]
                return f"with {', '.join(names)} ({why})" if names else ""

            return reason

        in_section = [d for d in same_page if normalize(d.section) == section]
        near = [d for d in same_page if abs(d.fragment - defn.fragment) == nearest]
        return [
            with_(in_section, "same section of the page"),
            lambda m: "its authored definitions cite the section"
            if section and section in m.sections else "",
            with_(near, "same page"),
            lambda m: "it cites the page" if defn.page_name in m.pages else
            "its header names the page's topic" if title and title in m.header else "",
            lambda m: "it sees every name the definition uses",
        ]  # fmt: skip

    def place(self, defn: PageDefinition) -> tuple[str, str]:
        """The module for ``defn`` and why the rule that chose it did; records the placement."""
        needed = uses(defn, self.home)
        for why in self._rules(defn):
            fits = [m for m in self.modules.values() if why(m) and self._sees(m.name, needed)]
            if fits:
                best = min(
                    fits,
                    key=lambda m: (-sum(self.home[n] == m.name for n in needed), m.name),
                )
                self.home[defn.name] = best.name
                return best.name, why(best)
        names = ", ".join(sorted(needed))
        raise UserError(
            f"cannot place the new definition {defn.name}: no module of the revision sees "
            f"every profile name it uses ({names})",
            defn.where,
        )
