"""The TLA+ front end: text -> AST -> resolved module graph.

Pipeline: :mod:`~tlaconf.tla.lexer` (tokens, comments dropped) ->
:mod:`~tlaconf.tla.layout` (bulleted ``/\\`` ``\\/`` lists by column, ``[]`` as CASE
separator or box, labels, TLAPS proofs skipped) -> the LALR grammar ``tla.lark``
driven by :mod:`~tlaconf.tla.parser` with :mod:`~tlaconf.tla.builder` building
:mod:`~tlaconf.tla.ast` nodes -> :mod:`~tlaconf.tla.resolve` (names, arities,
EXTENDS/INSTANCE, standard modules in ``stdlib/``).  :mod:`~tlaconf.tla.fragments`
extracts the definitions published on specification pages.

Entry points: ``parser.parse_module``, ``parser.parse_modules``,
``parser.parse_expression``, ``parser.parse_units``, ``parser.load_module_file``,
``resolve.resolve``, ``resolve.load``, ``fragments.extract``.  Every error is a
:class:`~tlaconf.errors.UserError` (``ParseError``, ``ResolveErrors``) located at
``file:line:col`` with a caret line.
"""
