"""The ``tlaconf-trace`` v1 format: writer, reader, models and ITF conversion."""
