"""Which module of the profile a new definition (a name the revision does not define) goes to.

The rules, in order; the first that offers a module able to see every profile
name the definition uses (its own definitions, CONSTANTS and VARIABLES and
those of the modules it EXTENDS or instantiates, new definitions already placed
included) decides:

1. **section**: a module holding a definition published in the same section of
   the same page;
2. **authored section**: a module whose ``authored`` comments cite a section
   of that title (of any page);
3. **page**: a module holding another definition of the same page (the nearest
   fragment first);
4. **topic**: a module whose provenance comments cite the same page file, or
   whose header comment contains the page's title, or whose name's words
   (``DeckOrder4``: deck, order) are words of the title (``Deck order and
   shuffles``); citing modules first, then the most words, the earliest in the
   title, the fewest words in all;
5. **number**: a module whose name ends with the definition name's number
   (``Foo9`` -> ``Abilities9``);
6. **uses**: any module of the revision.

Among modules a rule ranks alike, the one defining most of the names the
definition uses wins, then the first by name.  When no module qualifies,
revise stops and says so.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

from tlaconf.errors import UserError
from tlaconf.revision.pages import PageDefinition, normalize
from tlaconf.revision.profile import ProfileModule, import_closure
from tlaconf.tla import ast
from tlaconf.tla.visit import free_names

Rule = Callable[[ProfileModule], tuple[str, tuple[int, ...]] | None]
"""Why a module qualifies under a rule and its rank there (lower first), or None."""


def uses(defn: PageDefinition, known: Iterable[str]) -> set[str]:
    """The names of ``known`` the definition uses (its parameters excepted)."""
    params = [p.name for p in defn.unit.params] if isinstance(defn.unit, ast.OpDef) else []
    free = {name for name, path in free_names(defn.unit.body, params) if not path}
    return (free & set(known)) - {defn.name}


def _stem(word: str) -> str:
    word = word.casefold()
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def name_words(name: str) -> list[str]:
    """``DeckOrder4`` -> ``["deck", "order"]`` (stemmed: ``Abilities9`` -> ``["ability"]``)."""
    return [_stem(w) for w in re.findall(r"[A-Z][a-z]+|[a-z]+", name)]


def _number(name: str) -> str:
    m = re.search(r"[0-9]+\Z", name)
    return m.group() if m else ""


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
        declared = {
            n: m.name for m in modules.values()
            for n in (*(c.name for c in m.module.constants()), *m.module.variables())
        }  # fmt: skip
        self.home = {**declared, **home}
        """Name -> the module defining (or declaring) it: the revision's definitions, its
        CONSTANTS and VARIABLES, then the placed definitions."""
        self.original = frozenset(home)

    def _sees(self, module: str, names: set[str]) -> bool:
        closure = import_closure(dict(self.modules), module)
        return all(self.home.get(n) in closure for n in names)

    def _rules(self, defn: PageDefinition) -> list[Rule]:
        same_page = [
            d for d in self.published.values()
            if d.page == defn.page and d.name != defn.name and d.name in self.original
        ]  # fmt: skip
        section = normalize(defn.section)
        title = normalize(defn.title)
        title_words = [_stem(w) for w in re.findall(r"[A-Za-z]+", defn.title)]
        number = _number(defn.name)

        def with_(defs: list[PageDefinition], why: str) -> Rule:
            def rule(m: ProfileModule) -> tuple[str, tuple[int, ...]] | None:
                mine = [d for d in defs if self.home[d.name] == m.name]
                if not mine:
                    return None
                distance = min(abs(d.fragment - defn.fragment) for d in mine)
                return f"with {', '.join(d.name for d in mine)} ({why})", (distance,)

            return rule

        def authored(m: ProfileModule) -> tuple[str, tuple[int, ...]] | None:
            return ("its authored definitions cite the section", ()) if section and \
                section in m.sections else None  # fmt: skip

        def topic(m: ProfileModule) -> tuple[str, tuple[int, ...]] | None:
            if defn.page_name in m.pages:
                return "it cites the page", (0,)
            if title and title in m.header:
                return "its header names the page's topic", (0,)
            words = name_words(m.name)
            hits = [title_words.index(w) for w in words if w in title_words]
            if not hits:
                return None
            return "its name is the page's topic", (1, -len(hits), min(hits), len(words))

        def numbered(m: ProfileModule) -> tuple[str, tuple[int, ...]] | None:
            return (f"its name ends in {number}, as the definition's", ()) if number and \
                _number(m.name) == number else None  # fmt: skip

        in_section = [d for d in same_page if normalize(d.section) == section]
        return [
            with_(in_section, "same section of the page"),
            authored,
            with_(same_page, "same page"),
            topic,
            numbered,
            lambda m: ("it sees every name the definition uses", ()),
        ]

    def place(self, defn: PageDefinition) -> tuple[str, str]:
        """The module for ``defn`` and why the rule that chose it did; records the placement."""
        needed = uses(defn, self.home)
        for rule in self._rules(defn):
            ranked = [
                (verdict, m) for m in self.modules.values()
                if (verdict := rule(m)) is not None and self._sees(m.name, needed)
            ]  # fmt: skip
            if ranked:
                (why, _), best = min(
                    ranked,
                    key=lambda vm: (
                        vm[0][1], -sum(self.home[n] == vm[1].name for n in needed), vm[1].name
                    ),
                )  # fmt: skip
                self.home[defn.name] = best.name
                return best.name, why
        names = ", ".join(sorted(needed))
        raise UserError(
            f"cannot place the new definition {defn.name}: no module of the revision sees "
            f"every profile name it uses ({names})",
            defn.where,
        )
