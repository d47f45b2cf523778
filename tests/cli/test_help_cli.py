"""``tlaconf COMMAND --help``: the description is the module docstring after its first paragraph."""

from __future__ import annotations

import importlib

import pytest

from tlaconf.cli import doc_description
from tlaconf.cli.main import build_parser


def test_doc_description_drops_the_first_paragraph() -> None:
    assert doc_description("title\n\nfirst\n\nsecond") == "first\n\nsecond"
    assert doc_description(None) is None


@pytest.mark.parametrize("command", ["eval", "convert", "export", "diff-spec"])
def test_help_shows_the_docstring_body(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    doc = importlib.import_module(f"tlaconf.cli.{command.replace('-', '_')}").__doc__
    body = doc_description(doc)
    assert body
    with pytest.raises(SystemExit):
        build_parser().parse_args([command, "--help"])
    assert " ".join(body.split()) in " ".join(capsys.readouterr().out.split())
