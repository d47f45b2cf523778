"""The ``tlaconf`` command line: one module per subcommand."""


def doc_description(doc: str | None) -> str | None:
    """A subcommand's ``--help`` description: its module docstring after the first paragraph."""
    return doc.split("\n\n", 1)[1] if doc else None
