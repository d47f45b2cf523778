"""The ``tlaconf`` command line: one module per subcommand."""
