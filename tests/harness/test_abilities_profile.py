"""The Abilities9 profile module: published text verbatim, authored text marked; harness purity."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROFILE = ROOT / "spec" / "reference-profile" / "rev2" / "Abilities9.tla"
SEED = "003_7b1b71f6f7c559b7.txt"

# The published definitions exactly as the seed page gives them (indentation lost there).
PUBLISHED = {
    "AbilityShape9": 'AbilityShape9(kind,instructions) ==\nkind \\in AbilityKinds9 /\\ IF kind = '
                     '"Static" THEN Len(instructions) = 0 ELSE Len(instructions) > 0',
    "AbilitySource9": 'AbilitySource9(origin,printedObject,recipient,effectCreator,rule) ==\n'
                      'CASE origin = "Printed" -> ObjectAbilitySource9(printedObject)\n'
                      '[] origin = "Granted" -> ObjectAbilitySource9(recipient)\n'
                      '[] origin = "Lingering" -> ObjectAbilitySource9(effectCreator)\n'
                      '[] origin = "Rule" -> RuleAbilitySource9(rule)',
    "ReturnAbility9": "ReturnAbility9(before,after,actualFinalCheckpointAndChainsComplete,caller)"
                      " ==\n/\\ before.complete /\\ ~before.returned /\\ "
                      "actualFinalCheckpointAndChainsComplete /\\ caller = before.caller\n"
                      "/\\ after = [before EXCEPT !.returned = TRUE]",
}
AUTHORED = ("AbilityKinds9", "ObjectAbilitySource9", "RuleAbilitySource9", "AbilityActive9",
            "CheckpointCandidates96", "FinishAbilityInstruction9", "AbilityUseDue9")


def _definitions(text: str) -> dict[str, tuple[str, str]]:
    """Top-level definition name -> (comment block above it, its text up to the next one)."""
    blocks = re.split(r"\n(?=\S)", text)
    out: dict[str, tuple[str, str]] = {}
    comments: list[str] = []
    for block in blocks:
        if block.startswith("\\*"):
            comments.append(block)
            continue
        m = re.match(r"(\w+)(\(|\s*==)", block)
        if m:
            out[m.group(1)] = ("\n".join(comments), block.strip())
        comments = []
    return out


def _squash(text: str) -> str:
    return " ".join(text.split())


def test_published_definitions_are_verbatim_with_layout_restored() -> None:
    defs = _definitions(PROFILE.read_text(encoding="utf-8"))
    for name, published in PUBLISHED.items():
        comment, body = defs[name]
        assert _squash(body) == _squash(published), name
        assert "authored" not in comment, name
        # only whitespace was restored: the lines keep their published order and text
        assert [ln.strip() for ln in body.splitlines()] == published.splitlines(), name


def test_authored_definitions_are_marked_with_seed_and_section() -> None:
    defs = _definitions(PROFILE.read_text(encoding="utf-8"))
    for name in AUTHORED:
        comment, _ = defs[name]
        assert re.search(rf"\\\* authored: {re.escape(SEED)}, \S", comment), name


def test_profile_module_uses_only_the_standard_modules() -> None:
    text = PROFILE.read_text(encoding="utf-8")
    assert "EXTENDS Naturals, Sequences, FiniteSets, TLC\n" in text


def test_harness_never_imports_the_checker() -> None:
    for path in (ROOT / "harness").rglob("*.py"):
        if "abilities" not in path.parts and path.name not in ("abilities.py",
                                                               "golden_abilities.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert not name.startswith(("tlaconf.evaluate", "tlaconf.replay")), path
